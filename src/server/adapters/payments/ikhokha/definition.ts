// iKhokha's entry in the registry (registry.ts): the card provider when its keys are set. It
// publishes no refund API, so its refunds are paid back in its merchant portal and recorded by hand.

import { CARD_REFUND, type CardProviderDefinition, configuredValue } from "../provider";
import { createIkhokhaProvider } from "./adapter";

export const ikhokhaDefinition = {
  name: "ikhokha",
  label: "Card (iKhokha)",
  sentenceName: "iKhokha",
  mark: "iK",
  role: "card",
  test: false,
  choiceText: "Pay by card on a secure payment page.",
  turnOn: "set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET",
  capabilities: { checkout: "paylink", verifiesNotifications: true, statusQuery: true, refundByApi: false, chargeSavedCard: false },
  refund: CARD_REFUND,
  notificationPath: "/api/payments/webhook/ikhokha",
  configKeys: ["IKHOKHA_APP_ID", "IKHOKHA_APP_SECRET"],
  configured: (config) => Boolean(config.IKHOKHA_APP_ID && config.IKHOKHA_APP_SECRET),
  create: (config, deps) =>
    createIkhokhaProvider({
      apiUrl: config.IKHOKHA_API_URL,
      appId: configuredValue(config, "IKHOKHA_APP_ID"),
      appSecret: configuredValue(config, "IKHOKHA_APP_SECRET"),
      entityId: config.IKHOKHA_ENTITY_ID,
      requesterUrl: deps.publicUrl,
    }),
} satisfies CardProviderDefinition;
