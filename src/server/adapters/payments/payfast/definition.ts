// PayFast's entry in the registry (registry.ts): beside the card provider when its three keys are
// set; the customer's browser posts our signed form to PayFast, which tells us by an ITN.

import { configuredValue, type HostedProviderDefinition } from "../provider";
import { createPayfastProvider } from "./adapter";
import { createPayfastSourceCheck } from "./source";

export const payfastDefinition = {
  name: "payfast",
  label: "PayFast",
  sentenceName: "PayFast",
  mark: "PF",
  role: "hosted",
  test: false,
  choiceText: "Card, Instant EFT, SnapScan and more on PayFast's secure page.",
  turnOn: "set PAYFAST_MERCHANT_ID / PAYFAST_MERCHANT_KEY / PAYFAST_PASSPHRASE",
  capabilities: { checkout: "form", verifiesNotifications: true, statusQuery: false, refundByApi: true, chargeSavedCard: true },
  refund: {
    route: "payment-source",
    how: "PayFast pays it back to the card or account you paid with; banks usually take 5 to 10 working days to show it.",
  },
  notificationPath: "/api/payments/payfast/itn",
  // PayFast's ITN rule: answer 200 at once, then check (its source address among them)
  answersNotificationAtOnce: true,
  notificationSource: (config, resolve) => {
    const check = createPayfastSourceCheck({ validIps: config.PAYFAST_VALID_IPS, resolve });
    return {
      allows: (address) => check.allows(address),
      refusedNote: (address) =>
        `Not captured: a notification from PayFast for this payment came from ${address ?? "an unknown address"}, which is not one of PayFast's (PAYFAST_VALID_IPS lists others).`,
    };
  },
  configKeys: ["PAYFAST_MERCHANT_ID", "PAYFAST_MERCHANT_KEY", "PAYFAST_PASSPHRASE"],
  configured: (config) => Boolean(config.PAYFAST_MERCHANT_ID && config.PAYFAST_MERCHANT_KEY && config.PAYFAST_PASSPHRASE),
  create: (config) =>
    createPayfastProvider({
      url: config.PAYFAST_URL,
      apiUrl: config.PAYFAST_API_URL,
      merchantId: configuredValue(config, "PAYFAST_MERCHANT_ID"),
      merchantKey: configuredValue(config, "PAYFAST_MERCHANT_KEY"),
      passphrase: configuredValue(config, "PAYFAST_PASSPHRASE"),
    }),
} satisfies HostedProviderDefinition;
