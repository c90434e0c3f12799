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
