// How the portal names and colours a subscription's state.
import type { SubscriptionStatus } from "@/shared/client-schemas";
import type { BadgeVariant } from "@/web/components/ui/badge";

export const SUBSCRIPTION_LABELS: Record<SubscriptionStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Awaiting payment", variant: "warn" },
  trial: { label: "Free trial", variant: "accent" },
  active: { label: "Active", variant: "ok" },
  expiring: { label: "Expiring soon", variant: "warn" },
  grace: { label: "Grace period", variant: "warn" },
  expired: { label: "Expired", variant: "bad" },
  suspended: { label: "Suspended", variant: "bad" },
};

/**
 * Pending (not paid yet) and expired clients get the restricted portal, whose main action is
 * paying. A suspended client never reaches it: they see only the suspended page (portal-page.tsx).
 */
export const isRestricted = (status: SubscriptionStatus) => status === "pending" || status === "expired" || status === "suspended";

export function daysLeftText(days: number | null): string {
  if (days === null) return "No end date";
  if (days === 0) return "Ended";
  return days === 1 ? "1 day left" : `${days} days left`;
}
