// The two dashboard cards (spec §2): Business Dashboard → /admin/login (admin variant) and
// Client Dashboard → /client/login (client variant). The card's title is its link, stretched over
// the whole card, so a click anywhere opens it while the link's name is the text it shows (WCAG
// 2.5.3, label in name); Enter or (as the spec asks, unlike a plain link) Space opens it. Its
// benefits list shows at most 2 items; up to 3 featured app logos sit underneath.
import { ArrowRight, Briefcase, UserRound } from "lucide-react";
import { type KeyboardEvent, useId } from "react";
import { Link, useNavigate } from "react-router";
import { cn } from "@/web/lib/cn";
import type { AppLogo } from "./api/get-featured-apps";

export type DashboardVariant = "admin" | "client";

const CARDS: Record<DashboardVariant, { title: string; text: string; to: string; benefits: string[] }> = {
  admin: {
    title: "Business Dashboard",
    text: "For the team: orders, clients, payments and content in one place.",
    to: "/admin/login",
    benefits: ["Track orders, leads and payments", "Manage clients and subscriptions", "Edit packages, specials and banners"],
  },
  client: {
    title: "Client Dashboard",
    text: "For subscribers: your account, payments and renewals.",
    to: "/client/login",
    benefits: ["See your subscription and line details", "Renew and view your payment history", "Request channels, films and series"],
  },
};

/** Spec §2: each card shows at most this many benefits. */
export const MAX_BENEFITS = 2;
export const MAX_APP_LOGOS = 3;

export function DashboardCard({ variant, appLogos }: { variant: DashboardVariant; appLogos: readonly AppLogo[] }) {
  const navigate = useNavigate();
  const id = useId();
  const card = CARDS[variant];
  const Icon = variant === "admin" ? Briefcase : UserRound;
  // Enter already follows a link; Space would scroll the page instead.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === " ") {
      event.preventDefault();
      navigate(card.to);
    }
  };
  return (
    <div
      data-dashboard={variant}
      className="group relative flex h-full flex-col gap-4 rounded-card border border-line bg-surface-raised/70 p-5 text-left transition-colors hover:border-line-strong hover:bg-surface-raised sm:p-6"
    >
      <div className="flex flex-col items-start gap-3 min-[22rem]:flex-row min-[22rem]:gap-4">
        <span
          className={cn(
            "flex size-11 shrink-0 items-center justify-center rounded-xl",
            variant === "admin" ? "bg-sky-400/15 text-sky-300" : "bg-accent/15 text-accent-ink",
          )}
        >
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="flex items-center gap-2 font-semibold text-ink">
            <Link
              to={card.to}
              onKeyDown={onKeyDown}
              aria-describedby={`${id}-text`}
              className="after:absolute after:inset-0 after:rounded-card after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-accent-ink"
            >
              {card.title}
            </Link>
            <ArrowRight aria-hidden="true" className="size-4 text-ink-subtle transition-transform group-hover:translate-x-0.5" />
          </h3>
          <p id={`${id}-text`} className="mt-1 text-sm text-ink-muted">
            {card.text}
          </p>
        </div>
      </div>
      <ul className="flex flex-col gap-1.5 text-sm text-ink-muted">
        {card.benefits.slice(0, MAX_BENEFITS).map((benefit) => (
          <li key={benefit} className="flex items-center gap-2">
            <span aria-hidden="true" className="size-1.5 shrink-0 rounded-full bg-ok" />
            {benefit}
          </li>
        ))}
      </ul>
      {appLogos.length ? (
        <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-line pt-4">
          <span className="text-xs text-ink-subtle">Works with</span>
          <ul className="flex items-center gap-2">
            {appLogos.slice(0, MAX_APP_LOGOS).map((app) => (
              <li key={app.name}>
                <img
                  src={app.logoUrl}
                  alt={app.name}
                  title={app.name}
                  width={28}
                  height={28}
                  loading="lazy"
                  className="size-7 rounded-md bg-surface-overlay object-contain"
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
