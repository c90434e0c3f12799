// How to use (spec §2): the three steps (1. Choose & Pay, 2. Download App, 3. Watch
// Everything), then 'Supported Apps & Devices'. That list belongs to the downloads feature, so
// whoever places this section passes it in (`apps`); without it, a link to the downloads page
// stands in its place.
import { CreditCard, Download, Tv } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { FullPageLink } from "@/web/components/full-page-link";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";

export const STEPS = [
  {
    Icon: CreditCard,
    title: "1. Choose & Pay",
    text: "Pick a package, or start with the free 24-hour trial. Pay by card or EFT.",
    more: "Card payments open a secure payment page. For EFT we give you a reference and our bank details.",
  },
  {
    Icon: Download,
    title: "2. Download App",
    text: "Install the player app on your phone, smart TV, TV box or PC. We send the steps.",
    more: "Each supported app has a download link, and we can send its setup guide to your WhatsApp or e-mail.",
  },
  {
    Icon: Tv,
    title: "3. Watch Everything",
    text: "Sign in with the details we send you and start watching live TV, sport and movies.",
    more: "Stuck on a step? Send us a WhatsApp with a photo of the screen and we'll help you finish.",
  },
] as const;

export interface HowToUseSectionProps {
  showFullPageLink?: boolean;
  headingLevel?: 1 | 2;
  /** 'Supported Apps & Devices', from the downloads feature */
  apps?: ReactNode;
  /** the full page: each step says a little more */
  detailed?: boolean;
}

export function HowToUseSection({ showFullPageLink = false, headingLevel = 2, apps, detailed = false }: HowToUseSectionProps) {
  return (
    <section id="how-to-use" aria-labelledby="how-to-use-heading" className="py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="how-to-use-heading"
          level={headingLevel}
          eyebrow="How it works"
          title="Start watching in three steps"
          description="No dish, no installer, no contract. Most people are watching within minutes."
        />
        <ol className="mt-12 grid grid-cols-1 gap-4 md:grid-cols-3 md:gap-6">
          {STEPS.map(({ Icon, title, text, more }) => (
            <li key={title} className="flex gap-4 rounded-card border border-line bg-surface p-5 sm:p-6 md:flex-col">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-accent/15 text-accent-ink">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <div className="flex flex-col gap-2">
                <h3 className="text-lg font-semibold text-ink">{title}</h3>
                <p className="text-sm text-ink-muted">{text}</p>
                {detailed ? <p className="text-sm text-ink-muted">{more}</p> : null}
              </div>
            </li>
          ))}
        </ol>

        <div className="mt-16">
          {apps ?? (
            <div className="flex flex-col items-center gap-3 rounded-card border border-line bg-surface p-8 text-center">
              <h3 className="text-2xl font-bold tracking-tight text-ink">Supported Apps & Devices</h3>
              <p className="max-w-xl text-ink-muted">
                Android phones and boxes, Fire Sticks, Samsung, LG and Hisense Smart TVs, and more. See every app and its setup steps.
              </p>
              <Link to="/downloads" className={buttonClasses({ variant: "secondary", className: "mt-2" })}>
                <Download aria-hidden="true" />
                See the apps
              </Link>
            </div>
          )}
        </div>

        {showFullPageLink ? <FullPageLink to="/how-to-use" className="mt-10" /> : null}
      </Container>
    </section>
  );
}
