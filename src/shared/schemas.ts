// One zod schema per form and per admin-written entity, used by the browser form, the server
// route and the tests (docs/architecture.md, "Parts"). Strings are trimmed and capped; messages are the spec's
// where it gives them (§5) and plain sentences elsewhere. Unknown keys are stripped (zod's
// default), which is how a browser-sent `amount` never reaches the payment code.
import { z } from "zod";
import { buyerDetailsFields, couponCodeSchema } from "./billing";
import { CONTACT_MESSAGES, isValidEmail, isValidPhone, validateInstructionContact } from "./contact";
import { deviceLineFields, requireMac } from "./device-line-schemas";
import { SAFE_LINK_PATTERN } from "./links";
import { DEVICES, type DeviceValue, FREE_TRIAL_DURATION, INTERNET_PLATFORMS, type InternetPlatform } from "./options";
import { HOSTED_PROVIDER_NAMES } from "./payment-providers";
import { isSouthAfricanWhatsApp } from "./whatsapp";

// ---- building blocks --------------------------------------------------------------------

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or fewer`;

/** A trimmed string that may be absent (then ''), capped at `max`. */
const optionalText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, tooLong(what, max))
    .default("");

/** A trimmed, required string; `empty` is the message for missing or blank. */
const requiredText = (empty: string, what: string, max: number) =>
  z.string({ error: empty }).trim().min(1, empty).max(max, tooLong(what, max));

/**
 * A person's name as the public forms take it (order, interest, the payer at the review step):
 * it is put into the confirmation we send to the address or number typed (issue 30: an order
 * confirmation began "Hi there. Your line is blocked: pay R99 at https://evil.example/pay"), so
 * no links (http:, www., a domain such as evil.example or evil.example/…), no line breaks or
 * other control characters, at most 80 characters.
 */
export const NAME_FORMAT_MESSAGE = "Please enter your name without links or line breaks";
export const NAME_MAX = 80;
const CONTROL_OR_BREAK = /[\p{Cc}\u2028\u2029]/u;
const LINK_WORDS = /(?:[a-z][a-z0-9+.-]*:\/\/|https?:|www\.)/i;
/** a domain followed by a path: evil.example/pay, EVIL.EXAMPLE / pay */
const DOMAIN_AND_PATH = /[\p{L}\p{N}-]+\.[\p{L}\p{N}-]{2,}\s*\//u;
/** a dotted name ending in a lower-case top-level domain: evil.example, pay.me.co.za (not "J.R." or "Mr.Smith") */
const BARE_DOMAIN = /(?:^|[^\p{L}\p{N}])[\p{L}\p{N}-]{2,}(?:\.[\p{L}\p{N}-]+)*\.[a-z]{2,24}(?![\p{L}\p{N}])/u;
export const isPlainName = (v: string) =>
  !CONTROL_OR_BREAK.test(v) && !LINK_WORDS.test(v) && !DOMAIN_AND_PATH.test(v) && !BARE_DOMAIN.test(v);

// The format check runs only when the length checks passed, so a blank field reports one
// message. (Not `abort: true`: an explicit abort would also stop the object-level rules of
// the form, which should report every problem at once.)
const onlyIfNoIssue = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };
const nameText = (empty: string, what: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(NAME_MAX, tooLong(what, NAME_MAX))
    .refine(isPlainName, { message: NAME_FORMAT_MESSAGE, ...onlyIfNoIssue });
const emailText = (message: string, empty = message) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(254, tooLong("Email address", 254))
    .refine(isValidEmail, { message, ...onlyIfNoIssue });

// E.164 numbers have at most 15 digits; the text may carry spaces, '+', brackets and dashes.
const MAX_PHONE_DIGITS = 15;
const phoneText = (message: string, empty = message) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(30, tooLong("Phone number", 30))
    // A South African number in any form people type it; stored as 27… (toStoredWhatsApp).
    .refine((v) => isValidPhone(v) && v.replace(/\D/g, "").length <= MAX_PHONE_DIGITS && isSouthAfricanWhatsApp(v), {
      message,
      ...onlyIfNoIssue,
    });

/**
 * Run a cross-field rule as soon as the fields it reads are valid, even while other fields
 * are still wrong, so a form shows every problem at once (zod skips object rules otherwise).
 */
const whenFieldsValid = (...keys: string[]) => ({
  when: ({ issues }: { issues: readonly { path?: readonly PropertyKey[] }[] }) => !issues.some((i) => keys.includes(String(i.path?.[0]))),
});

/** '' and null count as "not given" for optional query values and optional fields that have a format. */
export const blankToUndefined = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);

const marketingOptIn = z.boolean({ error: "Marketing consent must be yes or no" }).default(false);

// ---- public forms -------------------------------------------------------------------------

// '' is "not chosen": the selects start empty.
const DEVICE_CHOICES = ["", ...DEVICES.map((d) => d.value)] as ["", ...DeviceValue[]];
const PLATFORM_CHOICES = ["", ...INTERNET_PLATFORMS.map((p) => p.value)] as ["", ...InternetPlatform[]];

export const OTHER_PLATFORM_MESSAGE = "Please tell us which internet platform you use";

/**
 * Spec §5 order form: only Full Name, Email Address and WhatsApp Number are enforced.
 * Select Package and Internet Platform carry an asterisk in the form but are optional here,
 * as in the spec. When the platform is 'other', its free-text field is required.
 */
export const orderFormSchema = z
  .object({
    name: nameText("Please enter your full name", "Full name"),
    email: emailText("Please enter a valid email address"),
    whatsapp: phoneText("Please enter a valid WhatsApp number"),
    package: optionalText("Package", 100),
    // 'free-trial' or a package duration such as '3 Months'
    duration: optionalText("Duration", 40),
    device: z.enum(DEVICE_CHOICES, { error: "Please choose a device from the list" }).default(""),
    internetPlatform: z.enum(PLATFORM_CHOICES, { error: "Please choose an internet platform from the list" }).default(""),
    otherPlatform: optionalText("Internet platform", 60),
    internetSpeed: optionalText("Internet speed", 40),
    formType: z.enum(["order", "free-trial"], { error: "Form type must be order or free-trial" }).optional(),
    marketingOptIn,
    /** ECT Act s44: a paid plan may start at once (the order form asks; a trial has none) */
    immediateStartConsent: z.boolean({ error: "Immediate start consent must be true or false" }).optional(),
    /** the price the order summary showed, e.g. 'R1,450' (kept with the lead; never used for money) */
    shownPrice: z.string({ error: "Shown price must be text" }).trim().max(40, tooLong("Shown price", 40)).optional(),
    /** the line the customer needs: an app's login (m3u, the default), or a MAG / Enigma2 box with its MAC (issue 32) */
    ...deviceLineFields,
  })
  .refine((v) => v.internetPlatform !== "other" || v.otherPlatform !== "", {
    path: ["otherPlatform"],
    message: OTHER_PLATFORM_MESSAGE,
    ...whenFieldsValid("internetPlatform", "otherPlatform"),
  })
  .superRefine(requireMac);

/** Whether an order form asks for the free trial (its form type or its duration says so). */
export function isFreeTrialOrder(form: Pick<OrderForm, "formType" | "duration">): boolean {
  return form.formType === "free-trial" || form.duration === FREE_TRIAL_DURATION;
}

export const INTEREST_REQUIRED_MESSAGE = "Please fill in all required fields.";

/** Spec §3/§5 interest form: firstName, lastName, email and whatsapp are all required. */
export const interestFormSchema = z.object({
  firstName: nameText(INTEREST_REQUIRED_MESSAGE, "First name"),
  lastName: nameText(INTEREST_REQUIRED_MESSAGE, "Last name"),
  email: emailText(CONTACT_MESSAGES.email, INTEREST_REQUIRED_MESSAGE),
  whatsapp: phoneText("Please enter a valid WhatsApp number", INTEREST_REQUIRED_MESSAGE),
  communicationMethod: z.enum(["whatsapp", "email"], { error: "Choose WhatsApp or email" }).default("whatsapp"),
  packageName: optionalText("Package name", 100),
  // The plan card sends a number (650) or 'FREE'; it is kept as text, as the lead stores it.
  packagePrice: z
    .union([z.number().finite().transform(String), z.string()], { error: "Package price must be text or a number" })
    .pipe(z.string().trim().max(20, tooLong("Package price", 20)))
    .default(""),
  duration: optionalText("Duration", 40),
  marketingOptIn,
});

/** Spec §5 download instructions: the contact checked with the spec's exact messages. */
export const instructionsRequestSchema = z
  .object({
    type: z.enum(["whatsapp", "email"], { error: "Choose WhatsApp or email" }),
    contact: z.string({ error: CONTACT_MESSAGES.missing }).trim().max(254, tooLong("Contact", 254)),
  })
  .superRefine((v, ctx) => {
    const message = validateInstructionContact(v.type, v.contact);
    if (message) ctx.addIssue({ code: "custom", path: ["contact"], message });
  });

/**
 * The download dialog's 'Send instructions' form (spec §5): WhatsApp, e-mail or both, each with
 * its contact. One request per chosen channel follows, each checked again by
 * instructionsRequestSchema on the server; no channel chosen is the spec's 'Please enter contact
 * information', under `channels`.
 */
export const instructionsFormSchema = z
  .object({
    sendWhatsapp: z.boolean().default(false),
    whatsapp: z.string().trim().max(30, tooLong("Phone number", 30)).default(""),
    sendEmail: z.boolean().default(false),
    email: z.string().trim().max(254, tooLong("E-mail address", 254)).default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.sendWhatsapp && !v.sendEmail) {
      ctx.addIssue({ code: "custom", path: ["channels"], message: CONTACT_MESSAGES.missing });
      return;
    }
    for (const channel of ["whatsapp", "email"] as const) {
      if (!(channel === "whatsapp" ? v.sendWhatsapp : v.sendEmail)) continue;
      const message = validateInstructionContact(channel, v[channel]);
      if (message) ctx.addIssue({ code: "custom", path: [channel], message });
    }
  });

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
 * When no code can be delivered (lib/verification.ts, codeRoute): the flow says so and what works
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

/**
 * The answer of POST /api/payments/identify, alike for any number or address (issue 46: who is a
 * customer is not public): a code went to the account's own contacts if there is one.
 */
export const IDENTIFY_MESSAGE =
  "If this number or address has an account with us, we've sent a code to its contacts: enter it below. Or sign in to your client portal, or continue as a new customer.";

/** POST /api/payments/identify → the same answer whoever asks (IDENTIFY_MESSAGE). */
export interface IdentifyResponse {
  message: string;
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

// ---- sign-in and accounts ---------------------------------------------------------------

// Passwords are never trimmed (a space may be part of one) and are capped so a huge body
// cannot make the password hash expensive.
const PASSWORD_MAX = 200;
const loginPassword = z.string({ error: "Please enter your password" }).min(1, "Please enter your password").max(PASSWORD_MAX);

/** Spec §5: admin login uses an email and password; no further field rules (any failure is "invalid credentials"). */
export const adminLoginSchema = z.object({
  // Admin emails are stored lower-case; no format check, so a wrong address is just a failed login.
  email: z.string({ error: "Please enter your email" }).trim().toLowerCase().min(1, "Please enter your email").max(254),
  password: loginPassword,
});

/** Spec §5: client login uses a username and password. */
export const clientLoginSchema = z.object({
  username: z.string({ error: "Please enter your username" }).trim().min(1, "Please enter your username").max(100),
  password: loginPassword,
});

export const PASSWORD_MIN = 10;

function characterClasses(v: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
}

/**
 * A new password: at least 10 characters and not all one kind of character. Length does
 * most of the work; the one-kind rule only turns away the forms cracking lists try first —
 * all digits (phone numbers, ID numbers, dates) and one lower-case word — without the
 * heavier composition rules that push people towards 'Password1!'.
 */
export const passwordSchema = z
  .string({ error: "Please enter a password" })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be ${PASSWORD_MAX} characters or fewer`)
  .refine((v) => characterClasses(v) >= 2, "Use a mix of letters, numbers or symbols, not only one kind of character");

export const CONTENT_REQUEST_TYPES = ["channel", "film", "series", "other"] as const;

/** A client's request for a channel, film or series. */
export const contentRequestSchema = z.object({
  request_type: z.enum(CONTENT_REQUEST_TYPES, { error: "Choose channel, film, series or other" }),
  title: requiredText("Please enter a title", "Title", 200),
  details: optionalText("Details", 2000),
});

// ---- admin-written entities ---------------------------------------------------------------
// Each entity has a create schema (with defaults) and a patch schema (every field optional,
// no defaults: a default inside .partial() would overwrite stored values on PATCH).

/** Rand: 0..1,000,000 with at most two decimals; numeric strings from form inputs are accepted. */
const money = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${what} must be an amount in rand` })
      .min(0, `${what} cannot be negative`)
      .max(1_000_000, `${what} must be R1,000,000 or less`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${what} can have at most two decimals (cents)`),
  );

const sortOrder = z
  .number({ error: "Sort order must be a whole number" })
  .int("Sort order must be a whole number")
  .min(-100_000)
  .max(100_000);
const flag = (what: string) => z.boolean({ error: `${what} must be yes or no` });

// A link: an absolute http(s) address or a path on this site ('/downloads/app.apk'); never
// javascript: or protocol-relative '//host'.
const optionalLink = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${what} must be text` })
      .trim()
      .max(2000, tooLong(what, 2000))
      .regex(SAFE_LINK_PATTERN, `${what} must start with https:// or /`)
      .nullable()
      .optional(),
  );

/** An optional date and time with its zone (ISO 8601); blank or null is left out. */
export const dateTime = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z.iso
      .datetime({ offset: true, error: `${what} must be a date and time with a time zone, e.g. 2026-11-22T14:05:00+02:00` })
      .nullable()
      .optional(),
  );

const windowIsOrdered = (v: { starts_at?: string | null; ends_at?: string | null }) =>
  !v.starts_at || !v.ends_at || Date.parse(v.ends_at) > Date.parse(v.starts_at);
const WINDOW_MESSAGE = { path: ["ends_at"], message: "The end must be after the start", ...whenFieldsValid("starts_at", "ends_at") };
const SPECIAL_PRICE_RULE = {
  path: ["special_price"],
  message: "The special price must be lower than the original price",
  ...whenFieldsValid("original_price", "special_price"),
};

const packageFields = {
  name: requiredText("Please enter a package name", "Package name", 100),
  price: money("Price"),
  duration: requiredText("Please enter a duration, e.g. 1 Month", "Duration", 40),
  duration_months: z
    .number({ error: "Months must be a whole number" })
    .int("Months must be a whole number")
    .min(0, "Months cannot be negative")
    .max(120, "Months must be 120 or fewer"),
  features: z
    .array(z.string().trim().min(1, "A feature cannot be blank").max(200, tooLong("A feature", 200)))
    .max(30, "At most 30 features"),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  is_featured: flag("Featured"),
  sort_order: sortOrder,
  is_active: flag("Active"),
};

export const packageInputSchema = z.object({
  ...packageFields,
  duration_months: packageFields.duration_months.default(1),
  features: packageFields.features.default([]),
  description: packageFields.description.default(""),
  is_featured: packageFields.is_featured.default(false),
  sort_order: packageFields.sort_order.default(0),
  is_active: packageFields.is_active.default(true),
});
export const packagePatchSchema = z.object(packageFields).partial();

const specialFields = {
  package_name: requiredText("Please enter the package name the special applies to", "Package name", 100),
  original_price: money("Original price"),
  special_price: money("Special price"),
  title: z.string().trim().max(200, tooLong("Title", 200)),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  is_active: flag("Active"),
  starts_at: dateTime("Start"),
  ends_at: dateTime("End"),
};

export const specialInputSchema = z
  .object({
    ...specialFields,
    title: specialFields.title.default(""),
    description: specialFields.description.default(""),
    is_active: specialFields.is_active.default(true),
  })
  .refine((v) => v.special_price < v.original_price, SPECIAL_PRICE_RULE)
  .refine(windowIsOrdered, WINDOW_MESSAGE);
/** Cross-field rules are checked when both fields are in the patch; merge and re-check with specialInputSchema for the rest. */
export const specialPatchSchema = z
  .object(specialFields)
  .partial()
  .refine((v) => v.special_price === undefined || v.original_price === undefined || v.special_price < v.original_price, SPECIAL_PRICE_RULE)
  .refine(windowIsOrdered, WINDOW_MESSAGE);

const bannerFields = {
  title: requiredText("Please enter a title", "Title", 200),
  content: z.string().trim().max(2000, tooLong("Content", 2000)),
  // 'special' shows as a popup; anything else inline (spec §3)
  banner_type: z.string().trim().min(1, "Please enter a banner type").max(40, tooLong("Banner type", 40)),
  is_active: flag("Active"),
  sort_order: sortOrder,
};
export const bannerInputSchema = z.object({
  ...bannerFields,
  content: bannerFields.content.default(""),
  banner_type: bannerFields.banner_type.default("info"),
  is_active: bannerFields.is_active.default(true),
  sort_order: bannerFields.sort_order.default(0),
});
export const bannerPatchSchema = z.object(bannerFields).partial();

const shortText = (what: string) => z.string().trim().max(40, tooLong(what, 40));
const downloadFields = {
  name: requiredText("Please enter the app name", "App name", 100),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  download_url: optionalLink("Download URL"),
  file_type: shortText("File type"),
  file_size: shortText("File size"),
  version: shortText("Version"),
  // Spec §3: a list or a single text; a single text becomes a one-item list.
  device_compatibility: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() ? [v] : []) : v),
    z.array(z.string().trim().min(1).max(100, tooLong("A device", 100))).max(30, "At most 30 devices"),
  ),
  installation_guide: z.preprocess(
    blankToUndefined,
    z.string().trim().max(10_000, tooLong("Installation guide", 10_000)).nullable().optional(),
  ),
  is_featured: flag("Featured"),
  qr_code_data: z.preprocess(blankToUndefined, z.string().trim().max(2000, tooLong("QR code data", 2000)).nullable().optional()),
  logo_url: optionalLink("Logo URL"),
  sort_order: sortOrder,
  is_active: flag("Active"),
};
export const downloadInputSchema = z.object({
  ...downloadFields,
  description: downloadFields.description.default(""),
  file_type: downloadFields.file_type.default(""),
  file_size: downloadFields.file_size.default(""),
  version: downloadFields.version.default(""),
  device_compatibility: downloadFields.device_compatibility.default([]),
  is_featured: downloadFields.is_featured.default(false),
  sort_order: downloadFields.sort_order.default(0),
  is_active: downloadFields.is_active.default(true),
});
export const downloadPatchSchema = z.object(downloadFields).partial();

const testimonialFields = {
  client_name: requiredText("Please enter the client's name", "Client name", 100),
  location: z.string().trim().max(100, tooLong("Location", 100)),
  content: requiredText("Please enter the testimonial", "Testimonial", 2000),
  rating: z
    .number({ error: "Rating must be 1 to 5" })
    .int("Rating must be 1 to 5")
    .min(1, "Rating must be 1 to 5")
    .max(5, "Rating must be 1 to 5"),
  is_featured: flag("Featured"),
  is_published: flag("Published"),
  is_approved: flag("Approved"),
  sort_order: sortOrder,
};
export const testimonialInputSchema = z.object({
  ...testimonialFields,
  location: testimonialFields.location.default(""),
  rating: testimonialFields.rating.default(5),
  is_featured: testimonialFields.is_featured.default(false),
  is_published: testimonialFields.is_published.default(false),
  is_approved: testimonialFields.is_approved.default(false),
  sort_order: testimonialFields.sort_order.default(0),
});
export const testimonialPatchSchema = z.object(testimonialFields).partial();

export const NOTICE_SEVERITIES = ["info", "warning", "critical"] as const;
export const NOTICE_AUDIENCES = ["public", "clients", "all"] as const;
const noticeFields = {
  title: requiredText("Please enter a title", "Title", 200),
  body: z.string().trim().max(5000, tooLong("Body", 5000)),
  severity: z.enum(NOTICE_SEVERITIES, { error: "Severity must be info, warning or critical" }),
  audience: z.enum(NOTICE_AUDIENCES, { error: "Audience must be public, clients or all" }),
  starts_at: dateTime("Start"),
  ends_at: dateTime("End"),
  is_active: flag("Active"),
};
export const noticeInputSchema = z
  .object({
    ...noticeFields,
    body: noticeFields.body.default(""),
    severity: noticeFields.severity.default("info"),
    audience: noticeFields.audience.default("all"),
    is_active: noticeFields.is_active.default(true),
  })
  .refine(windowIsOrdered, WINDOW_MESSAGE);
export const noticePatchSchema = z.object(noticeFields).partial().refine(windowIsOrdered, WINDOW_MESSAGE);

// ---- types ----------------------------------------------------------------------------------

export type OrderForm = z.output<typeof orderFormSchema>;
export type OrderFormInput = z.input<typeof orderFormSchema>;
export type InterestForm = z.output<typeof interestFormSchema>;
export type InterestFormInput = z.input<typeof interestFormSchema>;
export type InstructionsRequest = z.output<typeof instructionsRequestSchema>;
export type InstructionsForm = z.output<typeof instructionsFormSchema>;
export type PaylinkRequest = z.output<typeof paylinkRequestSchema>;
export type Payer = z.output<typeof payerSchema>;
export type PayerInput = z.input<typeof payerSchema>;
export type EftRequest = z.output<typeof eftRequestSchema>;
export type AdminLogin = z.output<typeof adminLoginSchema>;
export type ClientLogin = z.output<typeof clientLoginSchema>;
export type ContentRequestInput = z.output<typeof contentRequestSchema>;
export type PackageInput = z.output<typeof packageInputSchema>;
export type PackagePatch = z.output<typeof packagePatchSchema>;
export type SpecialInput = z.output<typeof specialInputSchema>;
export type SpecialPatch = z.output<typeof specialPatchSchema>;
export type BannerInput = z.output<typeof bannerInputSchema>;
export type BannerPatch = z.output<typeof bannerPatchSchema>;
export type DownloadInput = z.output<typeof downloadInputSchema>;
export type DownloadPatch = z.output<typeof downloadPatchSchema>;
export type TestimonialInput = z.output<typeof testimonialInputSchema>;
export type TestimonialPatch = z.output<typeof testimonialPatchSchema>;
export type NoticeInput = z.output<typeof noticeInputSchema>;
export type NoticePatch = z.output<typeof noticePatchSchema>;

/** POST /api/status/subscribe: status updates by e-mail (double opt-in). */
export const STATUS_EMAIL_MESSAGE = "Please enter a valid email address";
export const statusSubscribeSchema = z.object({ email: emailText(STATUS_EMAIL_MESSAGE) });
export type StatusSubscribe = z.infer<typeof statusSubscribeSchema>;
/** PUT /api/client/status-updates — the portal's "Status updates" toggle. */
export const statusUpdatesPatchSchema = z.object({
  subscribed: z.boolean({ error: "Status updates must be on or off" }),
});
/** GET/PUT /api/client/status-updates → {data}: whether they are on, and the channel they go to (null: no usable contact). */
export interface ClientStatusUpdates {
  subscribed: boolean;
  channel: "email" | "whatsapp" | null;
}
