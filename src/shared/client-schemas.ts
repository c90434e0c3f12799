// The client portal's contract beyond src/shared/schemas.ts: the forms of the portal (one zod
// schema each, used by the browser form, the server route and the tests), the response shapes
// of /api/client/*, and the pure rules the portal and the server must agree on (subscription
// status, days left, install-guide steps).

import { z } from "zod";
import type { BankDetails, Download, HostedPaymentMethod, Incident, Notice, PaymentStatus, Special } from "./api";
import { couponCodeSchema } from "./billing";
import { isValidEmail, isValidPhone } from "./contact";
import type { LineType } from "./device-lines";
import { type ClientStatus, isClientStatus } from "./lifecycle";
import type { PlanViewModel } from "./pricing";
import { HOSTED_PAYMENT_METHODS, passwordSchema, verificationCodeSchema } from "./schemas";
import { isSouthAfricanWhatsApp } from "./whatsapp";

// ---- words the portal and the server share -------------------------------------------------

/** Spec §8: any sign-in failure. */
export const INVALID_CREDENTIALS_MESSAGE = "Invalid username or password";
/** The one answer to a reset request, whether or not an account matched. */
export const RESET_REQUESTED_MESSAGE = "If an account matches, we've sent a reset link.";
export const INVALID_RESET_TOKEN_MESSAGE = "This reset link is invalid or has expired. Please ask for a new one.";
export const PASSWORD_RESET_DONE_MESSAGE = "Your password has been changed. Please sign in with your new password.";
export const SUSPENDED_MESSAGE = "Your account is suspended. Please contact us to sort it out.";
/** A suspended client starting a payment (409): the money could not switch the service back on. */
export const SUSPENDED_PAYMENT_MESSAGE =
  "Your account is suspended, so we can't take a payment for it online. Please contact us to sort it out first.";

/** A reset link works this long. */
export const RESET_TOKEN_TTL_MINUTES = 30;
/** 'expiring' means a paid (active) term ending within this many days; a trial stays a trial. */
export const EXPIRING_WITHIN_DAYS = 7;

// ---- forms -----------------------------------------------------------------------------------

// Passwords are never trimmed (a space may be part of one); capped so a huge body cannot make
// hashing expensive (same cap as the shared passwordSchema).
const PASSWORD_CAP = 200;

export const passwordResetRequestSchema = z.object({
  identifier: z
    .string({ error: "Please enter your username or e-mail address" })
    .trim()
    .min(1, "Please enter your username or e-mail address")
    .max(254, "That is too long for a username or e-mail address"),
});

/** The token is checked by the server (a bad one answers 'invalid_token'); the password by the shared rules. */
export const passwordResetConfirmSchema = z.object({
  token: z.string({ error: INVALID_RESET_TOKEN_MESSAGE }).trim().min(1, INVALID_RESET_TOKEN_MESSAGE).max(200, INVALID_RESET_TOKEN_MESSAGE),
  password: passwordSchema,
});

export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Please enter your current password" })
      .min(1, "Please enter your current password")
      .max(PASSWORD_CAP, "Your current password is not correct"),
    newPassword: passwordSchema,
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ["newPassword"],
    message: "Choose a new password that is different from your current one",
    when: ({ issues }) => issues.length === 0,
  });

export const COMMUNICATION_METHODS = ["whatsapp", "email"] as const;
export type CommunicationMethod = (typeof COMMUNICATION_METHODS)[number];

/** '' clears a contact; anything else must be a usable address or number. */
const clearableEmail = z
  .string({ error: "Please enter a valid email address" })
  .trim()
  .max(254, "Email address must be 254 characters or fewer")
  .refine((v) => v === "" || isValidEmail(v), "Please enter a valid email address");
const clearablePhone = z
  .string({ error: "Please enter a valid WhatsApp number" })
  .trim()
  .max(30, "Phone number must be 30 characters or fewer")
  .refine((v) => v === "" || (isValidPhone(v) && isSouthAfricanWhatsApp(v)), "Please enter a valid WhatsApp number");

/**
 * PATCH /api/client/me: only the client's own contact details, channel and marketing choice.
 * The username, status, package and dates are the business's to change; unknown keys
 * (id, username, status, ...) are stripped, so sending them changes nothing.
 */
export const profilePatchSchema = z.object({
  full_name: z
    .string({ error: "Please enter your full name" })
    .trim()
    .min(1, "Please enter your full name")
    .max(100, "Full name must be 100 characters or fewer")
    .optional(),
  email: clearableEmail.optional(),
  whatsapp: clearablePhone.optional(),
  communication_method: z.enum(COMMUNICATION_METHODS, { error: "Choose WhatsApp or email" }).optional(),
  marketing_opt_in: z.boolean({ error: "Marketing consent must be yes or no" }).optional(),
});

// ---- one-time codes (server: lib/verification.ts) -------------------------------------------

/** PATCH /api/client/me with a new number or address: it must be proven first (contact-change). */
export const CONTACT_CHANGE_NEEDS_CODE = {
  whatsapp: "To change your WhatsApp number, confirm the new number with a code",
  email: "To change your e-mail address, confirm the new address with a code",
} as const;

/** POST /api/client/contact-change: one new contact, which gets the code. */
export const contactChangeSchema = z
  .object({
    whatsapp: z
      .string({ error: "Please enter a valid WhatsApp number" })
      .trim()
      .min(1, "Please enter a valid WhatsApp number")
      .pipe(clearablePhone)
      .optional(),
    email: z
      .string({ error: "Please enter a valid email address" })
      .trim()
      .min(1, "Please enter a valid email address")
      .pipe(clearableEmail)
      .optional(),
  })
  .refine((v) => (v.whatsapp === undefined) !== (v.email === undefined), {
    message: "Send the new WhatsApp number or the new e-mail address, one at a time",
    path: ["whatsapp"],
  });
export type ContactChangeInput = z.infer<typeof contactChangeSchema>;

/** POST /api/client/contact-change/confirm */
export const contactChangeConfirmSchema = z.object({ code: verificationCodeSchema });

/** POST /api/client/contact-change → 202: where the code went, masked. */
export interface ContactChangeStarted {
  /** '' when no code could be sent: the new number is proved by writing to us (waLink) */
  sentTo: string;
  channel: "whatsapp" | "email";
  /** a new number: the wa.me link that writes a code to the shop from it, when the webhook is set up (issue 41) */
  waLink?: string | null;
}

/** What the portal shows beside the marketing choice (POPIA: the text consent was given to). */
export const MARKETING_CONSENT_TEXT = "Send me specials and news by WhatsApp or e-mail. I can opt out at any time.";

export const RENEW_METHODS = ["card", "eft", ...HOSTED_PAYMENT_METHODS] as const;

/** POST /api/client/renew: their own package unless they pick another active one. */
export const renewRequestSchema = z.object({
  packageId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.uuid({ error: "Please choose a package" }).optional()),
  method: z.enum(RENEW_METHODS, { error: "Choose card or EFT" }),
  /** a coupon code, priced on the server (the same rules as the public review step) */
  coupon: z.preprocess((v) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v), couponCodeSchema.optional()),
});

export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>;
export type PasswordResetConfirm = z.output<typeof passwordResetConfirmSchema>;
export type PasswordChange = z.output<typeof passwordChangeSchema>;
export type ProfilePatch = z.output<typeof profilePatchSchema>;
export type RenewRequest = z.output<typeof renewRequestSchema>;

// ---- rules -----------------------------------------------------------------------------------

export type ClientAccountStatus = ClientStatus;
/** The account's status as the portal words it, with 'expiring' for a paid term ending soon. */
export type SubscriptionStatus = ClientStatus | "expiring";

const DAY_MS = 86_400_000;

/**
 * What the portal and the dashboard call the subscription now: the lifecycle's status (kept
 * current by its scheduled job), with a paid term ending within EXPIRING_WITHIN_DAYS shown as
 * expiring. A trial stays a trial to the end: it is always short.
 */
export function subscriptionStatus(
  client: { status: string; subscription_end: Date | string | null },
  now: Date = new Date(),
): SubscriptionStatus {
  const status: ClientStatus = isClientStatus(client.status) ? client.status : "pending";
  if (status !== "active") return status;
  const left = client.subscription_end === null ? null : new Date(client.subscription_end).getTime() - now.getTime();
  // An end already past reads as stored until the lifecycle job moves it on (within a minute).
  if (left !== null && left > 0 && left <= EXPIRING_WITHIN_DAYS * DAY_MS) return "expiring";
  return "active";
}

/** Whole days left, counting a part day as a day (12 hours left is 1); 0 once ended; null without an end. */
export function daysLeft(end: Date | string | null, now: Date = new Date()): number | null {
  if (end === null) return null;
  const ms = new Date(end).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / DAY_MS);
}

const NUMBERED_STEP = /^\s*(?:step\s*)?\d+\s*[.):-]\s*/i;

/** An installation guide as steps: one per non-empty line, any numbering the admin typed removed. */
export function guideSteps(guide: string | null | undefined): string[] {
  if (!guide) return [];
  return guide
    .split(/\r?\n/)
    .map((line) => line.replace(NUMBERED_STEP, "").trim())
    .filter(Boolean);
}

// ---- responses (/api/client/*) -----------------------------------------------------------------

/** POST /api/client/login and GET /api/client/session: {success: true, client} */
export interface ClientSummary {
  id: string;
  username: string;
  full_name: string;
  /** the account's status; 'suspended' clients can sign in to a restricted portal */
  status: ClientAccountStatus;
}

export interface ClientSessionResponse {
  success: true;
  client: ClientSummary;
}

export interface ClientSubscription {
  status: SubscriptionStatus;
  package: string;
  package_id: string | null;
  start: string | null;
  end: string | null;
  days_left: number | null;
}

/** The streaming line's login: only ever sent to this client (and admins). */
/** The subscriber's line on the IPTV panel: the player login, the M3U and EPG links. */
export interface ClientLine {
  username: string;
  password: string;
  /** the server URL player apps ask for (same as server_url; kept for older portals) */
  portal_url: string;
  server_url: string;
  /** the M3U playlist link: {server}/get.php?username=…&password=…&type=m3u_plus&output=ts */
  m3u_url: string;
  /** the TV guide: {server}/xmltv.php?username=…&password=… */
  epg_url: string;
  /** when the panel will stop the line (ISO); null when unknown */
  expires_at: string | null;
  /** a line on the shop's sandbox panel: a test line that plays nothing */
  is_test: boolean;
  /** m3u (an app's login) | mag | enigma2: a box's line is keyed by its MAC, and a MAG box is set up by its portal URL */
  type: LineType;
  /** the box's MAC address ('' for an app's line) */
  mac: string;
  /** a MAC change asked for and not yet made on the panel */
  mac_change: { new_mac: string; requested_at: string } | null;
  /** the line is on the panel, so its MAC change and ISP-lock reset can be asked for here */
  self_service: boolean;
}

/** GET/PATCH /api/client/me → {data} */
export interface ClientProfile {
  id: string;
  username: string;
  full_name: string;
  email: string;
  whatsapp: string;
  communication_method: CommunicationMethod;
  marketing_opt_in: boolean;
  marketing_opt_in_at: string | null;
  status: ClientAccountStatus;
  subscription: ClientSubscription;
  device: string;
  device_label: string;
  internet_platform: string;
  /** null while the account is suspended */
  line: ClientLine | null;
  created_at: string;
}

/** GET /api/client/payments → {data}: newest first */
export interface ClientPayment {
  reference: string;
  /** when paid, else when created (ISO) */
  date: string;
  amount: number;
  currency: string;
  package: string;
  status: PaymentStatus;
  /** a payment provider's name (shared/payment-providers.ts), eft or manual */
  provider: string;
  /** 'Card', 'EFT', 'Manual' */
  method: string;
  paid_at: string | null;
  created_at: string;
  /** whether GET /api/client/payments/:ref/receipt answers for it */
  has_receipt: boolean;
}

/** GET /api/client/payments/:ref/receipt → {data} */
export interface ClientReceipt extends ClientPayment {
  description: string;
  client: { full_name: string; username: string; email: string };
  business: { name: string; email: string; whatsapp: string; url: string };
  /** the business's own statement about VAT (site setting vat_note), '' when none */
  vat_note: string;
}

/** POST /api/client/renew → 201 */
export type ClientRenewResponse =
  | { success: true; method: "card" | HostedPaymentMethod; paylinkUrl: string; externalTransactionID: string }
  | { success: true; method: "eft"; reference: string; amount: number; package_name: string; bank: BankDetails };

export interface ClientPlan extends PlanViewModel {
  packageId: string;
  /** the client's own package */
  isCurrent: boolean;
}

/** GET /api/client/specials → {data} */
export interface ClientSpecials {
  specials: Special[];
  /** every active package with the price this client would pay today */
  plans: ClientPlan[];
}

/** GET/POST /api/client/content-requests */
export interface ClientContentRequest {
  id: string;
  request_type: string;
  title: string;
  details: string;
  /** new | in_progress | added | declined */
  status: string;
  reply: string;
  created_at: string;
  updated_at: string;
}

/** GET /api/client/notices */
export interface ClientNoticesResponse {
  /** active notices for clients or everyone, inside their window, newest first */
  data: Notice[];
  /** incidents not yet resolved */
  incidents: Incident[];
  /** parts of the service not fully working right now */
  components: { key: string; name: string; status: string; message: string }[];
}

/** GET /api/client/apps → {data}: apps for the client's device first */
export interface ClientApp extends Download {
  for_your_device: boolean;
  steps: string[];
}
