// /support: how to reach a person (WhatsApp, e-mail, hours from settings), and the self-help pages.
import { useQuery } from "@tanstack/react-query";
import {
  Activity,
  BookOpen,
  ChevronRight,
  Clock,
  Download,
  Gauge,
  type LucideIcon,
  Mail,
  MessageCircle,
  MonitorSmartphone,
  Wrench,
} from "lucide-react";
import { Link } from "react-router";
import { overallStatus, STATUS_LABELS } from "@/shared/status";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { cn } from "@/web/lib/cn";
import { useBranding } from "@/web/lib/queries/branding";
import { useSupportHours } from "@/web/lib/queries/settings";
import { statusQueryOptions } from "@/web/lib/queries/status";
import { greeting } from "./contact-buttons";

interface SelfHelp {
  to: string;
  title: string;
  text: string;
  Icon: LucideIcon;
}

const SELF_HELP: SelfHelp[] = [
  { to: "/knowledge-base", title: "Help Centre", text: "Search answers about setup, payments and picture quality.", Icon: BookOpen },
  {
    to: "/setup-guide",
    title: "Setup guide",
    text: "Step-by-step instructions for your phone, TV, Fire Stick or PC.",
    Icon: MonitorSmartphone,
  },
  {
    to: "/technical-support",
    title: "Technical support",
    text: "Checklists for buffering, sign-in problems, no sound and more.",
    Icon: Wrench,
  },
  { to: "/stream-test", title: "Stream test", text: "See whether your connection is ready for HD or 4K.", Icon: Gauge },
  { to: "/downloads", title: "Downloads", text: "The player apps for each device, with install instructions.", Icon: Download },
];

export function SupportPage() {
  const { branding } = useBranding();
  const hours = useSupportHours();
  const { data: status } = useQuery(statusQueryOptions());
  const overall = status?.overall ?? overallStatus(status?.data);
  const { whatsappNumber, supportEmail, companyName } = branding;

  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-3xl flex-col gap-4">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">Support</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">We're here to help</h1>
        <p className="text-lg text-pretty text-ink-muted">
          Talk to our local team, {hours}, or find the answer yourself in a minute with the guides below.
        </p>
      </div>

      <section aria-labelledby="talk-heading" className="mt-12">
        <h2 id="talk-heading" className="mb-5 text-xl font-semibold text-ink">
          Talk to a person
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {whatsappNumber ? (
            <Channel
              Icon={MessageCircle}
              title="WhatsApp"
              text="The quickest way to reach us. Send a photo of the screen if something looks wrong."
            >
              <a
                href={buildWhatsAppLink(whatsappNumber, `${greeting(companyName)}I need some help, please.`)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses({ className: "w-full" })}
              >
                <MessageCircle aria-hidden="true" />
                {formatPhoneForDisplay(whatsappNumber)}
              </a>
            </Channel>
          ) : null}
          {supportEmail ? (
            <Channel Icon={Mail} title="E-mail" text="For account questions, payments and anything that needs a longer answer.">
              <a href={`mailto:${supportEmail}`} className={buttonClasses({ variant: "outline", className: "w-full" })}>
                <Mail aria-hidden="true" />
                {/* wraps on a narrow (or zoomed) screen rather than widening the page */}
                <span className="min-w-0 [overflow-wrap:anywhere] sm:truncate">{supportEmail}</span>
              </a>
            </Channel>
          ) : null}
          <Channel Icon={Clock} title="Support hours" text="When our team answers on WhatsApp and e-mail.">
            <p className="flex min-h-12 items-center rounded-xl bg-surface-raised px-4 font-semibold text-ink">{hours}</p>
          </Channel>
        </ul>
      </section>

      <section aria-labelledby="self-help-heading" className="mt-14">
        <h2 id="self-help-heading" className="mb-5 text-xl font-semibold text-ink">
          Help yourself
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <li>
            <Link
              to="/status"
              className="group flex h-full items-start gap-4 rounded-card border border-line bg-surface p-5 transition-colors hover:border-accent/60 hover:bg-surface-raised"
            >
              <Activity
                aria-hidden="true"
                className={cn(
                  "mt-0.5 size-6 shrink-0",
                  overall === "down" ? "text-bad" : overall === "maintenance" ? "text-sky-300" : "text-ok",
                )}
              />
              <span className="flex flex-1 flex-col gap-1">
                <span className="font-semibold text-ink">System status</span>
                <span className="text-sm text-ink-muted">Right now: {STATUS_LABELS[overall]}.</span>
              </span>
              <ChevronRight aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ink-subtle" />
            </Link>
          </li>
          {SELF_HELP.map(({ to, title, text, Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="group flex h-full items-start gap-4 rounded-card border border-line bg-surface p-5 transition-colors hover:border-accent/60 hover:bg-surface-raised"
              >
                <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-accent-ink" />
                <span className="flex flex-1 flex-col gap-1">
                  <span className="font-semibold text-ink">{title}</span>
                  <span className="text-sm text-ink-muted">{text}</span>
                </span>
                <ChevronRight aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ink-subtle" />
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </Container>
  );
}

function Channel({ Icon, title, text, children }: { Icon: LucideIcon; title: string; text: string; children: React.ReactNode }) {
  return (
    <li className="flex min-w-0 flex-col gap-4 rounded-card border border-line bg-surface p-6">
      <span className="flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent-ink">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="flex flex-1 flex-col gap-1">
        <h3 className="text-lg font-semibold text-ink">{title}</h3>
        <p className="text-sm text-ink-muted">{text}</p>
      </div>
      {children}
    </li>
  );
}
