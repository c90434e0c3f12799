// The order section (id order, spec §2): on the landing and, as a page of its own, at /order
// (which also takes ?duration= from the pricing cards and ?speed= from the stream test).
import { SUPPORT_HOURS } from "@/shared/constants";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { useSettings } from "./api/get-settings";
import { OrderForm } from "./order-form";

export function OrderSection({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const hours = useSettings().data?.support_hours?.trim() || SUPPORT_HOURS;
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
          <OrderForm />
        </div>
      </Container>
    </section>
  );
}
