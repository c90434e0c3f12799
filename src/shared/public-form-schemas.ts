// The public site's forms (spec §3, §5): the order form, the interest form, the download
// instructions, and the status page's e-mail subscription. One zod schema each, used by the
// browser form, the server route and the tests.
import { z } from "zod";
import { CONTACT_MESSAGES, validateInstructionContact } from "./contact";
import { deviceLineFields, requireMac } from "./device-line-schemas";
import { DEVICES, type DeviceValue, FREE_TRIAL_DURATION, INTERNET_PLATFORMS, type InternetPlatform } from "./options";
import { emailText, marketingOptIn, nameText, optionalText, phoneText, tooLong, whenFieldsValid } from "./schema-parts";

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

export type OrderForm = z.output<typeof orderFormSchema>;
export type OrderFormInput = z.input<typeof orderFormSchema>;
export type InterestForm = z.output<typeof interestFormSchema>;
export type InterestFormInput = z.input<typeof interestFormSchema>;
export type InstructionsRequest = z.output<typeof instructionsRequestSchema>;
export type InstructionsForm = z.output<typeof instructionsFormSchema>;

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
