// Yoco's entry in the registry (registry.ts): cards on Yoco's own page, beside the card provider
// when its two keys are set; Yoco redirects the customer and tells us by a signed webhook.
import { CARD_REFUND, configuredValue, type HostedProviderDefinition } from "../provider";
import { createYocoProvider } from "./adapter";

export const yocoDefinition = {
  name: "yoco",
  label: "Card (Yoco)",
  sentenceName: "Yoco",
  mark: "YO",
  role: "hosted",
  test: false,
  choiceText: "Pay by card on Yoco's secure page.",
  turnOn: "set YOCO_SECRET_KEY / YOCO_WEBHOOK_SECRET",
  capabilities: { checkout: "redirect", verifiesNotifications: true, statusQuery: true, refundByApi: true, chargeSavedCard: false },
  refund: CARD_REFUND,
  notificationPath: "/api/payments/yoco/webhook",
  configKeys: ["YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET"],
  configured: (config) => Boolean(config.YOCO_SECRET_KEY && config.YOCO_WEBHOOK_SECRET),
  create: (config) =>
    createYocoProvider({
      apiUrl: config.YOCO_API_URL,
      secretKey: configuredValue(config, "YOCO_SECRET_KEY"),
      webhookSecret: configuredValue(config, "YOCO_WEBHOOK_SECRET"),
    }),
} satisfies HostedProviderDefinition;
