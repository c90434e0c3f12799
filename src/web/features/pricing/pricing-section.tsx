// The pricing section (spec §2, §4): specials status, info banners, the heading, the two
// dashboard cards, What's Included, the Free Trial button, the package cards with their detail,
// review-and-pay and interest dialogs, and the footnote with the VAT statement. The dialogs
// arrive as their own chunks on first use. The special popup is the page's (special-popup-host):
// it opens 1 s after load, not when this section mounts.

import { useQueryClient } from "@tanstack/react-query";
import { ArrowRight, Flame, Gift, Headphones, MonitorSmartphone, Sparkles, Tv } from "lucide-react";
import { lazy, Suspense, useCallback, useState } from "react";
import { useNavigate } from "react-router";
import type { SettingsMap } from "@/shared/api";
import { SUPPORT_HOURS } from "@/shared/constants";
import { FREE_TRIAL_DURATION } from "@/shared/options";
import type { PlanViewModel } from "@/shared/pricing";
import { DialogBoundary } from "@/web/components/dialog-boundary";
import { FullPageLink } from "@/web/components/full-page-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { Skeleton } from "@/web/components/ui/skeleton";
import { paymentMethodsQueryOptions } from "@/web/lib/queries/payment-methods";
import { useSettings } from "@/web/lib/queries/settings";
import { useTrialUnavailable } from "@/web/lib/queries/trial-availability";
import { scrollToSection } from "@/web/lib/scroll";
import { orderWithDuration } from "@/web/lib/window-events";
import { useBanners } from "./api/get-banners";
import { useFeaturedAppLogos } from "./api/get-featured-apps";
import { DashboardCard } from "./dashboard-cards";
import { InfoBanners } from "./info-banners";
import { PackageCard } from "./package-card";
import { canPayOnline, planDuration } from "./plan-actions";
import { usePlans } from "./use-plans";

const loadPlanDetail = () => import("./plan-detail-dialog");
const loadInterest = () => import("./interest-dialog");
const loadPayReview = () => import("./pay-review-dialog");
const PlanDetailDialog = lazy(() => loadPlanDetail().then((m) => ({ default: m.PlanDetailDialog })));
const PayReviewDialog = lazy(() => loadPayReview().then((m) => ({ default: m.PayReviewDialog })));
const InterestDialog = lazy(() => loadInterest().then((m) => ({ default: m.InterestDialog })));

/**
 * Spec §2's What's Included list. Its fourth item reads '24/7 Customer Support' there, but the
 * business answers 9am-8pm (spec §1, §9, and the support_hours setting): the list names the
 * hours people are really answered in rather than promise what no one is there to keep.
 */
export function whatsIncluded(supportHours: string) {
  return [
    { Icon: Tv, label: "Premium Streaming Service" },
    { Icon: Sparkles, label: "HD/4K Streaming" },
    { Icon: MonitorSmartphone, label: "Multiple Device Support" },
    { Icon: Headphones, label: `Customer Support ${supportHours}` },
  ] as const;
}

/** The business's VAT statement (decision 002): its own words, else what prices_include_vat says. */
export function vatStatement(settings: SettingsMap): string | null {
  const note = settings.vat_note?.trim();
  if (note) return note;
  if (settings.prices_include_vat === "true") return "All prices include VAT.";
  if (settings.prices_include_vat === "false") return "Prices do not include VAT.";
  return null;
}

export interface PricingSectionProps {
  /** on the landing page: show the link to the full pricing page */
  showFullPageLink?: boolean;
  headingLevel?: 1 | 2;
}

export function PricingSection({ showFullPageLink = false, headingLevel = 2 }: PricingSectionProps) {
  const { plans, isLoading, errorMessage } = usePlans();
  const banners = useBanners();
  const { settings } = useSettings();
  const appLogos = useFeaturedAppLogos();
  const noTrial = useTrialUnavailable();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [detailPlan, setDetailPlan] = useState<PlanViewModel | null>(null);
  // The plan being reviewed before paying, and whether the visitor came from its details.
  const [payment, setPayment] = useState<{ plan: PlanViewModel & { packageId: string }; fromDetails: boolean } | null>(null);
  const [interestPlan, setInterestPlan] = useState<PlanViewModel | null>(null);

  // On the landing page the order form is right here; elsewhere the order page takes the duration.
  const order = useCallback(
    (duration: string) => {
      if (document.getElementById("order")) orderWithDuration(duration);
      else navigate(`/order?duration=${encodeURIComponent(duration)}`);
    },
    [navigate],
  );

  const actions = {
    onDetails: (plan: PlanViewModel) => setDetailPlan(plan),
    onPay: (plan: PlanViewModel) => {
      if (!canPayOnline(plan)) return;
      setDetailPlan(null);
      setPayment({ plan, fromDetails: detailPlan !== null });
    },
    onQuote: (plan: PlanViewModel) => {
      setDetailPlan(null);
      setInterestPlan(plan);
    },
    onOrder: (plan: PlanViewModel) => {
      setDetailPlan(null);
      setPayment(null);
      order(planDuration(plan));
    },
  };

  const special = plans.find((plan) => plan.hasSpecial);
  const vat = vatStatement(settings);
  const preloadDialogs = () => {
    void loadPlanDetail();
    void loadInterest();
    void loadPayReview();
    void queryClient.prefetchQuery(paymentMethodsQueryOptions());
  };

  return (
    <section id="pricing" aria-labelledby="pricing-heading" className="relative isolate py-20 sm:py-24">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 -z-10 h-[40rem] bg-[radial-gradient(50rem_24rem_at_50%_0%,rgb(229_24_75/0.14),transparent_70%)]"
      />
      <Container>
        <div className="mb-6 flex justify-center">
          {isLoading ? (
            <Skeleton className="h-11 w-64 rounded-full" />
          ) : special ? (
            <button
              type="button"
              onClick={() => scrollToSection("pricing-packages")}
              className="inline-flex min-h-11 max-w-full items-center gap-2 rounded-full bg-special-soft px-5 py-2 text-left text-sm font-semibold text-special-ink ring-1 ring-special/40 transition-colors hover:bg-special/20"
            >
              <Flame aria-hidden="true" className="size-4 shrink-0" />
              <span>
                Specials on now: {special.period} {special.note ? `(${special.note})` : null}
              </span>
              <ArrowRight aria-hidden="true" className="size-4 shrink-0" />
            </button>
          ) : (
            <p className="inline-flex min-h-11 items-center rounded-full bg-surface-raised px-5 text-sm text-ink-muted ring-1 ring-line">
              No Specials At The Moment
            </p>
          )}
        </div>

        <InfoBanners banners={banners} />

        <SectionHeading
          id="pricing-heading"
          level={headingLevel}
          eyebrow="Pricing"
          title="Get Premium Streaming Now - Save Big!"
          description="Pick a package, pay in rand and start watching today. Not sure yet? Try it free for 24 hours first."
        />

        <div className="mx-auto mt-10 grid max-w-4xl gap-4 sm:grid-cols-2">
          <DashboardCard variant="admin" appLogos={appLogos} />
          <DashboardCard variant="client" appLogos={appLogos} />
        </div>

        <div className="mx-auto mt-10 max-w-4xl rounded-card border border-line bg-surface/70 p-5 sm:p-6">
          <h3 className="text-center text-sm font-semibold tracking-widest text-ink-muted uppercase">What's Included</h3>
          <ul className="mt-4 grid grid-cols-1 gap-3 min-[22rem]:grid-cols-2 lg:grid-cols-4">
            {whatsIncluded(settings.support_hours?.trim() || SUPPORT_HOURS).map(({ Icon, label }) => (
              <li key={label} className="flex items-center gap-3 rounded-xl bg-surface-raised p-3 text-sm font-medium text-ink">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent/15 text-accent-ink">
                  <Icon aria-hidden="true" className="size-4.5" />
                </span>
                {label}
              </li>
            ))}
          </ul>
        </div>

        <div className="mt-10 flex flex-col items-center gap-3 text-center">
          <Button
            size="lg"
            variant={noTrial ? "secondary" : "primary"}
            className="w-full max-w-md text-lg sm:w-auto"
            onClick={() => order(FREE_TRIAL_DURATION)}
            disabled={noTrial !== null}
            aria-describedby="pricing-trial-note"
          >
            <Gift aria-hidden="true" />
            {noTrial ? noTrial.label : "Start Your Free 24-Hour Trial"}
          </Button>
          {noTrial ? (
            <p id="pricing-trial-note" role="status" className="max-w-xl text-sm font-medium text-warn" data-testid="no-trial-today">
              {noTrial.text}
            </p>
          ) : (
            <p id="pricing-trial-note" className="text-sm text-ink-subtle">
              No card needed. Not available on sport event days.
            </p>
          )}
        </div>

        {/* biome-ignore lint/a11y/noStaticElementInteractions: a prefetch hint only; the controls inside are buttons */}
        <div id="pricing-packages" className="mt-14 scroll-mt-24" onPointerOver={preloadDialogs} onFocus={preloadDialogs}>
          {errorMessage ? (
            <p role="alert" className="mb-8 rounded-xl border border-bad/30 bg-bad/10 px-4 py-3 text-center text-sm text-ink">
              Error loading packages: {errorMessage}
            </p>
          ) : null}
          {isLoading ? (
            <p role="status" className="py-16 text-center text-ink-muted">
              Loading pricing...
            </p>
          ) : (
            <ul className="grid grid-cols-1 gap-x-6 gap-y-10 pt-4 sm:grid-cols-2 lg:grid-cols-3">
              {plans.map((plan) => (
                <li key={`${plan.packageName}-${plan.duration}`}>
                  <PackageCard plan={plan} noTrial={noTrial} {...actions} />
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="mx-auto mt-10 flex max-w-2xl flex-col gap-2 text-center text-sm text-ink-subtle">
          <p>The free trial is not available on sport event days. Paid plans activate immediately after payment.</p>
          {vat ? <p data-testid="vat-note">{vat}</p> : null}
        </div>

        {showFullPageLink ? <FullPageLink to="/pricing" className="mt-8" /> : null}
      </Container>

      {/* Each dialog in its own boundary: one failing to load leaves the others and the section working. */}
      <Suspense fallback={null}>
        {detailPlan ? (
          <DialogBoundary onClose={() => setDetailPlan(null)}>
            <PlanDetailDialog
              plan={detailPlan}
              noTrial={noTrial}
              onClose={() => setDetailPlan(null)}
              onPay={actions.onPay}
              onQuote={actions.onQuote}
              onOrder={actions.onOrder}
            />
          </DialogBoundary>
        ) : null}
        {payment ? (
          <DialogBoundary onClose={() => setPayment(null)}>
            <PayReviewDialog
              plan={payment.plan}
              onClose={() => setPayment(null)}
              onBack={
                payment.fromDetails
                  ? () => {
                      setPayment(null);
                      setDetailPlan(payment.plan);
                    }
                  : undefined
              }
              onOrder={actions.onOrder}
            />
          </DialogBoundary>
        ) : null}
        {interestPlan ? (
          <DialogBoundary onClose={() => setInterestPlan(null)}>
            <InterestDialog plan={interestPlan} onClose={() => setInterestPlan(null)} />
          </DialogBoundary>
        ) : null}
      </Suspense>
    </section>
  );
}
