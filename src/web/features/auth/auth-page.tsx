// /auth: choose which sign-in you need (spec §2 'Generic auth page').
import { Briefcase, ChevronRight, UserRound } from "lucide-react";
import { Link } from "react-router";
import { PageIntro } from "@/web/components/ui/page-intro";

const CHOICES = [
  {
    to: "/client/login",
    Icon: UserRound,
    title: "Client Portal",
    text: "For customers: your subscription, line details, payments and specials.",
    action: "Client sign-in",
  },
  {
    to: "/admin/login",
    Icon: Briefcase,
    title: "Business Dashboard",
    text: "For staff: packages, clients, orders and site content.",
    action: "Admin sign-in",
  },
];

export function AuthPage() {
  return (
    <PageIntro title="Sign in" description="Choose where you'd like to sign in.">
      <ul className="grid max-w-3xl gap-4 sm:grid-cols-2">
        {CHOICES.map(({ to, Icon, title, text, action }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full flex-col gap-3 rounded-card border border-line bg-surface p-6 transition-colors hover:border-accent/60 hover:bg-surface-raised"
            >
              <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft">
                <Icon aria-hidden="true" className="size-6 text-accent-ink" />
              </span>
              <span className="text-lg font-semibold text-ink">{title}</span>
              <span className="flex-1 text-sm text-ink-muted">{text}</span>
              <span aria-hidden="true" className="inline-flex items-center gap-1 text-sm font-semibold text-accent-ink">
                {action}
                <ChevronRight className="size-4 transition-transform group-hover:translate-x-0.5" />
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-8 max-w-3xl text-ink-muted">
        Not a client yet?{" "}
        <Link to="/pricing" className="font-medium text-accent-ink underline underline-offset-4">
          See the packages
        </Link>{" "}
        or start with a free 24-hour trial.
      </p>
    </PageIntro>
  );
}
