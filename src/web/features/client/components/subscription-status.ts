// How the portal names and colours a subscription's state.
import type { SubscriptionStatus } from "@/shared/client-schemas";
import type { BadgeVariant } from "@/web/components/ui/badge";

export const SUBSCRIPTION_LABELS: Record<SubscriptionStatus, { label: string; variant: BadgeVariant }> = {
  trial: { label: "Free trial", variant: "accent" },
  active: { label: "Active", variant: "ok" },
  expiring: { label: "Expiring soon", variant: "warn" },
  expired: { label: "Expired", variant: "bad" },
  suspended: { label: "Suspended", variant: "bad" },
};

/** Expired and suspended clients get the restricted portal, whose main action is renewing. */
export const isRestricted = (status: SubscriptionStatus) => status === "expired" || status === "suspended";

export function daysLeftText(days: number | null): string {
  if (days === null) return "No end date";
  if (days === 0) return "Ended";
  return days === 1 ? "1 day left" : `${days} days left`;
}
