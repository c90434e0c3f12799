// The landing's stream test section (spec §2 "Stream test card"); it links to /stream-test.
import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/web/components/ui/button";
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
        {showFullPageLink ? (
          <div className="mt-8 flex justify-center">
            <Link to="/stream-test" className={buttonClasses({ variant: "outline" })}>
              View Full Page
              <ArrowRight aria-hidden="true" />
            </Link>
          </div>
        ) : null}
      </Container>
    </section>
  );
}
