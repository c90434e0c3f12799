// What GET /api/payment-providers answers, for the web's tests: the server's registry as the pages
// receive it (scripts/payment-providers-fixture.test.ts keeps it equal to the server's answer).
// Tests stub the endpoint with it (paymentProvidersAnswer), so a page's words come from here
// as they come from the server in the shop, never from the page.
import type { PaymentProviderInfo } from "@/shared/api";

export const PAYMENT_PROVIDERS_FIXTURE: PaymentProviderInfo[] = [
  {
    name: "ikhokha",
    label: "Card (iKhokha)",
    sentenceName: "iKhokha",
    mark: "iK",
    role: "card",
    test: false,
    choiceText: "Pay by card on a secure payment page.",
    turnOn: "set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET",
    capabilities: {
      checkout: "paylink",
      verifiesNotifications: true,
      statusQuery: true,
      refundByApi: false,
      chargeSavedCard: false,
    },
    refund: {
      route: "card",
      how: "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
    },
    notificationPath: "/api/payments/webhook/ikhokha",
  },
  {
    name: "sandbox",
    label: "Card (sandbox)",
    sentenceName: "the test checkout",
    mark: "TEST",
    role: "card",
    test: true,
    choiceText: "Pay by card on a secure payment page.",
    turnOn: "PAYMENTS_SANDBOX=on for a test shop",
    capabilities: {
      checkout: "paylink",
      verifiesNotifications: true,
      statusQuery: true,
      refundByApi: true,
      chargeSavedCard: false,
    },
    refund: {
      route: "card",
      how: "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
    },
    notificationPath: "/api/payments/webhook/sandbox",
  },
  {
    name: "payfast",
    label: "PayFast",
    sentenceName: "PayFast",
    mark: "PF",
    role: "hosted",
    test: false,
    choiceText: "Card, Instant EFT, SnapScan and more on PayFast's secure page.",
    turnOn: "set PAYFAST_MERCHANT_ID / PAYFAST_MERCHANT_KEY / PAYFAST_PASSPHRASE",
    capabilities: {
      checkout: "form",
      verifiesNotifications: true,
      statusQuery: false,
      refundByApi: true,
      chargeSavedCard: true,
    },
    refund: {
      route: "payment-source",
      how: "PayFast pays it back to the card or account you paid with; banks usually take 5 to 10 working days to show it.",
    },
    notificationPath: "/api/payments/payfast/itn",
  },
  {
    name: "ozow",
    label: "Ozow (instant EFT)",
    sentenceName: "Ozow",
    mark: "OZ",
    role: "hosted",
    test: false,
    choiceText: "Instant EFT from your own bank, on Ozow's secure page.",
    turnOn: "set OZOW_SITE_CODE / OZOW_PRIVATE_KEY / OZOW_API_KEY",
    capabilities: {
      checkout: "form",
      verifiesNotifications: true,
      statusQuery: true,
      refundByApi: true,
      chargeSavedCard: false,
    },
    refund: {
      route: "bank-account",
      how: "Ozow pays it back into the bank account you paid from; it usually arrives within a few working days.",
    },
    notificationPath: "/api/payments/ozow/notify",
  },
  {
    name: "yoco",
    label: "Card (Yoco)",
    sentenceName: "Yoco",
    mark: "YO",
    role: "hosted",
    test: false,
    choiceText: "Pay by card on Yoco's secure page.",
    turnOn: "set YOCO_SECRET_KEY / YOCO_WEBHOOK_SECRET",
    capabilities: {
      checkout: "redirect",
      verifiesNotifications: true,
      statusQuery: true,
      refundByApi: true,
      chargeSavedCard: false,
    },
    refund: {
      route: "card",
      how: "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
    },
    notificationPath: "/api/payments/yoco/webhook",
  },
  {
    name: "paystack",
    label: "Paystack",
    sentenceName: "Paystack",
    mark: "PS",
    role: "hosted",
    test: false,
    choiceText: "Pay by card or instant EFT on Paystack's secure page.",
    turnOn: "set PAYSTACK_SECRET_KEY",
    capabilities: {
      checkout: "redirect",
      verifiesNotifications: true,
      statusQuery: true,
      refundByApi: true,
      chargeSavedCard: true,
    },
    refund: {
      route: "card",
      how: "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
    },
    notificationPath: "/api/payments/paystack/webhook",
  },
];

/** The answer of GET /api/payment-providers, for stubFetch ("/payment-providers") and stubApi ("/api/payment-providers"). */
export const paymentProvidersAnswer = { body: { data: PAYMENT_PROVIDERS_FIXTURE } };
