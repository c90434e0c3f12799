// The hero (spec §2): title and description from the 'hero' content record with fallbacks,
// the two calls to action, the main logo, the features list and the five-star line (only with the
// owner's own rating line: a shop's stars are never a default or a seeded claim).
import { Check, Gift, Play, Star } from "lucide-react";
import { FREE_TRIAL_DURATION } from "@/shared/options";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useBranding } from "@/web/lib/queries/branding";
import { stringList, text, useContentSection } from "@/web/lib/queries/content";
import { useImages } from "@/web/lib/queries/images";
import { useTrialUnavailable } from "@/web/lib/queries/trial-availability";
import { scrollToSection } from "@/web/lib/scroll";
import { orderWithDuration } from "@/web/lib/window-events";

export const HERO_DEFAULTS = {
  title: "Premium streaming, set up in minutes",
  description:
    "Live TV, sport, movies and series on the phone, smart TV or TV box you already own. Try it free for 24 hours, no credit card needed.",
  ctaPrimary: "Try Free Now",
  ctaSecondary: "Start Streaming Today",
  features: [
    "Free 24-hour trial, no card needed",
    "HD and 4K quality",
    "Phones, smart TVs, TV boxes and PCs",
    "Local support, 9am-8pm daily",
  ],
  /** said without a rating: a shop's stars are the owner's to claim (its own rating_text), never a default */
  ratingPoints: ["No contracts", "Pay in rand", "Support on WhatsApp"],
};

export function HeroSection() {
  const { section, content, isLoading } = useContentSection("hero");
  const { branding } = useBranding();
  const { hero_logo: logo } = useImages(["hero_logo"]);
  // On a sport event day the free-trial button says so, before anyone fills in the form.
  const noTrial = useTrialUnavailable();

  const title = text(section?.title) ?? HERO_DEFAULTS.title;
  const description = text(section?.description) ?? HERO_DEFAULTS.description;
  const ctaPrimary = text(content.cta_primary) ?? HERO_DEFAULTS.ctaPrimary;
  const ctaSecondary = text(content.cta_secondary) ?? HERO_DEFAULTS.ctaSecondary;
  const features = stringList(content.features) ?? HERO_DEFAULTS.features;
  // The stars go with the owner's own rating line only; the server leaves a seeded one off until the
  // owner confirms or replaces it (issue 48 item 7). Without one, the plain points, joined, and no stars.
  const rating = text(content.rating_text);
  const ratingLine = rating ?? (stringList(content.rating_points) ?? HERO_DEFAULTS.ratingPoints).join(" · ");

  return (
    <section id="hero" aria-labelledby="hero-heading" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_15%_-10%,rgb(229_24_75/0.28),transparent_60%),radial-gradient(40rem_24rem_at_100%_10%,rgb(245_179_36/0.12),transparent_60%)]"
      />
      <Container className="grid items-center gap-12 py-14 sm:py-20 lg:grid-cols-[1.15fr_0.85fr] lg:py-28">
        <div className="flex flex-col gap-6">
          {branding.tagline ? <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">{branding.tagline}</p> : null}
          {isLoading ? (
            <div className="flex flex-col gap-3" aria-hidden="true">
              <Skeleton className="h-12 w-full max-w-xl" />
              <Skeleton className="h-12 w-3/4 max-w-md" />
            </div>
          ) : (
            <h1 id="hero-heading" className="text-4xl font-extrabold tracking-tight text-balance text-ink sm:text-5xl lg:text-6xl">
              {title}
            </h1>
          )}
          {isLoading ? (
            <Skeleton className="h-16 w-full max-w-lg" />
          ) : (
            <p className="max-w-xl text-lg text-pretty text-ink-muted">{description}</p>
          )}

          <div className="flex flex-col gap-3 sm:flex-row">
            <Button
              size="lg"
              variant={noTrial ? "secondary" : "primary"}
              onClick={() => orderWithDuration(FREE_TRIAL_DURATION)}
              disabled={noTrial !== null}
              aria-describedby={noTrial ? "hero-no-trial" : undefined}
            >
              <Gift aria-hidden="true" />
              {noTrial ? noTrial.label : ctaPrimary}
            </Button>
            <Button size="lg" variant="outline" onClick={() => scrollToSection("order")}>
              <Play aria-hidden="true" />
              {ctaSecondary}
            </Button>
          </div>
          {noTrial ? (
            <p id="hero-no-trial" role="status" className="-mt-2 max-w-xl text-sm text-warn" data-testid="no-trial-today">
              {noTrial.text}
            </p>
          ) : null}

          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {rating ? (
              <span className="flex gap-0.5 text-special" role="img" aria-label="5 out of 5 stars">
                {[0, 1, 2, 3, 4].map((i) => (
                  <Star key={i} aria-hidden="true" className="size-5 fill-current" />
                ))}
              </span>
            ) : null}
            <span className="text-sm text-ink-muted">{ratingLine}</span>
          </div>
        </div>

        <div className="relative mx-auto w-full max-w-sm lg:max-w-none">
          <div className="rounded-[2rem] border border-line bg-surface/80 p-6 shadow-2xl shadow-accent/10 backdrop-blur sm:p-8">
            <img
              src={logo.src}
              alt={logo.alt || (branding.companyName ? `${branding.companyName} logo` : "")}
              width={232}
              height={48}
              fetchPriority="high"
              className="mx-auto mb-8 h-12 w-auto max-w-full object-contain"
            />
            <ul className="flex flex-col gap-3">
              {features.map((feature) => (
                <li key={feature} className="flex items-start gap-3 text-ink">
                  <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-accent/15 text-accent-ink">
                    <Check aria-hidden="true" className="size-4" />
                  </span>
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Container>
    </section>
  );
}
