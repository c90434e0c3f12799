// How the dashboard names and colours a client's status, and words their term's end.
import { daysLeft, type SubscriptionStatus, subscriptionStatus } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { CLIENT_STATUS_LABELS, CLIENT_STATUSES, graceEnd, type LifecycleRules } from "@/shared/lifecycle";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";

export const clientStatusOptions = CLIENT_STATUSES.map((value) => ({ value, label: CLIENT_STATUS_LABELS[value] }));
export const expiringOptions = [
  { value: "7", label: "Within 7 days" },
  { value: "14", label: "Within 14 days" },
  { value: "30", label: "Within 30 days" },
];

const STATUS_LOOKS: Record<SubscriptionStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: CLIENT_STATUS_LABELS.pending, variant: "accent" },
  trial: { label: CLIENT_STATUS_LABELS.trial, variant: "special" },
  active: { label: CLIENT_STATUS_LABELS.active, variant: "ok" },
  expiring: { label: "Expiring", variant: "warn" },
  grace: { label: CLIENT_STATUS_LABELS.grace, variant: "warn" },
  expired: { label: CLIENT_STATUS_LABELS.expired, variant: "neutral" },
  suspended: { label: CLIENT_STATUS_LABELS.suspended, variant: "bad" },
};

type ClientTerm = { status: string; subscription_end: string | null };

/** The lifecycle's status, with a paid term ending within a week shown as expiring. */
export function SubscriptionBadge({ client }: { client: ClientTerm }) {
  const status = subscriptionStatus(client);
  const { label, variant } = STATUS_LOOKS[status];
  return (
    <Badge variant={variant} data-status={status} className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">
      {label}
    </Badge>
  );
}

/** The day an ended paid term stops being in grace; null for a client not in grace. */
export function graceUntil(client: ClientTerm, rules: Pick<LifecycleRules, "graceDays">): Date | null {
  if (client.status !== "grace" || !client.subscription_end) return null;
  return graceEnd(new Date(client.subscription_end), rules);
}

/** '12 days left', 'Ended', 'Grace until 6 Dec 2026', or '' without an end. */
export function daysLeftText(client: ClientTerm, rules: Pick<LifecycleRules, "graceDays">): string {
  const until = graceUntil(client, rules);
  if (until) return `Grace until ${formatDate(until)}`;
  const days = daysLeft(client.subscription_end);
  if (days === null) return "";
  if (days === 0) return "Ended";
  return days === 1 ? "1 day left" : `${days} days left`;
}
