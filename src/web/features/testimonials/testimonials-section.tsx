// Testimonials (spec §2, §4): published reviews rotating every 6 s (cycling; paused on hover
// and focus; manual controls; no auto-rotation for reduced motion), the mascot labelled
// 'Online 24/7' (about the streams, which never stop: "Streaming Online 24/7"; the support
// hours are in the promise), the static quotes and the promise.
import { ChevronLeft, ChevronRight, Pause, Play, Quote, Star } from "lucide-react";
import type { ReactNode } from "react";
import { TESTIMONIAL_ROTATION_MS } from "@/shared/constants";
import { FullPageLink } from "@/web/components/full-page-link";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { useImages } from "@/web/lib/queries/images";
import { useTestimonials } from "./api/get-testimonials";
import { Stars } from "./stars";
import { useTestimonialsContent } from "./testimonials-content";
import { useRotation } from "./use-rotation";

export interface Slide {
  id: string;
  content: string;
  /** a customer's review has a name and rating; the business's own statements do not */
  name?: string;
  location?: string;
  rating?: number;
}

export function Mascot({ className }: { className?: string }) {
  const { footer_mascot: mascot } = useImages(["footer_mascot"]);
  return (
    <figure className={cn("flex flex-col items-center gap-3", className)}>
      <img
        src={mascot.src}
        alt={mascot.alt || "Our mascot"}
        width={200}
        height={200}
        loading="lazy"
        className="size-36 drop-shadow-[0_20px_40px_rgb(229_24_75/0.35)] sm:size-44"
      />
      <figcaption className="inline-flex items-center gap-2 rounded-full bg-ok/15 px-3 py-1 text-sm font-semibold text-ok ring-1 ring-ok/30">
        <span aria-hidden="true" className="relative flex size-2.5">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-ok opacity-60 motion-reduce:hidden" />
          <span className="relative inline-flex size-2.5 rounded-full bg-ok" />
        </span>
        {/* Spec §2's label, about the service: the streams run day and night; people answer 9am-8pm (the promise below). */}
        Streaming Online 24/7
      </figcaption>
    </figure>
  );
}

export function TestimonialsSection({ showFullPageLink = false, headingLevel = 2 }: { showFullPageLink?: boolean; headingLevel?: 1 | 2 }) {
  const { testimonials, isLoading } = useTestimonials();
  const words = useTestimonialsContent();
  // With no published reviews, the business's own statements rotate instead.
  const slides: Slide[] = testimonials.length
    ? testimonials.map((t) => ({ id: t.id, content: t.content, name: t.client_name, location: t.location, rating: t.rating }))
    : words.quotes.map((quote, i) => ({ id: `quote-${i}`, content: quote }));
  const rotation = useRotation(slides.length, TESTIMONIAL_ROTATION_MS);
  const slide = slides[rotation.index];

  return (
    <section id="testimonials" aria-labelledby="testimonials-heading" className="border-y border-line/60 bg-surface/40 py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="testimonials-heading"
          level={headingLevel}
          eyebrow="Testimonials"
          title={words.title}
          description={words.description}
        />

        <div className="mx-auto mt-12 grid max-w-5xl items-center gap-10 lg:grid-cols-[auto_1fr]">
          <Mascot />

          <section className="flex flex-col gap-5" aria-roledescription="carousel" aria-label="Customer reviews" {...rotation.hoverProps}>
            {/* A stable live region: announced when the visitor moves it, silent while it turns on its own. */}
            <div aria-live={rotation.rotating ? "off" : "polite"}>
              {isLoading ? (
                <div className="rounded-card border border-line bg-surface p-8" aria-hidden="true">
                  <Skeleton className="mb-5 h-5 w-28" />
                  <Skeleton className="mb-3 h-5 w-full" />
                  <Skeleton className="mb-6 h-5 w-4/5" />
                  <Skeleton className="h-4 w-40" />
                </div>
              ) : slide ? (
                <figure
                  key={slide.id}
                  aria-roledescription="slide"
                  aria-label={`${rotation.index + 1} of ${slides.length}`}
                  className="relative min-h-56 animate-fade-in rounded-card border border-line bg-surface p-6 shadow-xl shadow-black/20 sm:p-8"
                  data-testid="testimonial-slide"
                >
                  <Quote aria-hidden="true" className="absolute top-6 right-6 size-10 text-surface-overlay" />
                  {slide.rating ? <Stars rating={slide.rating} /> : null}
                  <blockquote className="mt-4 text-lg text-pretty text-ink sm:text-xl">“{slide.content}”</blockquote>
                  {slide.name ? (
                    <figcaption className="mt-6 text-sm">
                      <span className="font-semibold text-ink">{slide.name}</span>
                      {slide.location ? <span className="text-ink-muted">, {slide.location}</span> : null}
                    </figcaption>
                  ) : null}
                </figure>
              ) : null}
            </div>

            {slides.length > 1 ? (
              <div className="flex items-center justify-between gap-3">
                <div className="flex items-center gap-1">
                  <RoundButton label="Previous review" onClick={rotation.previous}>
                    <ChevronLeft aria-hidden="true" className="size-5" />
                  </RoundButton>
                  {rotation.reducedMotion ? null : (
                    <RoundButton
                      label={rotation.stopped ? "Start rotating the reviews" : "Stop rotating the reviews"}
                      onClick={rotation.toggleStopped}
                    >
                      {rotation.stopped ? <Play aria-hidden="true" className="size-4" /> : <Pause aria-hidden="true" className="size-4" />}
                    </RoundButton>
                  )}
                  <RoundButton label="Next review" onClick={rotation.next}>
                    <ChevronRight aria-hidden="true" className="size-5" />
                  </RoundButton>
                </div>
                <p className="tabular text-sm text-ink-muted sm:hidden" aria-hidden="true">
                  {rotation.index + 1} / {slides.length}
                </p>
                <ul className="hidden items-center sm:flex" aria-label="Choose a review">
                  {slides.map((s, i) => (
                    <li key={s.id}>
                      <button
                        type="button"
                        onClick={() => rotation.goTo(i)}
                        aria-label={`Review ${i + 1} of ${slides.length}`}
                        aria-current={i === rotation.index ? "true" : undefined}
                        className="group flex size-11 items-center justify-center"
                      >
                        <span
                          className={cn(
                            "block h-2 rounded-full transition-all",
                            i === rotation.index ? "w-6 bg-accent" : "w-2 bg-line-strong group-hover:bg-ink-subtle",
                          )}
                        />
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>
        </div>

        <ul className="mx-auto mt-12 grid max-w-5xl gap-4 md:grid-cols-3" aria-label="Why customers stay">
          {words.quotes.map((quote) => (
            <li key={quote} className="flex gap-3 rounded-xl border border-line bg-surface p-5 text-sm text-ink">
              <Star aria-hidden="true" className="mt-0.5 size-4 shrink-0 fill-special text-special" />
              <span>{quote}</span>
            </li>
          ))}
        </ul>

        <p className="mx-auto mt-8 max-w-3xl rounded-card border border-accent/30 bg-accent-soft/60 p-6 text-center text-base text-ink sm:text-lg">
          {words.promise}
        </p>

        {showFullPageLink ? <FullPageLink to="/testimonials" className="mt-10" /> : null}
      </Container>
    </section>
  );
}

function RoundButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className="inline-flex size-11 items-center justify-center rounded-full border border-line text-ink-muted transition-colors hover:border-line-strong hover:bg-surface-raised hover:text-ink"
    >
      {children}
    </button>
  );
}
