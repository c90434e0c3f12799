// Paystack's entry in the registry (registry.ts): cards and instant EFT on Paystack's own page,
// beside the card provider when its secret key is set. Paystack redirects the customer to its
// checkout and tells us by a webhook signed with that key (HMAC-SHA512); a payment counts only once
// GET /transaction/verify confirms it (README.md beside this file).
import { CARD_REFUND, configuredValue, type HostedProviderDefinition } from "../provider";
import { createPaystackProvider } from "./adapter";

export const paystackDefinition = {
  name: "paystack",
  label: "Paystack",
  sentenceName: "Paystack",
  mark: "PS",
  role: "hosted",
  test: false,
  choiceText: "Pay by card or instant EFT on Paystack's secure page.",
  turnOn: "set PAYSTACK_SECRET_KEY",
  capabilities: { checkout: "redirect", verifiesNotifications: true, statusQuery: true, refundByApi: true, chargeSavedCard: true },
  refund: CARD_REFUND,
  notificationPath: "/api/payments/paystack/webhook",
  configKeys: ["PAYSTACK_SECRET_KEY"],
  configured: (config) => Boolean(config.PAYSTACK_SECRET_KEY),
  create: (config) =>
    createPaystackProvider({ apiUrl: config.PAYSTACK_API_URL, secretKey: configuredValue(config, "PAYSTACK_SECRET_KEY") }),
} satisfies HostedProviderDefinition;
