// The landing page (/ and /home): the hero and the about section under it paint first (the
// server draws them); the sections further down mount after them (components/deferred.tsx),
// each from its own chunk. Each keeps its anchor id while waiting and loading, so links to
// #pricing or #order land even before the section's code does. Spec §2's order: hero, about,
// pricing, stream test, support, order form, footer; how-to-use and testimonials sit between.
//
// The special popup is not part of the pricing section here: spec §4 opens it 1 s after the
// page loads, whenever the pricing section happens to mount.
//
// About is drawn with the hero rather than deferred: it starts within a screen of the top, so
// the browser lays it out as soon as it mounts, and that first layout of new text styles is
// long on a slow phone. Drawn with the first screen, it is laid out before the first paint.
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { AfterHydration } from "@/web/components/after-hydration";
import { Deferred } from "@/web/components/deferred";
import { AboutSection } from "@/web/features/about/about-section";
import { HeroSection } from "@/web/features/landing/hero-section";
import { scrollToSection } from "@/web/lib/scroll";
import { SectionBoundary } from "../section-boundary";

/**
 * A section from its own chunk. `preload()` fetches the chunk ahead of mounting; a section whose
 * code is already here renders at once instead of suspending (and then being revealed by React
 * in a later batch, together with other sections).
 */
function lazySection<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Section(props: P) {
    // Chosen once per mount: switching from one to the other would mount the section again.
    const [Component] = useState(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Section, { preload });
}

const PricingSection = lazySection(() => import("@/web/features/pricing/pricing-section").then((m) => m.PricingSection));
const HowToUseSection = lazySection(() => import("@/web/features/how-to-use/how-to-use-section").then((m) => m.HowToUseSection));
// 'Supported Apps & Devices' belongs to the downloads feature; it fills the how-to-use section's slot.
const SupportedApps = lazySection(() => import("@/web/features/downloads/supported-apps").then((m) => m.SupportedApps));
const TestimonialsSection = lazySection(() =>
  import("@/web/features/testimonials/testimonials-section").then((m) => m.TestimonialsSection),
);
const OrderSection = lazySection(() => import("@/web/features/order/order-section").then((m) => m.OrderSection));
const StreamTestSection = lazySection(() => import("@/web/features/stream-test/stream-test-section").then((m) => m.StreamTestSection));
const SupportSection = lazySection(() => import("@/web/features/support/support-section").then((m) => m.SupportSection));
const loadPopupHost = () => import("@/web/features/pricing/special-popup-host");
const SpecialPopupHost = lazy(() => loadPopupHost().then((m) => ({ default: m.SpecialPopupHost })));
// Fetched as soon as the landing's own code runs (before the page is adopted), so the popup's
// second after load is counted by the time it mounts, not after another round trip.
if (typeof window !== "undefined") void loadPopupHost().catch(() => undefined);

const prepareHowToUse = () => Promise.all([HowToUseSection.preload(), SupportedApps.preload()]);

function LandingSection({
  id,
  minHeight,
  children,
  placeholder,
  prepare,
}: {
  id: string;
  minHeight: string;
  children: ReactNode;
  placeholder?: ReactNode;
  /** loads the section's code before it mounts */
  prepare: () => Promise<unknown>;
}) {
  const waiting = (ref?: (element: Element | null) => void) => (
    <section id={id} ref={ref} aria-busy="true" style={{ minHeight }}>
      {placeholder}
    </section>
  );
  return (
    <Deferred placeholder={waiting} prepare={prepare}>
      {/* Off screen, the browser skips the section's style and layout until it comes near. */}
      <div style={{ contentVisibility: "auto", containIntrinsicSize: `auto ${minHeight}` }}>
        <SectionBoundary id={id}>
          <Suspense fallback={waiting()}>{children}</Suspense>
        </SectionBoundary>
      </div>
    </Deferred>
  );
}

export function LandingPage() {
  const { hash } = useLocation();

  // Arriving at /#pricing (a footer link from another page): scroll once the page is drawn.
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    const frame = requestAnimationFrame(() => scrollToSection(id));
    return () => cancelAnimationFrame(frame);
  }, [hash]);

  return (
    <>
      <HeroSection />
      <SectionBoundary id="about">
        <AboutSection showFullPageLink />
      </SectionBoundary>
      <LandingSection
        id="pricing"
        minHeight="60rem"
        prepare={PricingSection.preload}
        placeholder={
          <p id="pricing-packages" role="status" className="pt-40 text-center text-ink-muted">
            Loading pricing...
          </p>
        }
      >
        <PricingSection showFullPageLink />
      </LandingSection>
      <LandingSection id="how-to-use" minHeight="36rem" prepare={prepareHowToUse}>
        <HowToUseSection
          showFullPageLink
          apps={
            <Suspense fallback={<div aria-busy="true" style={{ minHeight: "24rem" }} />}>
              <SupportedApps />
            </Suspense>
          }
        />
      </LandingSection>
      <LandingSection id="stream-test" minHeight="34rem" prepare={StreamTestSection.preload}>
        <StreamTestSection />
      </LandingSection>
      <LandingSection id="testimonials" minHeight="30rem" prepare={TestimonialsSection.preload}>
        <TestimonialsSection showFullPageLink />
      </LandingSection>
      <LandingSection id="support" minHeight="30rem" prepare={SupportSection.preload}>
        <SupportSection />
      </LandingSection>
      <LandingSection id="order" minHeight="30rem" prepare={OrderSection.preload}>
        <OrderSection />
      </LandingSection>
      <AfterHydration urgent>
        <SpecialPopupHost />
      </AfterHydration>
    </>
  );
}
