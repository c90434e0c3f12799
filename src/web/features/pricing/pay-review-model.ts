// The review step's words, the form's values and the ways to pay it offers: what the dialog, its
// hook and its parts share (pay-review-dialog.tsx).
import type { HostedPaymentMethod, PaymentMethods, PaymentProviderInfo } from "@/shared/api";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import type { IdentifyResponse } from "@/shared/schemas";
import { findProvider } from "@/web/lib/queries/payment-providers";
import type { PayerField } from "./pay-now";

export const PAY_REVIEW_MESSAGES = {
  consent: "Start my subscription as soon as I have paid. I understand this waives the 7-day cooling-off period.",
  testCheckout: "Test checkout: no real money is taken.",
  eftAfter: "We'll activate your account when the payment reflects.",
  unavailable: "Online payment isn't available at the moment. Place an order and we'll send you the payment details on WhatsApp.",
  /** issue 46: a returning customer asks for the code; a new one goes straight to payment */
  returning: "Already a customer? Get a code to pay on your account",
  returningHint: "Type the WhatsApp number (or e-mail address) on your account first.",
  asNew: "Continuing as a new customer makes a new account. If it turns out to be you, we join the two.",
  cardOnly: EFT_CARD_ONLY_MESSAGE,
  byWhatsApp: "Or tap the button and send the message from your account's WhatsApp number, then pay: no code to type.",
} as const;

/** What the review step offers: card, EFT, both side by side, a provider picked, or neither (the order form instead). */
export type Method = "card" | "eft" | "both" | "none" | HostedPaymentMethod;
/** one way to pay, as a submit button or the radio group chooses it */
export type Way = "card" | "eft" | HostedPaymentMethod;

export interface PayerValues {
  name: string;
  whatsapp: string;
  email: string;
  immediateStartConsent: boolean;
  coupon: string;
  company: string;
  address: string;
  vatNumber: string;
  /** the one-time code, asked for only when the number or e-mail is already a client's */
  verificationCode: string;
  /** the device the line is for (m3u: an app), and a box's MAC */
  lineType: string;
  mac: string;
  /** "Renew automatically with this card": offered only for a provider that keeps the card; off by default */
  autoRenew: boolean;
}

export const EMPTY: PayerValues = {
  name: "",
  whatsapp: "",
  email: "",
  immediateStartConsent: false,
  coupon: "",
  company: "",
  address: "",
  vatNumber: "",
  verificationCode: "",
  lineType: "m3u",
  mac: "",
  autoRenew: false,
};

/** A provider whose checkout can keep the card for renewals we charge (the registry's capability). */
export const savesCard = (providers: readonly PaymentProviderInfo[] | undefined, method: string) =>
  findProvider(providers, method)?.capabilities.chargeSavedCard === true;

/** The field's control id (its error is `{id}-error`). */
export const fieldId = (name: PayerField) => `payer-${name}`;

export function paymentMethod(methods: PaymentMethods | undefined): Method | undefined {
  if (!methods) return undefined;
  if (methods.providers?.length) return methods.card !== "off" ? "card" : methods.providers[0].id;
  if (methods.card !== "off") return methods.eft ? "both" : "card";
  return methods.eft ? "eft" : "none";
}

/**
 * The ways to pay offered side by side once the owner turned on another provider: card (when on),
 * each provider by name, and EFT (when its bank details are in). Empty when there is only one way.
 */
export function methodChoices(
  methods: PaymentMethods | undefined,
  providers: readonly PaymentProviderInfo[] | undefined,
): { id: Method; name: string; text: string; mark?: string }[] {
  if (!methods?.providers?.length) return [];
  return [
    ...(methods.card !== "off" ? [{ id: "card" as const, name: "Card", text: "Pay by card on a secure payment page." }] : []),
    ...methods.providers.map((p) => {
      const info = findProvider(providers, p.id);
      return { id: p.id, name: p.name, text: info?.choiceText ?? "", mark: info?.mark };
    }),
    ...(methods.eft ? [{ id: "eft" as const, name: "EFT", text: "Get our bank details and your reference." }] : []),
  ];
}

export function submitLabel(method: Method | undefined, busy: boolean, providerName?: string): string {
  if (method === undefined) return "Checking payment options...";
  if (method === "eft") return busy ? "Getting EFT details..." : "Get EFT details";
  if (providerName) return busy ? `Taking you to ${providerName}...` : `Continue to ${providerName}`;
  return busy ? "Creating payment link..." : "Continue to payment";
}

/** Whether a code can prove the payer: one went to something they typed, or the wa.me link writes one to us. */
export const canProve = (answer: IdentifyResponse): boolean => Boolean(answer.sentTo || answer.waLink);
