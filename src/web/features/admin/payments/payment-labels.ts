import type { PaymentProviderInfo } from "@/shared/api";
import { type AdminPayment, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "@/shared/business-schemas";
import { toCents } from "@/shared/money";
import { findProvider } from "@/web/lib/queries/payment-providers";
import { humanise } from "../components/format";

/** A payment's method when it is no provider's. A provider's words come from the server's registry (GET /api/payment-providers). */
const OTHER_METHOD_LABELS: Record<string, string> = { eft: "EFT", manual: "Manual" };

type Providers = readonly PaymentProviderInfo[] | undefined;

/** The method in a list of payments: the provider's label ('Card (…)'), EFT, Manual; the bare name while the providers load. */
export const methodLabel = (providers: Providers, provider: string) =>
  findProvider(providers, provider)?.label ?? OTHER_METHOD_LABELS[provider] ?? provider;

/** The provider itself, in a sentence ("… is not asked to refund it"), where the label's method note would read oddly. */
export const providerName = (providers: Providers, provider: string) =>
  findProvider(providers, provider)?.sentenceName ?? OTHER_METHOD_LABELS[provider] ?? provider;

export const providerOptions = (providers: Providers) =>
  PAYMENT_PROVIDERS.map((value) => ({ value, label: methodLabel(providers, value) }));
export const paymentStatusOptions = PAYMENT_STATUSES.map((value) => ({ value, label: humanise(value) }));

/** A pending EFT waits for the admin to see the money in the bank. */
export const isPendingEft = (p: { provider: string; status: string }) => p.provider === "eft" && p.status === "pending";

/**
 * What has really been refunded (rand): refunded_amount also counts a refund sent to the provider
 * and not yet confirmed, whose amount is only held (refund_held).
 */
export const confirmedRefund = (p: Pick<AdminPayment, "refunded_amount" | "refund_held">) =>
  Math.max(0, toCents(p.refunded_amount ?? 0) - toCents(p.refund_held ?? 0)) / 100;

/**
 * The status as the owner reads it: 'partly refunded' only for money really refunded; 'refund
 * held' while one is unconfirmed; 'held for you' while a payment from a suspended client's number
 * waits for the owner to refund it or reactivate the client (issue 46).
 */
export function paymentStatus(p: Pick<AdminPayment, "status" | "refunded_amount" | "refund_held" | "held_for_client_id">): string {
  if (p.status !== "paid") return p.status;
  if (confirmedRefund(p) > 0) return "partly refunded";
  if ((p.refund_held ?? 0) > 0) return "refund held";
  return p.held_for_client_id ? "held for you" : "paid";
}
