// The local test checkout's entry in the registry (registry.ts): the card provider when no real
// one is configured; it takes no real money.
import { CARD_REFUND, type CardProviderDefinition } from "../provider";
import { createSandboxProvider, type SandboxProvider } from "./adapter";

export const sandboxDefinition = {
  name: "sandbox",
  label: "Card (sandbox)",
  sentenceName: "the test checkout",
  mark: "TEST",
  role: "card",
  test: true,
  choiceText: "Pay by card on a secure payment page.",
  turnOn: "PAYMENTS_SANDBOX=on for a test shop",
  capabilities: { checkout: "paylink", verifiesNotifications: true, statusQuery: true, refundByApi: true, chargeSavedCard: false },
  refund: CARD_REFUND,
  notificationPath: "/api/payments/webhook/sandbox",
  // SANDBOX_SECRET only signs its callbacks (random per start when unset): nothing turns it on
  configKeys: [],
  configured: () => true,
  // real money only in production: an https shop with no card provider takes no test payments
  // unless PAYMENTS_SANDBOX=on says it is a test shop
  offered: (config, publicUrl) =>
    config.PAYMENTS_SANDBOX === "on" || (config.PAYMENTS_SANDBOX !== "off" && !publicUrl.startsWith("https://")),
  create: (config, deps) => createSandboxProvider({ db: deps.db, publicUrl: deps.publicUrl, secret: config.SANDBOX_SECRET }),
} satisfies CardProviderDefinition<SandboxProvider>;
