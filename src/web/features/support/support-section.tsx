// The landing's support section (spec §2: "hero, about, pricing, stream test, support, order
// form, footer"; "The support section links to /support"): the hours people answer, WhatsApp
// and e-mail with a message already started, the self-help pages, and the full support page.
import { ArrowRight, BookOpen, Clock, MonitorSmartphone, Wrench } from "lucide-react";
import { Link } from "react-router";
import { HelpLinks } from "@/web/components/help-links";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { useSupportHours } from "@/web/lib/queries/settings";
import { ContactButtons, greeting } from "./contact-buttons";

const SELF_HELP = [
  { to: "/knowledge-base", title: "Help Centre", text: "Answers about setup, payments and picture quality.", icon: BookOpen },
  { to: "/setup-guide", title: "Setup guide", text: "Step by step for your phone, TV, Fire Stick or PC.", icon: MonitorSmartphone },
  { to: "/technical-support", title: "Technical support", text: "Checklists for buffering, sign-in problems and more.", icon: Wrench },
] as const;

export function SupportSection() {
  const hours = useSupportHours();
  return (
    <section id="support" aria-labelledby="support-heading" className="py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="support-heading"
          eyebrow="Support"
          title="Real people, here to help"
          description="Our local team answers on WhatsApp and e-mail. Stuck on a step? Send us a photo of the screen and we'll help you finish."
        />

        <div className="mx-auto mt-10 grid max-w-5xl gap-4 lg:grid-cols-[1fr_1.3fr]">
          <div className="flex flex-col gap-5 rounded-card border border-line bg-surface p-6 sm:p-8">
            <div className="flex items-center gap-4">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-ink">
                <Clock aria-hidden="true" className="size-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-ink">Support hours</h3>
                <p className="text-ink-muted" data-testid="support-hours">
                  {hours}
                </p>
              </div>
            </div>
            <ContactButtons message={(name) => `${greeting(name)}I need some help, please.`} />
          </div>

          <HelpLinks links={SELF_HELP} look="cards" />
        </div>

        <div className="mt-8 flex justify-center">
          <Link to="/support" className={buttonClasses({ variant: "outline" })}>
            All the ways to get help
            <ArrowRight aria-hidden="true" />
          </Link>
        </div>
      </Container>
    </section>
  );
}
