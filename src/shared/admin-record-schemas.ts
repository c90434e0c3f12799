// What the business dashboard writes about leads, clients, payments and content requests: one zod
// schema per admin form, used by the admin screens, the server routes and the tests.
import { z } from "zod";
import { COMMUNICATION_METHODS, CONTENT_REQUEST_STATUSES, LEAD_STATUSES } from "./admin-list-schemas";
import {
  DEVICE_CHOICES,
  dateTime,
  flag,
  optionalEmail,
  optionalPhone,
  positiveMoney,
  requiredText,
  text,
  username,
  uuid,
} from "./business-schema-parts";
import { blankToUndefined } from "./schema-parts";

// ---- leads ------------------------------------------------------------------------------------

export const leadPatchSchema = z
  .object({
    status: z.enum(LEAD_STATUSES, { error: "Status must be new, contacted, converted or lost" }),
    notes: text("Notes", 5000),
  })
  .partial()
  .refine((v) => v.status !== undefined || v.notes !== undefined, "Nothing to change: send a status or notes");

/** The lead drawer's notes form: the notes alone (the same rule as in leadPatchSchema). */
export const leadNotesSchema = z.object({ notes: text("Notes", 5000) });

/** How a new client's account begins: waiting for the first payment, or with a free trial. */
export const NEW_CLIENT_STARTS = ["pending", "trial"] as const;
const NEW_CLIENT_START_MESSAGE = "A new client starts pending (waiting for payment) or on a free trial";

export const leadConvertSchema = z.object({
  /** derived from the lead's name when absent */
  username: z.preprocess(blankToUndefined, username.optional()),
  /** by default the package whose name the lead chose */
  package_id: z.preprocess(blankToUndefined, uuid("Please choose a package").optional()),
  /**
   * trial starts the free trial now (length from the settings); pending waits for the first
   * payment. By default trial for a free-trial lead, pending otherwise. Time is never given here.
   */
  start: z.preprocess(blankToUndefined, z.enum(NEW_CLIENT_STARTS, { error: NEW_CLIENT_START_MESSAGE }).optional()),
});

export type LeadPatch = z.output<typeof leadPatchSchema>;
export type LeadConvert = z.output<typeof leadConvertSchema>;

// ---- clients ----------------------------------------------------------------------------------

const clientFields = {
  username,
  full_name: requiredText("Please enter the client's full name", "Full name", 100),
  email: optionalEmail,
  whatsapp: optionalPhone,
  communication_method: z.enum(COMMUNICATION_METHODS, { error: "Choose WhatsApp or email" }),
  marketing_opt_in: flag("Marketing consent"),
  package_id: z.preprocess((v) => (v === "" ? null : v), uuid("Please choose a package").nullable()),
  device: z.enum(DEVICE_CHOICES, { error: "Please choose a device from the list" }),
  internet_platform: text("Internet platform", 60),
  line_username: text("Line username", 200),
  line_password: text("Line password", 200),
  line_portal_url: text("Line portal URL", 2000).refine(
    (v) => v === "" || /^https?:\/\/\S+$/i.test(v),
    "Line portal URL must start with http:// or https://",
  ),
  notes: text("Notes", 5000),
};

export const clientCreateSchema = z.object({
  ...clientFields,
  /** derived from the full name when absent */
  username: z.preprocess(blankToUndefined, username.optional()),
  email: optionalEmail.default(""),
  whatsapp: optionalPhone.default(""),
  communication_method: clientFields.communication_method.default("whatsapp"),
  marketing_opt_in: clientFields.marketing_opt_in.default(false),
  package_id: clientFields.package_id.default(null),
  /** the status and term are the lifecycle's: a new client waits for payment, or starts a trial */
  start: z.enum(NEW_CLIENT_STARTS, { error: NEW_CLIENT_START_MESSAGE }).default("pending"),
  device: clientFields.device.default(""),
  internet_platform: clientFields.internet_platform.default(""),
  line_username: clientFields.line_username.default(""),
  line_password: clientFields.line_password.default(""),
  line_portal_url: clientFields.line_portal_url.default(""),
  notes: clientFields.notes.default(""),
});

// No defaults in the patch: a default inside .partial() would overwrite stored values.
export const clientPatchSchema = z
  .object(clientFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, "Nothing to change");

/** The client page's notes form: the notes alone (the same rule as in clientPatchSchema). */
export const clientNotesSchema = z.object({ notes: clientFields.notes });

export const GRANT_REASON_MESSAGE = "Please give the reason for the complimentary time";
export const GRANT_LENGTH_MESSAGE = "Grant at least one day or one month";

/** POST /api/admin/clients/:id/grant: time without payment, always with a reason (audited). */
export const clientGrantSchema = z
  .object({
    months: z.coerce
      .number({ error: "Months must be a whole number" })
      .int("Months must be a whole number")
      .min(0)
      .max(24, "At most 24 months at a time")
      .default(0),
    days: z.coerce
      .number({ error: "Days must be a whole number" })
      .int("Days must be a whole number")
      .min(0)
      .max(366, "At most 366 days at a time")
      .default(0),
    reason: z
      .string({ error: GRANT_REASON_MESSAGE })
      .trim()
      .min(3, GRANT_REASON_MESSAGE)
      .max(500, "The reason can be at most 500 characters"),
  })
  .refine((v) => v.months + v.days > 0, { message: GRANT_LENGTH_MESSAGE, path: ["days"] });

export type ClientGrant = z.output<typeof clientGrantSchema>;

export type ClientCreate = z.output<typeof clientCreateSchema>;
export type ClientPatch = z.output<typeof clientPatchSchema>;

/** The message when the chosen channel has no address to reach. */
export const CHANNEL_CONTACT_MESSAGES = {
  whatsapp: "Add a WhatsApp number to reach this client on WhatsApp",
  email: "Add an e-mail address to reach this client by e-mail",
} as const;

// ---- payments ---------------------------------------------------------------------------------

export const paymentCreateSchema = z.object({
  client_id: uuid("Please choose a client"),
  package_id: uuid("Please choose a package"),
  amount: positiveMoney("Amount"),
  /** how it was paid: 'Cash at the shop', 'EFT to FNB, ref ...' */
  note: text("Note", 2000).default(""),
  /** when the money came in; now by default */
  paid_at: z.preprocess(blankToUndefined, dateTime("Paid at").optional()),
});

export const paymentPatchSchema = z
  .object({
    client_id: z.preprocess((v) => (v === "" ? null : v), uuid("Please choose a client").nullable()),
    notes: text("Notes", 5000),
  })
  .partial()
  .refine((v) => v.client_id !== undefined || v.notes !== undefined, "Nothing to change: send a client or notes");

/** mark-paid and refund take an optional note for the payment's history. */
export const paymentNoteSchema = z.object({ note: text("Note", 2000).default("") });

export type PaymentCreate = z.output<typeof paymentCreateSchema>;
export type PaymentPatch = z.output<typeof paymentPatchSchema>;

// ---- content requests -------------------------------------------------------------------------

export const contentRequestPatchSchema = z
  .object({
    status: z.enum(CONTENT_REQUEST_STATUSES, { error: "Status must be new, in_progress, added or declined" }),
    reply: text("Reply", 2000),
  })
  .partial()
  .refine((v) => v.status !== undefined || v.reply !== undefined, "Nothing to change: send a status or a reply");

export type ContentRequestPatch = z.output<typeof contentRequestPatchSchema>;

/** The dashboard's reply form: both fields as they stand (the form sends only what changed). */
export const contentRequestFormSchema = z.object({
  status: z.enum(CONTENT_REQUEST_STATUSES, { error: "Status must be new, in_progress, added or declined" }),
  reply: text("Reply", 2000),
});
export type ContentRequestForm = z.output<typeof contentRequestFormSchema>;
