// The plan detail dialog (spec §2 "Package card"): period, duration, price with the original
// struck through, note, description, What's Included, and the plan's buttons. Loaded on first
// use: it brings Radix with it.
import { Check, Gift } from "lucide-react";
import { formatRand } from "@/shared/money";
import { isFreePlan, type PlanViewModel } from "@/shared/pricing";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import type { TrialUnavailable } from "@/web/lib/queries/trial-availability";
import { type PlanActions, PlanBadges } from "./package-card";
import { canPayOnline, PLAN_UNAVAILABLE_TEXT, priceLabel } from "./plan-actions";

export interface PlanDetailDialogProps extends Omit<PlanActions, "onDetails"> {
  plan: PlanViewModel;
  onClose: () => void;
  /** today is a sport event day: the free plan says so instead of offering the trial */
  noTrial?: TrialUnavailable | null;
}

export function PlanDetailDialog({ plan, onClose, onPay, onQuote, onOrder, noTrial = null }: PlanDetailDialogProps) {
  const free = isFreePlan(plan);
  const trialOff = free && noTrial !== null;
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <PlanBadges plan={plan} className="mb-1" />
          <DialogTitle className="text-2xl">{plan.period}</DialogTitle>
          <DialogDescription>Duration: {plan.duration}</DialogDescription>
        </DialogHeader>

        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <p className="tabular text-4xl font-extrabold tracking-tight text-ink" data-testid="detail-price">
            {priceLabel(plan)}
          </p>
          {plan.originalPrice !== undefined ? (
            <p className="tabular text-lg text-ink-subtle">
              <span className="sr-only">Was </span>
              <s>{formatRand(plan.originalPrice)}</s>
            </p>
          ) : null}
        </div>
        {trialOff ? (
          <p className="mt-2 font-semibold text-warn" data-testid="no-trial-today">
            {noTrial?.text}
          </p>
        ) : plan.note ? (
          <p className={plan.hasSpecial ? "mt-2 font-semibold text-special-ink" : "mt-2 font-semibold text-ink-muted"}>{plan.note}</p>
        ) : null}
        {plan.description ? <p className="mt-4 text-ink-muted">{plan.description}</p> : null}

        {plan.features.length ? (
          <div className="mt-6 rounded-xl border border-line bg-surface-raised p-5">
            <h3 className="mb-3 text-sm font-semibold tracking-wide text-ink uppercase">What's Included</h3>
            <ul className="flex flex-col gap-2.5 text-sm text-ink">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2.5">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok" />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        {plan.unavailable ? (
          <p className="text-sm text-ink-muted" data-testid="plan-unavailable">
            {PLAN_UNAVAILABLE_TEXT}
          </p>
        ) : null}
        <DialogFooter>
          {free ? (
            <Button variant={trialOff ? "secondary" : "primary"} onClick={() => onOrder(plan)} disabled={trialOff}>
              <Gift aria-hidden="true" />
              {trialOff ? noTrial?.label : "Get Free Trial"}
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={() => onQuote(plan)}>
                Request Quote Instead
              </Button>
              {plan.unavailable ? (
                <Button variant="secondary" disabled>
                  Not available yet
                </Button>
              ) : canPayOnline(plan) ? (
                <Button variant={plan.hasSpecial ? "special" : "primary"} onClick={() => onPay(plan)} aria-haspopup="dialog">
                  Pay Now
                </Button>
              ) : (
                <Button onClick={() => onOrder(plan)}>Order Now</Button>
              )}
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
