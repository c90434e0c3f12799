// /testimonials: every published review, with the mascot, the static quotes and the promise.
import { Quote } from "lucide-react";
import { formatDate } from "@/shared/dates";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useTestimonials } from "./api/get-testimonials";
import { Stars } from "./stars";
import { useTestimonialsContent } from "./testimonials-content";
import { Mascot } from "./testimonials-section";

export function TestimonialsPage() {
  const { testimonials, isLoading } = useTestimonials();
  const words = useTestimonialsContent();
  return (
    <section aria-labelledby="testimonials-heading" className="py-14 sm:py-20">
      <Container>
        <div className="flex flex-col items-center gap-8 lg:flex-row lg:items-end lg:justify-between">
          <SectionHeading
            id="testimonials-heading"
            level={1}
            eyebrow="Testimonials"
            title={words.title}
            description={words.description}
            align="left"
            className="items-center text-center lg:items-start lg:text-left"
          />
          <Mascot className="shrink-0" />
        </div>

        {isLoading ? (
          <ul className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
            {[0, 1, 2].map((i) => (
              <li key={i} className="rounded-card border border-line bg-surface p-6">
                <Skeleton className="mb-4 h-5 w-28" />
                <Skeleton className="mb-2 h-4 w-full" />
                <Skeleton className="mb-6 h-4 w-4/5" />
                <Skeleton className="h-4 w-32" />
              </li>
            ))}
          </ul>
        ) : testimonials.length ? (
          <ul className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-label="Customer reviews">
            {testimonials.map((t) => (
              <li key={t.id}>
                <figure
                  className="relative flex h-full flex-col gap-4 rounded-card border border-line bg-surface p-6"
                  data-testid="testimonial"
                >
                  <Quote aria-hidden="true" className="absolute top-5 right-5 size-8 text-surface-overlay" />
                  <Stars rating={t.rating} />
                  <blockquote className="flex-1 text-ink">“{t.content}”</blockquote>
                  <figcaption className="text-sm">
                    <span className="font-semibold text-ink">{t.client_name}</span>
                    {t.location ? <span className="text-ink-muted">, {t.location}</span> : null}
                    {t.created_at ? <span className="block text-ink-subtle">{formatDate(t.created_at)}</span> : null}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-12 rounded-card border border-dashed border-line-strong p-8 text-center text-ink-muted">
            No reviews are published yet. Try the service free for 24 hours and see for yourself.
          </p>
        )}

        <ul className="mt-12 grid gap-4 md:grid-cols-3" aria-label="Why customers stay">
          {words.quotes.map((quote) => (
            <li key={quote} className="rounded-xl border border-line bg-surface p-5 text-sm text-ink">
              {quote}
            </li>
          ))}
        </ul>
        <p className="mx-auto mt-8 max-w-3xl rounded-card border border-accent/30 bg-accent-soft/60 p-6 text-center text-base text-ink sm:text-lg">
          {words.promise}
        </p>
      </Container>
    </section>
  );
}
