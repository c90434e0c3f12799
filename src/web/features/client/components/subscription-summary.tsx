// The subscription at a glance: status, package, start and end dates, days left (or, in the
// grace period, the day to renew by).
import { CalendarClock } from "lucide-react";
import type { ClientSubscription } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { Badge } from "@/web/components/ui/badge";
import { buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { daysLeftText, SUBSCRIPTION_LABELS } from "./subscription-status";

function elapsedShare(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const from = Date.parse(start);
  const to = Date.parse(end);
  if (!(to > from)) return null;
  return Math.min(1, Math.max(0, (Date.now() - from) / (to - from)));
}

/** The big line: days left, the grace period's last day, or that nothing has started yet. */
function remainingText(subscription: ClientSubscription, graceUntil: Date | null): string {
  if (subscription.status === "pending") return "Not started yet";
  if (graceUntil) return `Renew by ${formatDate(graceUntil)}`;
  return daysLeftText(subscription.days_left);
}

export function SubscriptionSummary({ subscription, graceUntil = null }: { subscription: ClientSubscription; graceUntil?: Date | null }) {
  const { label, variant } = SUBSCRIPTION_LABELS[subscription.status] ?? SUBSCRIPTION_LABELS.pending;
  const share = elapsedShare(subscription.start, subscription.end);
  const ended = subscription.status === "expired" || subscription.status === "grace";
  const pending = subscription.status === "pending";
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="subscription-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id="subscription-heading" className="text-sm font-semibold tracking-widest text-ink-muted uppercase">
            Your subscription
          </h2>
          <p className="text-xl font-bold text-ink sm:text-2xl">
            {subscription.package || (subscription.status === "trial" ? "Free trial" : "No package yet")}
          </p>
        </div>
        <Badge variant={variant} data-testid="subscription-status">
          {label}
        </Badge>
      </div>

      <div className="mt-5 flex items-end gap-3">
        <CalendarClock aria-hidden="true" className="mb-1 size-6 shrink-0 text-accent-ink" />
        <p className="text-3xl font-bold tabular-nums text-ink sm:text-4xl" data-testid="days-left">
          {remainingText(subscription, graceUntil)}
        </p>
      </div>

      {share !== null ? (
        <div
          className="mt-4 h-2 overflow-hidden rounded-full bg-surface-overlay"
          role="progressbar"
          aria-label="Subscription used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
        >
          <div
            className={ended ? "h-full bg-bad" : subscription.status === "expiring" ? "h-full bg-warn" : "h-full bg-accent"}
            style={{ width: `${Math.round(share * 100)}%` }}
          />
        </div>
      ) : null}

      <dl className="mt-5 grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-ink-muted">Started</dt>
          <dd className="font-semibold text-ink">{formatDate(subscription.start) || "—"}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">{ended ? "Ended" : "Ends"}</dt>
          <dd className="font-semibold text-ink">{formatDate(subscription.end) || "—"}</dd>
        </div>
      </dl>

      <a href="#renew" className={buttonClasses({ variant: ended || pending ? "primary" : "outline", className: "mt-5 w-full sm:w-auto" })}>
        {pending ? "Pay now" : "Renew now"}
      </a>
    </Card>
  );
}
