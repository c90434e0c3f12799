// Ozow's entry in the registry (registry.ts): instant EFT beside the card provider when its three
// keys are set; the customer's browser posts our hashed form to Ozow, which notifies us.

import { configuredValue, type HostedProviderDefinition } from "../provider";
import { createOzowProvider } from "./adapter";

export const ozowDefinition = {
  name: "ozow",
  label: "Ozow (instant EFT)",
  sentenceName: "Ozow",
  mark: "OZ",
  role: "hosted",
  test: false,
  choiceText: "Instant EFT from your own bank, on Ozow's secure page.",
  turnOn: "set OZOW_SITE_CODE / OZOW_PRIVATE_KEY / OZOW_API_KEY",
  capabilities: { checkout: "form", verifiesNotifications: true, statusQuery: true, refundByApi: true, chargeSavedCard: false },
  refund: {
    route: "bank-account",
    how: "Ozow pays it back into the bank account you paid from; it usually arrives within a few working days.",
  },
  notificationPath: "/api/payments/ozow/notify",
  configKeys: ["OZOW_SITE_CODE", "OZOW_PRIVATE_KEY", "OZOW_API_KEY"],
  configured: (config) => Boolean(config.OZOW_SITE_CODE && config.OZOW_PRIVATE_KEY && config.OZOW_API_KEY),
  create: (config) =>
    createOzowProvider({
      payUrl: config.OZOW_URL,
      apiUrl: config.OZOW_API_URL,
      siteCode: configuredValue(config, "OZOW_SITE_CODE"),
      privateKey: configuredValue(config, "OZOW_PRIVATE_KEY"),
      apiKey: configuredValue(config, "OZOW_API_KEY"),
    }),
} satisfies HostedProviderDefinition;
