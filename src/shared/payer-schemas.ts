// Who pays and how (the review step, spec §7, §8): the payer, the one-time codes that prove an
// account's contact, the identify question, and the pay link and EFT requests.
import { z } from "zod";
import { buyerDetailsFields, couponCodeSchema } from "./billing";
import { CONTACT_MESSAGES } from "./contact";
import { deviceLineFields, requireMac } from "./device-line-schemas";
import { HOSTED_PROVIDER_NAMES } from "./payment-providers";
import { blankToUndefined, emailText, nameText, phoneText } from "./schema-parts";

const packageId = z.uuid({ error: "Please choose a package" });
const optionalEmail = z.preprocess(blankToUndefined, emailText(CONTACT_MESSAGES.email).optional());

export const IMMEDIATE_START_CONSENT_MESSAGE =
  "Please confirm that your subscription may start as soon as you have paid (this waives the 7-day cooling-off period)";
export const PAYER_NAME_MESSAGE = "Please enter your full name";
export const PAYER_WHATSAPP_MESSAGE = "Please enter a valid WhatsApp number";

/**
 * Who pays, as the review step before a payment collects it: a name and WhatsApp number (an
 * e-mail address optional) and the ECT Act s44 consent that a paid plan starts at once. The
 * server asks for name and WhatsApp only when no client is signed in.
 */
export const payerSchema = z.object({
  name: nameText(PAYER_NAME_MESSAGE, "Full name"),
  whatsapp: phoneText(PAYER_WHATSAPP_MESSAGE, PAYER_WHATSAPP_MESSAGE),
  email: optionalEmail,
  immediateStartConsent: z.literal(true, { error: IMMEDIATE_START_CONSENT_MESSAGE }),
  /** a coupon code, priced on the server */
  coupon: z.preprocess(blankToUndefined, couponCodeSchema.optional()),
  /** the buyer's details for the invoice, all optional */
  ...buyerDetailsFields,
});

/** The review step's form: who pays, and the device the line is for (a box's MAC when it needs one). */
export const payerDeviceSchema = payerSchema.extend(deviceLineFields).superRefine(requireMac);
export type PayerDevice = z.output<typeof payerDeviceSchema>;

// ---- one-time codes (server: lib/verification.ts) -------------------------------------------

export const VERIFICATION_CODE_MESSAGES = Object.freeze({
  format: "Enter the 6-digit code we sent",
  wrong: "That code is not right. Check the code we sent and try again.",
  void: "Too many wrong tries: this code no longer works. Ask for a new code.",
  expired: "This code has expired or was already used. Ask for a new code.",
});

/**
 * When no code can be delivered (lib/code-route.ts, codeRoute): the flow says so and what works
 * instead. A code never waits in the owner's queue.
 */
export const CODE_ROUTE_MESSAGES = Object.freeze({
  /** the Cloud API is set up, but no code template is approved and the number has not written to us today */
  whatsappWindow:
    "We can't send a code to this WhatsApp number yet. Send us a WhatsApp message from it first, then ask again: for a day after your message we can reply with the code.",
  /** no Cloud API: codes cannot go on WhatsApp at all */
  whatsappOff: "We can't send codes on WhatsApp yet, so we can't check this number here. Contact us and we will change it for you.",
  /** no e-mail leaves the shop yet (no SMTP_URL): a code to an address would only wait on the server */
  emailOff: "We can't send e-mail yet, so we can't check this address here. Contact us and we will change it for you.",
  /** a pay link: the matched account has no contact a code can reach now */
  identify: "We can't send a code to this account right now. Sign in to your client portal to pay on it, or continue as a new customer.",
  /** a free trial's new code when neither its WhatsApp nor an e-mail address can get one now */
  trialResend:
    "We can't send a new code to WhatsApp right now. Send us a WhatsApp message from your number, then ask for a new code again.",
  /** a free trial: the shop confirms it instead (trial_mode approve) */
  trialApprove: "We can't send a code to WhatsApp yet, so the shop will confirm your free trial: you'll hear from us during support hours.",
});

/** A six-digit one-time code as typed (spaces ignored). */
export const verificationCodeSchema = z
  .string({ error: VERIFICATION_CODE_MESSAGES.format })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, VERIFICATION_CODE_MESSAGES.format));

/** POST /api/payments/identify: is there an account for this number or address? */
export const identifyRequestSchema = z
  .object({
    whatsapp: z.preprocess(blankToUndefined, phoneText(PAYER_WHATSAPP_MESSAGE).optional()),
    email: optionalEmail,
  })
  .refine((v) => Boolean(v.whatsapp || v.email), { message: PAYER_WHATSAPP_MESSAGE, path: ["whatsapp"] });

const IDENTIFY_OTHERWISE = "Or sign in to your client portal, or continue as a new customer.";

/**
 * The answer of POST /api/payments/identify, alike for any number or address (issue 46: who is a
 * customer is not public). `sentTo` names what the payer typed that the shop can send a code to now
 * (the shop's state decides, never whose the contact is); each of them got one if it is on an
 * account. `ifWrote`: the number typed, while the Cloud API is connected but no code template is
 * approved: it got a code if it is on an account and its 24-hour window is open (issue 41 item 1),
 * said on that condition so the answer is the same whether it wrote to us or not. `askEmail`: an
 * e-mail address typed could carry a code.
 */
export function identifyMessage(sentTo: readonly string[], askEmail: boolean, ifWrote = ""): string {
  const wrote = "has written to us on WhatsApp in the last 24 hours";
  const addEmail = "add the e-mail address on your account above and ask again to get a code there.";
  if (ifWrote && sentTo.length) {
    return `We've sent a code to ${sentTo.join(" and to ")} if it is on an account with us, and to ${ifWrote} if it is and ${wrote}: enter it below. ${IDENTIFY_OTHERWISE}`;
  }
  if (ifWrote) {
    const orEmail = askEmail ? ` If not, ${addEmail}` : "";
    return `If ${ifWrote} is on an account with us and ${wrote}, we've sent a code there: enter it below.${orEmail} ${IDENTIFY_OTHERWISE}`;
  }
  if (sentTo.length === 1)
    return `If ${sentTo[0]} is on an account with us, we've sent a code there: enter it below. ${IDENTIFY_OTHERWISE}`;
  if (sentTo.length > 1) {
    return `We've sent a code to ${sentTo.join(" and to ")}, each if it is on an account with us: enter it below. ${IDENTIFY_OTHERWISE}`;
  }
  const email = askEmail ? ` ${addEmail[0].toUpperCase()}${addEmail.slice(1)}` : "";
  return `We can't send a code to what you typed right now.${email} ${IDENTIFY_OTHERWISE}`;
}

/** identify's `sentTo`: each place named, the window's number with its condition. */
export function identifySentTo(sentTo: readonly string[], ifWrote = ""): string {
  return [...sentTo, ...(ifWrote ? [`${ifWrote} if it wrote to us in the last 24 hours`] : [])].join(" and ");
}

/** POST /api/payments/identify → the same answer whoever asks (identifyMessage). */
export interface IdentifyResponse {
  message: string;
  /**
   * where the code went, masked, if it is on an account ("WhatsApp ending 4567 and t***@example.co.za",
   * or "WhatsApp ending 4567 if it wrote to us in the last 24 hours"); "" when nowhere (issue 41)
   */
  sentTo: string;
  /**
   * the wa.me link that writes a code to the shop (issue 41), whenever the webhook is set up:
   * sent from the account's recorded number, its code is then the verificationCode
   */
  waLink?: string;
}

/** The providers a pay link may go through besides the card provider (GET /api/payments/methods lists those on). */
export const HOSTED_PAYMENT_METHODS = HOSTED_PROVIDER_NAMES;
export const PAYMENT_METHOD_MESSAGE = "Choose one of the ways to pay on offer";

const paymentRequestFields = {
  packageId,
  /** card (the default: the card provider, real or the test checkout) or one of the hosted providers the owner turned on */
  method: z.preprocess(blankToUndefined, z.enum(["card", ...HOSTED_PAYMENT_METHODS], { error: PAYMENT_METHOD_MESSAGE }).optional()),
  name: z.preprocess(blankToUndefined, nameText(PAYER_NAME_MESSAGE, "Full name").optional()),
  whatsapp: z.preprocess(blankToUndefined, phoneText(PAYER_WHATSAPP_MESSAGE).optional()),
  email: optionalEmail,
  immediateStartConsent: payerSchema.shape.immediateStartConsent,
  /** "Renew automatically with this card" (issue 44): only for a provider that can charge a saved card; off by default */
  autoRenew: z.boolean({ error: "Renew automatically must be on or off" }).optional(),
  /** only ever the signed-in client's own id (anything else is refused) */
  clientId: z.preprocess(blankToUndefined, z.uuid({ error: "Client id is not valid" }).optional()),
  coupon: payerSchema.shape.coupon,
  /** the one-time code that proves the payer is the client their number or e-mail belongs to (POST /api/payments/identify) */
  verificationCode: z.preprocess(blankToUndefined, verificationCodeSchema.optional()),
  ...buyerDetailsFields,
  /** the device the line is for: an app (m3u, the default), or a MAG / Enigma2 box with its MAC */
  ...deviceLineFields,
};

/** POST /api/payments/paylink: the server prices the package; any `amount` sent is dropped. */
export const paylinkRequestSchema = z.object(paymentRequestFields).superRefine(requireMac);

/** POST /api/payments/eft: a reference and bank details for this package. */
export const eftRequestSchema = z.object(paymentRequestFields).superRefine(requireMac);

export type PaylinkRequest = z.output<typeof paylinkRequestSchema>;
export type Payer = z.output<typeof payerSchema>;
export type PayerInput = z.input<typeof payerSchema>;
export type EftRequest = z.output<typeof eftRequestSchema>;
