// The review dialog's summary (pay-review-dialog.tsx): the package and the price to pay, and what
// happens after paying.
import type { CouponQuote } from "@/shared/billing";
import { LOGIN_GOES, type LoginChannel } from "@/shared/login-channel";
import { formatRand } from "@/shared/money";
import type { PlanViewModel } from "@/shared/pricing";
import { cn } from "@/web/lib/cn";
import type { Method } from "./pay-review-model";
import { priceLabel } from "./plan-actions";

/** The package and the price the visitor will pay: a special's price with the original struck through, a coupon's too. */
export function PlanSummary({ plan, quote }: { plan: PlanViewModel; quote: CouponQuote | null }) {
  return (
    <div
      className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3 rounded-xl border border-line bg-surface-raised p-4"
      data-testid="pay-review-plan"
    >
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wide text-ink-subtle uppercase">Package</p>
        <p className="text-lg font-semibold text-ink">{plan.period}</p>
        {plan.duration.toLowerCase() !== plan.period.toLowerCase() ? <p className="text-sm text-ink-muted">{plan.duration}</p> : null}
      </div>
      <div className="text-right">
        <p className="text-xs font-semibold tracking-wide text-ink-subtle uppercase">You pay</p>
        <p className="flex flex-wrap items-baseline justify-end gap-x-2">
          {plan.originalPrice !== undefined || quote ? (
            <span className="tabular text-ink-subtle">
              <span className="sr-only">Was </span>
              <s>{formatRand(quote ? quote.list_price : (plan.originalPrice as number))}</s>
              <span className="sr-only">, now </span>
            </span>
          ) : null}
          <span className="tabular text-2xl font-extrabold tracking-tight text-ink" data-testid="pay-review-price">
            {quote ? formatRand(quote.price) : priceLabel(plan)}
          </span>
        </p>
        {quote ? (
          <p className="text-sm font-semibold text-ok">
            Coupon {quote.code}: {formatRand(quote.discount)} off
          </p>
        ) : null}
        {plan.hasSpecial && plan.note ? <p className="text-sm font-semibold text-special-ink">{plan.note}</p> : null}
      </div>
    </div>
  );
}

const STEPS: Record<"card" | "eft" | "both", string[]> = {
  card: [
    "You pay by card on the secure payment page.",
    "We confirm the payment.",
    "Your account is created and your client portal login is sent LOGIN.",
    "We set up your line and send your streaming login details.",
  ],
  eft: [
    "We show you our bank details and your payment reference.",
    "You pay by EFT with that reference.",
    "When the payment reflects, we activate your account and send your client portal login LOGIN.",
    "We set up your line and send your streaming login details.",
  ],
  both: [
    "Pay by card on the secure payment page, or get our bank details and your reference to pay by EFT.",
    "We confirm the payment: a card at once, an EFT when it reflects.",
    "Your account is created and your client portal login is sent LOGIN.",
    "We set up your line and send your streaming login details.",
  ],
};

/** The last step for a box: it has no login, it connects by its MAC (the message says how to set it up). */
const BOX_LAST_STEP = "We set up your line for your box's MAC address and send you how to connect the box.";

export function NextSteps({
  method,
  providerName,
  box,
  loginChannel,
}: {
  method: Method | undefined;
  providerName?: string;
  box: boolean;
  /** the channel the login goes by (shared/login-channel.ts, the rule the sender uses) */
  loginChannel: LoginChannel;
}) {
  if (method === "none") return null;
  const base = STEPS[method === "eft" || method === "both" ? method : "card"];
  const steps = base.map((step, i) =>
    i === 0 && providerName
      ? `You pay on ${providerName}'s secure payment page.`
      : box && i === base.length - 1
        ? BOX_LAST_STEP
        : step.replace("LOGIN", LOGIN_GOES[loginChannel]),
  );
  return (
    <section aria-labelledby="pay-review-steps" className="mt-5">
      <h3 id="pay-review-steps" className="text-sm font-semibold text-ink">
        What happens next
      </h3>
      <ol className="mt-3 flex flex-col gap-2.5 text-sm text-ink-muted">
        {steps.map((step, i) => (
          <li key={step} className="flex gap-3">
            <span
              aria-hidden="true"
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold",
                i === 0 ? "bg-accent text-white" : "bg-surface-overlay text-ink",
              )}
            >
              {i + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
