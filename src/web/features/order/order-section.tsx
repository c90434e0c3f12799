// The order section (id order, spec §2): on the landing and, as a page of its own, at /order
// (which also takes ?duration= from the pricing cards and ?speed= from the stream test).
import { MessageCircle } from "lucide-react";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { useBranding } from "@/web/lib/queries/branding";
import { useSupportHours } from "@/web/lib/queries/settings";
import { OrderForm } from "./order-form";

export function OrderSection({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const hours = useSupportHours();
  return (
    <section id="order" aria-labelledby="order-heading" className="py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="order-heading"
          level={headingLevel}
          eyebrow="Order"
          title="Ready to start streaming?"
          description={`Tell us what you'd like and we'll set you up on WhatsApp, usually within minutes during support hours (${hours}).`}
        />
        <div className="mx-auto mt-10 max-w-3xl rounded-card border border-line bg-surface p-5 shadow-xl shadow-black/20 sm:p-8">
          {/* On /order the visitor came to order: the form's code loads at once. */}
          <OrderForm eager={headingLevel === 1} />
        </div>
        <AskFirst />
      </Container>
    </section>
  );
}

/** For the visitor who would rather ask a person before filling in a form. */
function AskFirst() {
  const { branding } = useBranding();
  if (!branding.whatsappNumber) return null;
  const greeting = `Hi${branding.companyName ? ` ${branding.companyName}` : ""}, I have a question before I order.`;
  return (
    <p className="mx-auto mt-6 max-w-3xl text-center text-sm text-ink-muted">
      Rather ask first?{" "}
      <a
        href={buildWhatsAppLink(branding.whatsappNumber, greeting)}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex min-h-11 items-center gap-1.5 font-semibold text-accent-ink underline-offset-4 hover:underline"
      >
        <MessageCircle aria-hidden="true" className="size-4" />
        WhatsApp us on {formatPhoneForDisplay(branding.whatsappNumber)}
      </a>
    </p>
  );
}
