import { FullPageLink } from "@/web/components/full-page-link";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { StreamTestCard } from "./stream-test-card";

export function StreamTestSection({ showFullPageLink = true }: { showFullPageLink?: boolean }) {
  return (
    <section id="stream-test" aria-labelledby="stream-test-heading" className="py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="stream-test-heading"
          eyebrow="Stream test"
          title="Is your connection ready to stream?"
          description="Test your line before you order: we measure your download speed, latency, jitter and packet loss, and tell you which picture quality it handles well."
        />
        <StreamTestCard className="mx-auto mt-10 max-w-3xl" />
        {showFullPageLink ? <FullPageLink to="/stream-test" className="mt-8" /> : null}
      </Container>
    </section>
  );
}
