import { type AdminPayment, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "@/shared/business-schemas";
import { toCents } from "@/shared/money";
import { humanise } from "../components/format";

export const PROVIDER_LABELS: Record<string, string> = {
  eft: "EFT",
  sandbox: "Card (sandbox)",
  ikhokha: "Card (iKhokha)",
  payfast: "PayFast",
  ozow: "Ozow (instant EFT)",
  yoco: "Card (Yoco)",
  manual: "Manual",
};

/** The provider itself, in a sentence ("Ozow is not asked to refund it"), where the label's method note would read oddly. */
export const PROVIDER_NAMES: Record<string, string> = {
  sandbox: "the test checkout",
  ikhokha: "iKhokha",
  payfast: "PayFast",
  ozow: "Ozow",
  yoco: "Yoco",
};
export const providerName = (provider: string) => PROVIDER_NAMES[provider] ?? PROVIDER_LABELS[provider] ?? provider;

export const providerOptions = PAYMENT_PROVIDERS.map((value) => ({ value, label: PROVIDER_LABELS[value] ?? value }));
export const paymentStatusOptions = PAYMENT_STATUSES.map((value) => ({ value, label: humanise(value) }));

/** A pending EFT waits for the admin to see the money in the bank. */
export const isPendingEft = (p: { provider: string; status: string }) => p.provider === "eft" && p.status === "pending";

/**
 * What has really been refunded (rand): refunded_amount also counts a refund sent to the provider
 * and not yet confirmed, whose amount is only held (refund_held).
 */
export const confirmedRefund = (p: Pick<AdminPayment, "refunded_amount" | "refund_held">) =>
  Math.max(0, toCents(p.refunded_amount ?? 0) - toCents(p.refund_held ?? 0)) / 100;

/** The status as the owner reads it: 'partly refunded' only for money really refunded; 'refund held' while one is unconfirmed. */
export function paymentStatus(p: Pick<AdminPayment, "status" | "refunded_amount" | "refund_held">): string {
  if (p.status !== "paid") return p.status;
  if (confirmedRefund(p) > 0) return "partly refunded";
  return (p.refund_held ?? 0) > 0 ? "refund held" : "paid";
}
