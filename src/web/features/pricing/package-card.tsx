// One plan as a card (spec §2 "Package card"): badges, price with the struck-through original
// and saving on a special, features, and the order buttons. A click anywhere on the card opens
// the plan's details; the title is the card's keyboard handle (a button stretched over it).
import { Check, Flame, Gift, Sparkles } from "lucide-react";
import { formatRand } from "@/shared/money";
import { isFreePlan, type PlanViewModel } from "@/shared/pricing";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import type { TrialUnavailable } from "@/web/lib/queries/trial-availability";
import { canPayOnline, PLAN_UNAVAILABLE_TEXT, priceLabel } from "./plan-actions";

/** Cards list this many features (phones scroll past six cards); the detail dialog lists them all. */
const CARD_FEATURES = 4;

export interface PlanActions {
  /** opens the plan detail dialog */
  onDetails: (plan: PlanViewModel) => void;
  /** Pay Now: the review step before paying (real packages only) */
  onPay: (plan: PlanViewModel) => void;
  /** Request Quote: the interest dialog with this plan */
  onQuote: (plan: PlanViewModel) => void;
  /** the order form with this plan's duration (Get Free Trial, or Order Now where paying online is not possible) */
  onOrder: (plan: PlanViewModel) => void;
}

export interface PackageCardProps extends PlanActions {
  plan: PlanViewModel;
  /** today is a sport event day: the free plan says so instead of offering the trial */
  noTrial?: TrialUnavailable | null;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A stable id for the plan's title, for aria-labelledby. */
export function planTitleId(plan: PlanViewModel): string {
  return `plan-${slug(plan.packageName)}-${slug(plan.duration)}`;
}

export function PackageCard({ plan, onDetails, onPay, onQuote, onOrder, noTrial = null }: PackageCardProps) {
  const free = isFreePlan(plan);
  const titleId = planTitleId(plan);
  const trialOff = free && noTrial !== null;
  return (
    <article
      aria-labelledby={titleId}
      data-plan={plan.packageName}
      className={cn(
        "group relative flex h-full flex-col rounded-card border bg-surface p-6 pt-8 shadow-xl shadow-black/20 transition-[border-color,transform] duration-200 hover:-translate-y-0.5 motion-reduce:hover:translate-y-0",
        plan.popular
          ? "border-accent/70 ring-1 ring-accent/40"
          : plan.hasSpecial
            ? "border-special/60 hover:border-special"
            : "border-line hover:border-line-strong",
      )}
    >
      <PlanBadges plan={plan} className="pointer-events-none absolute -top-3.5 left-6 z-10" />

      <h3 id={titleId} className="text-xl font-bold tracking-tight text-ink">
        <button
          type="button"
          aria-haspopup="dialog"
          onClick={() => onDetails(plan)}
          className="text-left after:absolute after:inset-0 after:rounded-card after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-accent-ink"
        >
          <span>{plan.period}</span>
          <span className="sr-only">: see the plan's details</span>
        </button>
      </h3>
      {plan.duration.toLowerCase() !== plan.period.toLowerCase() ? <p className="mt-1 text-sm text-ink-muted">{plan.duration}</p> : null}

      <div className="mt-5 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <p className="tabular text-4xl font-extrabold tracking-tight text-ink" data-testid="plan-price">
          {priceLabel(plan)}
        </p>
        {plan.originalPrice !== undefined ? (
          <p className="tabular text-lg text-ink-subtle">
            <span className="sr-only">Was </span>
            <s data-testid="plan-original-price">{formatRand(plan.originalPrice)}</s>
          </p>
        ) : null}
      </div>
      {trialOff ? (
        <p id={`${titleId}-no-trial`} className="mt-2 text-sm font-semibold text-warn" data-testid="no-trial-today">
          {noTrial?.short}
        </p>
      ) : plan.note ? (
        <p
          className={cn(
            "mt-2 w-fit text-sm font-semibold",
            plan.hasSpecial ? "rounded-full bg-special-soft px-2.5 py-0.5 text-special-ink" : "text-ink-muted",
          )}
        >
          {plan.note}
        </p>
      ) : null}

      {plan.description ? <p className="mt-4 line-clamp-3 text-sm text-ink-muted">{plan.description}</p> : null}

      {plan.features.length ? (
        <ul className="mt-5 flex flex-col gap-2.5 text-sm text-ink">
          {plan.features.slice(0, CARD_FEATURES).map((feature) => (
            <li key={feature} className="flex gap-2.5">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok" />
              <span>{feature}</span>
            </li>
          ))}
          {plan.features.length > CARD_FEATURES ? (
            <li className="pl-6.5 text-ink-muted">+ {plan.features.length - CARD_FEATURES} more in the plan's details</li>
          ) : null}
        </ul>
      ) : null}

      {/* Above the stretched title button, so these take their own clicks. */}
      <div className="relative z-10 mt-auto flex flex-col gap-3 pt-6">
        {free ? (
          <Button
            variant={trialOff ? "secondary" : "primary"}
            onClick={() => onOrder(plan)}
            aria-describedby={trialOff ? `${titleId} ${titleId}-no-trial` : titleId}
            disabled={trialOff}
          >
            <Gift aria-hidden="true" />
            {trialOff ? noTrial?.label : "Get Free Trial"}
          </Button>
        ) : plan.unavailable ? (
          <>
            <p id={`${titleId}-unavailable`} className="text-sm text-ink-muted" data-testid="plan-unavailable">
              {PLAN_UNAVAILABLE_TEXT}
            </p>
            <Button variant="secondary" disabled aria-describedby={`${titleId} ${titleId}-unavailable`}>
              Not available yet
            </Button>
          </>
        ) : canPayOnline(plan) ? (
          <Button
            variant={plan.hasSpecial ? "special" : "primary"}
            onClick={() => onPay(plan)}
            aria-haspopup="dialog"
            aria-describedby={titleId}
          >
            Pay Now
          </Button>
        ) : (
          <Button variant={plan.hasSpecial ? "special" : "primary"} onClick={() => onOrder(plan)} aria-describedby={titleId}>
            Order Now
          </Button>
        )}
        <Button variant="outline" onClick={() => onQuote(plan)} aria-describedby={titleId}>
          Request Quote
        </Button>
      </div>
    </article>
  );
}

/** 'Most Popular' and 'SPECIAL' over a plan (its card, its details); nothing when it is neither. */
export function PlanBadges({ plan, className }: { plan: Pick<PlanViewModel, "popular" | "hasSpecial">; className?: string }) {
  if (!plan.popular && !plan.hasSpecial) return null;
  return (
    <div className={cn("flex flex-wrap gap-2", className)}>
      {plan.popular ? (
        <Badge variant="accent">
          <Sparkles aria-hidden="true" />
          Most Popular
        </Badge>
      ) : null}
      {plan.hasSpecial ? (
        <Badge variant="special">
          <Flame aria-hidden="true" />
          SPECIAL
        </Badge>
      ) : null}
    </div>
  );
}
