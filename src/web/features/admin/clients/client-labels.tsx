import { CLIENT_STATUSES } from "@/shared/business-schemas";
import { daysLeft, subscriptionStatus } from "@/shared/client-schemas";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { humanise } from "../components/format";

export const clientStatusOptions = CLIENT_STATUSES.map((value) => ({ value, label: humanise(value) }));
export const expiringOptions = [
  { value: "7", label: "Within 7 days" },
  { value: "14", label: "Within 14 days" },
  { value: "30", label: "Within 30 days" },
];

const variants: Record<string, BadgeVariant> = {
  trial: "special",
  active: "ok",
  expiring: "warn",
  expired: "neutral",
  suspended: "bad",
};

/** What the subscription is now (an end in the past reads expired even before the nightly job marks it). */
export function SubscriptionBadge({ client }: { client: { status: string; subscription_end: string | null } }) {
  const status = subscriptionStatus(client);
  return (
    <Badge variant={variants[status] ?? "neutral"} className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">
      {status}
    </Badge>
  );
}

/** '12 days left', 'Ends today', 'Ended' or '' without an end. */
export function daysLeftText(end: string | null): string {
  const days = daysLeft(end);
  if (days === null) return "";
  if (days === 0) return "Ended";
  return days === 1 ? "1 day left" : `${days} days left`;
}
