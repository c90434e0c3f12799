import { PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "@/shared/business-schemas";
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

export const providerOptions = PAYMENT_PROVIDERS.map((value) => ({ value, label: PROVIDER_LABELS[value] ?? value }));
export const paymentStatusOptions = PAYMENT_STATUSES.map((value) => ({ value, label: humanise(value) }));

/** A pending EFT waits for the admin to see the money in the bank. */
export const isPendingEft = (p: { provider: string; status: string }) => p.provider === "eft" && p.status === "pending";
