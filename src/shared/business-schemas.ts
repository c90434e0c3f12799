// The business side of the admin (issue 5): leads, clients, payments, content requests and
// the overview. One zod schema per admin form and list query, used by the admin screens, the
// server routes and the tests; and the shapes those routes answer with.
import { z } from "zod";
import { isValidEmail, isValidPhone } from "./contact";
import { saDay } from "./dates";
import { CLIENT_STATUSES, type ClientStatus } from "./lifecycle";
import { DEVICES, type DeviceValue } from "./options";
import { type StreamUrlSource, streamUrlField } from "./panel-settings";
import { OTHER_PAYMENT_METHODS, PAYMENT_PROVIDER_NAMES } from "./payment-providers";
import { blankToUndefined, type CONTENT_REQUEST_TYPES } from "./schemas";
import { isSouthAfricanWhatsApp } from "./whatsapp";

// ---- value lists --------------------------------------------------------------------------

const CLIENT_STATUS_MESSAGE = "Status must be pending, trial, active, grace, expired or suspended";
export const LEAD_STATUSES = ["new", "contacted", "converted", "lost"] as const;
export const LEAD_FORM_TYPES = ["order", "interest", "free-trial"] as const;
export const COMMUNICATION_METHODS = ["whatsapp", "email"] as const;
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "cancelled", "refunded"] as const;
/** What a payment row's provider may be: a registered payment provider (shared/payment-providers.ts), EFT or manual. */
export const PAYMENT_PROVIDERS = [...PAYMENT_PROVIDER_NAMES, ...OTHER_PAYMENT_METHODS] as const;
export const CONTENT_REQUEST_STATUSES = ["new", "in_progress", "added", "declined"] as const;

export type LeadStatus = (typeof LEAD_STATUSES)[number];
export { CLIENT_STATUSES, type ClientStatus };
export type ContentRequestStatus = (typeof CONTENT_REQUEST_STATUSES)[number];

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 200;
/** `expiring=N` looks at most this many days ahead. */
export const EXPIRING_DAYS_MAX = 365;

// ---- building blocks --------------------------------------------------------------------

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or fewer`;

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, tooLong(what, max));
const requiredText = (empty: string, what: string, max: number) =>
  z.string({ error: empty }).trim().min(1, empty).max(max, tooLong(what, max));

/** An e-mail address or '' (none). */
const optionalEmail = text("Email address", 254).refine((v) => v === "" || isValidEmail(v), "Please enter a valid email address");
/** A phone number in any common form, or '' (none). */
const optionalPhone = text("WhatsApp number", 30).refine(
  (v) => v === "" || (isValidPhone(v) && isSouthAfricanWhatsApp(v)),
  "Please enter a valid WhatsApp number",
);

const uuid = (message: string) => z.uuid({ error: message });
const flag = (what: string) => z.boolean({ error: `${what} must be yes or no` });

const dateTime = (what: string) =>
  z.iso.datetime({ offset: true, error: `${what} must be a date and time with a time zone, e.g. 2026-11-22T14:05:00+02:00` });

/** Usernames: what a person types on a phone keyboard without surprises. Stored lower-case. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{2,39}$/;
export const USERNAME_MESSAGE =
  "Usernames are 3-40 characters: letters, numbers, dots, dashes or underscores, starting with a letter or number";
const username = z.string({ error: "Please enter a username" }).trim().toLowerCase().regex(USERNAME_PATTERN, USERNAME_MESSAGE);

// '' is "not chosen", as on the order form.
const DEVICE_CHOICES = ["", ...DEVICES.map((d) => d.value)] as ["", ...DeviceValue[]];

/** Rand amount above zero with at most two decimals; numeric strings from inputs are accepted. */
const positiveMoney = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${what} must be an amount in rand` })
      .positive(`${what} must be more than R0`)
      .max(1_000_000, `${what} must be R1,000,000 or less`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${what} can have at most two decimals (cents)`),
  );

// ---- list queries ---------------------------------------------------------------------------

/** 'YYYY-MM-DD' (a South African day) or an ISO date-time. */
const DAY_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
/**
 * Filters take years 2000–2100 only: both the year as written and the year of the instant it
 * names (UTC), so `9999-12-31T23:59:59-14:00` or `0000-01-01` is a 400 on the
 * field instead of reaching the database as a 500 (issue 30).
 */
export const DATE_FILTER_MIN_YEAR = 2000;
export const DATE_FILTER_MAX_YEAR = 2100;
const dateInstant = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
const yearInRange = (year: number) => year >= DATE_FILTER_MIN_YEAR && year <= DATE_FILTER_MAX_YEAR;
const saneDate = (v: string) => yearInRange(Number(v.slice(0, 4))) && yearInRange(new Date(dateInstant(v)).getUTCFullYear());
const dateBound = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(DAY_OR_DATETIME, `${what} must be a date like 2026-11-22`)
      .refine((v) => !Number.isNaN(dateInstant(v)), `${what} is not a real date`)
      .refine((v) => Number.isNaN(dateInstant(v)) || saneDate(v), `${what} must be a date between 2000 and 2100`)
      .optional(),
  );
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(blankToUndefined, z.enum(values, { error: message }).optional());
const NUL_MESSAGE = "Search contains a character that is not allowed.";
// PostgreSQL refuses a NUL character in text: a search carrying one is bad input, not a 500.
const search = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .max(200, tooLong("Search", 200))
    .refine((v) => !v.includes("\u0000"), NUL_MESSAGE)
    .optional(),
);

const paging = <S extends readonly [string, ...string[]]>(sorts: S) => ({
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: "Page must be a number" }).int().min(1, "Page starts at 1").default(1)),
  pageSize: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "Page size must be a number" })
      .int()
      .min(1, "Page size must be at least 1")
      .max(PAGE_SIZE_MAX, `Page size must be ${PAGE_SIZE_MAX} or less`)
      .default(PAGE_SIZE_DEFAULT),
  ),
  sort: z.preprocess(blankToUndefined, z.enum(sorts, { error: `Sort by one of: ${sorts.join(", ")}` }).default("created_at" as S[number])),
  dir: z.preprocess(blankToUndefined, z.enum(["asc", "desc"], { error: "Direction must be asc or desc" }).default("desc")),
});

const range = { from: dateBound("From"), to: dateBound("To") };

export const LEAD_SORTS = ["created_at", "updated_at", "name", "status", "form_type", "package_name"] as const;
export const leadListQuerySchema = z.object({
  ...paging(LEAD_SORTS),
  q: search,
  status: optionalEnum(LEAD_STATUSES, "Status must be new, contacted, converted or lost"),
  form_type: optionalEnum(LEAD_FORM_TYPES, "Form type must be order, interest or free-trial"),
  ...range,
});

export const CLIENT_SORTS = ["created_at", "updated_at", "username", "full_name", "status", "subscription_end", "package_name"] as const;
export const clientListQuerySchema = z.object({
  ...paging(CLIENT_SORTS),
  q: search,
  status: optionalEnum(CLIENT_STATUSES, CLIENT_STATUS_MESSAGE),
  /** subscriptions ending within this many days from now (trial and active clients) */
  expiring: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "Expiring must be a number of days" })
      .int("Expiring must be a whole number of days")
      .min(1, "Expiring must be at least 1 day")
      .max(EXPIRING_DAYS_MAX, `Expiring must be ${EXPIRING_DAYS_MAX} days or fewer`)
      .optional(),
  ),
  /** a package id, or a package name (any letter case) */
  package: search,
});

export const PAYMENT_SORTS = ["created_at", "paid_at", "amount", "status", "provider"] as const;
export const paymentListQuerySchema = z.object({
  ...paging(PAYMENT_SORTS),
  q: search,
  status: optionalEnum(PAYMENT_STATUSES, "Status must be pending, paid, failed, cancelled or refunded"),
  provider: optionalEnum(PAYMENT_PROVIDERS, `Provider must be ${PAYMENT_PROVIDERS.slice(0, -1).join(", ")} or manual`),
  /** held: a refund sent to the provider whose answer was lost, its amount held until confirmed */
  refund: optionalEnum(["held"], "Refund must be held"),
  ...range,
});

export const CONTENT_REQUEST_SORTS = ["created_at", "updated_at", "status", "title"] as const;
export const contentRequestListQuerySchema = z.object({
  ...paging(CONTENT_REQUEST_SORTS),
  q: search,
  status: optionalEnum(CONTENT_REQUEST_STATUSES, "Status must be new, in_progress, added or declined"),
});

export type LeadListQuery = z.output<typeof leadListQuerySchema>;
export type ClientListQuery = z.output<typeof clientListQuerySchema>;
export type PaymentListQuery = z.output<typeof paymentListQuerySchema>;
export type ContentRequestListQuery = z.output<typeof contentRequestListQuerySchema>;

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
export type LeadNotes = z.output<typeof leadNotesSchema>;

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
export type ClientNotes = z.output<typeof clientNotesSchema>;

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

// ---- what the routes answer (dates as ISO strings) --------------------------------------------

export interface PagedResponse<T> {
  data: T[];
  total: number;
}

export interface AdminLead {
  id: string;
  form_type: (typeof LEAD_FORM_TYPES)[number] | string;
  name: string;
  email: string;
  whatsapp: string;
  whatsapp_digits: string;
  package_name: string;
  package_price: string;
  duration: string;
  device: string;
  internet_platform: string;
  other_platform: string;
  internet_speed: string;
  communication_method: string;
  marketing_opt_in: boolean;
  payload: Record<string, unknown>;
  status: LeadStatus | string;
  /**
   * the client this lead is: set when it was converted, and also before, when the person is a
   * returning client (their WhatsApp number or e-mail matches one)
   */
  client_id: string | null;
  /** that client, for the lead list's 'Returning client' note; null for a new person */
  client: { id: string; username: string; full_name: string; status: string } | null;
  ip: string;
  notes: string;
  created_at: string;
  updated_at: string;
  /** one-click chat to the person, greeting them by name and naming their request; null without a number */
  whatsapp_url: string | null;
}

export interface AdminClient {
  id: string;
  username: string;
  full_name: string;
  email: string;
  whatsapp: string;
  communication_method: string;
  marketing_opt_in: boolean;
  marketing_opt_in_at: string | null;
  package_id: string | null;
  package_name: string;
  status: ClientStatus | string;
  subscription_start: string | null;
  subscription_end: string | null;
  device: string;
  internet_platform: string;
  line_username: string;
  line_password: string;
  line_portal_url: string;
  /** the line on the IPTV panel (null until provisioning made it or the owner linked it) */
  panel_line_id: string | null;
  line_expires_at: string | null;
  line_enabled: boolean;
  /** a sandbox-panel test line */
  line_is_test: boolean;
  /** what the nightly sync found different on the panel; '' when it agrees */
  line_sync_issue: string;
  /** m3u (an app's login) | mag | enigma2, and the box's MAC (issue 32) */
  line_type: string;
  line_mac: string;
  notes: string;
  /** a client this one may be (an unproven payment's payer matched them): merge or dismiss */
  possible_duplicate_of: string | null;
  /** merged into this client: history only */
  merged_into: string | null;
  created_at: string;
  updated_at: string;
}

/** The other client of a flagged or merged one, for its banner. */
export interface RelatedClient {
  id: string;
  username: string;
  full_name: string;
  whatsapp: string;
  email: string;
  status: string;
  subscription_end: string | null;
}

// ---- the IPTV panel ---------------------------------------------------------------------------

export const PANEL_USERNAME_MESSAGE = "Paste the line's username from your panel";
export const PANEL_PASSWORD_MESSAGE = "Paste the line's password from your panel";
const panelPackageChoice = z.union([z.string().trim().min(1, "Choose a panel package").max(100), z.literal(""), z.null()]);

/** PUT /api/admin/panel/mapping: our package id → the panel's package id ('' unmaps), and the trial package. */
export const panelMappingSchema = z.object({
  packages: z.record(z.uuid({ error: "Not a package id" }), panelPackageChoice).default({}),
  trial: panelPackageChoice.optional(),
  /** our package id → the panel package's bouquet ids it includes ([]: all of them) */
  bouquets: z
    .record(
      z.uuid({ error: "Not a package id" }),
      z.array(z.string().trim().min(1).max(20), { error: "Choose bouquets from the list" }).max(500),
    )
    .optional(),
});

export const PANEL_EXPIRY_MESSAGE = "Enter the line's end date as the panel shows it (YYYY-MM-DD), today or later";
export const PANEL_STREAM_URL_NEEDED = "Enter the stream server your customers' apps connect to, so their links work";

/** A real calendar day 'YYYY-MM-DD', today or later in South Africa. */
const lineEndDay = z
  .string()
  .trim()
  .refine((day) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
    if (!m) return false;
    const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return date.toISOString().slice(0, 10) === day && Number(m[1]) <= 2100 && day >= saDay(new Date());
  }, PANEL_EXPIRY_MESSAGE);

/**
 * POST /api/admin/provisioning/:id/complete: what the owner pastes after doing a step on the
 * panel. For a new line: its username and password, optionally the panel's line id and the end
 * date the panel shows (else the paid term's end), and the stream server URL when none is set yet
 * (it is saved as the panel's setting).
 */
export const panelTaskCompleteSchema = z.object({
  username: z.string().trim().max(200).optional(),
  password: z.string().trim().max(200).optional(),
  line_id: z.string().trim().max(100).optional(),
  expires_on: z.preprocess(blankToUndefined, lineEndDay.optional()),
  stream_url: z.preprocess(blankToUndefined, streamUrlField.optional()),
});

/** The panel_runway_alert_days setting: days before the credits run out that the owner is e-mailed. */
export const RUNWAY_ALERT_DAYS_MESSAGE = "Enter the alert days as a whole number from 0 to 99, e.g. 7";

/** POST /api/admin/panel/drift/:id/fix: ours to the panel, or the panel's taken as ours. */
export const panelDriftFixSchema = z.object({
  direction: z.enum(["push", "accept"], { error: "Choose push (ours to the panel) or accept (the panel's as ours)" }),
});
export type PanelDriftFix = z.output<typeof panelDriftFixSchema>;

/** GET /api/admin/panel/drift → {data}: one difference the panel sync found, with both sides' values. */
export interface PanelDriftView {
  id: string;
  kind: "expiry" | "enabled" | "max_connections" | "missing_on_panel" | "missing_here";
  client_id: string | null;
  client_full_name: string | null;
  panel_line_id: string;
  /** our side and the panel's, as text: an ISO date (expiry), 'true'/'false' (enabled, missing), a number */
  ours: string;
  panel: string;
  /** the difference in the owner's words */
  description: string;
  status: "open" | "fixed" | "resolved";
  direction: "push" | "accept" | null;
  can_push: boolean;
  /**
   * What a push spends, in the owner's words, asked before it is sent: "Extends the line by one
   * 3 Months Official package: 3 credits. The panel will end it on 2 Mar 2027." Null when a
   * push costs nothing (switching on or off) or cannot be done.
   */
  push_cost: { credits: number | null; words: string } | null;
  can_accept: boolean;
  found_at: string;
  fixed_at: string | null;
  fixed_by: string;
}

/** GET /api/admin/panel/drift → the page asked for, the total, and how many open differences there are of each kind. */
export interface PanelDriftList {
  data: PanelDriftView[];
  total: number;
  counts: Record<PanelDriftView["kind"], number>;
}

/** The last comparison of the panel's lines with ours (the panel page's "last check"). */
export interface PanelCheckView {
  at: string;
  ok: boolean;
  error: string;
  checked: number;
  flagged: number;
  lines_read: number;
  failures_in_row: number;
  took_ms: number;
}

export type PanelMapping = z.output<typeof panelMappingSchema>;
export type PanelTaskComplete = z.output<typeof panelTaskCompleteSchema>;

/** GET /api/admin/panel */
export interface AdminPanelView {
  mode: "xtream" | "sandbox" | "manual";
  connected: boolean;
  credits: number | null;
  low_credits: boolean;
  credit_warning: number;
  packages: {
    id: string;
    name: string;
    is_trial: boolean;
    official_duration: number;
    official_duration_in: string;
    trial_duration: number;
    trial_duration_in: string;
    official_credits: number;
    max_connections: number;
    /** the panel package's bouquet ids */
    bouquets?: string[];
  }[];
  /** our package id → panel package id */
  mapping: Record<string, string>;
  /** our package id → the bouquets it includes ([] or absent: all of the panel package's) */
  bouquets?: Record<string, string[]>;
  trial_package_id: string | null;
  error: string | null;
  /** the URL subscribers' M3U/EPG links are built on now ('' when none is set) and where it comes from */
  stream_url: string;
  stream_url_source: StreamUrlSource;
  /** the owner's setting ('' when unset) and PANEL_STREAM_URL, what an empty setting falls back to */
  stream_url_setting: string;
  stream_url_default: string;
  /** minutes a panel read is kept (the panel_cache_minutes setting, 1-60, default 5) */
  cache_minutes: number;
  /** when credits and packages were read from the panel (ISO); null when it has not answered */
  read_at: string | null;
  /** how long the credits last against the renewals due in the next 30 days */
  runway?: { runs_out_on: string | null; renewals_due_30d: number; credits_needed_30d: number | null; credits_known: boolean };
  /** the last comparison with the panel's lines; null before the first */
  last_check?: PanelCheckView | null;
  /** the credit ledger's totals: what the panel took in 30 days, its last recorded balance, rows off the package's price, rows with a balance or price not read */
  ledger?: { entries_30d: number; charged_30d: number; last_balance: number | null; mismatched: number; unknown: number };
}

/** GET /api/admin/provisioning → {data} */
export interface ProvisioningJob {
  id: string;
  client_id: string;
  client_full_name: string;
  client_username: string;
  action: "create_line" | "extend_line" | "enable_line" | "disable_line" | "change_mac" | "isp_clear";
  package_name: string;
  trial: boolean;
  status: "pending" | "running" | "done" | "failed" | "task";
  attempts: number;
  next_attempt_at: string;
  /** the panel's STATUS_* word, or NETWORK, TIMEOUT, BAD_ANSWER, NO_MAPPING, INTERRUPTED */
  error_status: string;
  last_error: string;
  /** the panel's raw answer, secrets masked */
  panel_answer: string;
  /** manual mode: what the owner is asked to do */
  instruction: string;
  /** completing it needs the line's username and password (it makes the client's line) */
  needs_login: boolean;
  done_at: string | null;
  created_at: string;
}

/** POST /api/admin/clients, POST /api/admin/leads/:id/convert: the password is shown this once. */
/** Where a message went, masked ('ending 4567', 'j***@gmail.com'): never the address or its secret. */
export interface QueuedTo {
  channel: "email" | "whatsapp";
  hint: string;
}

/** POST /api/admin/clients: the new client, and where their welcome with a link to choose a password was queued. No password. */
export interface ClientCreated {
  client: AdminClient;
  queued_to: QueuedTo[];
}

/** POST /api/admin/clients/:id/reset-password: where the link to choose a new password was queued. */
export interface PasswordLinkQueued {
  queued_to: QueuedTo[];
}

/**
 * POST /api/admin/leads/:id/convert: a new client (their welcome with a link to choose a password
 * queued to `queued_to`), or, for a lead from a returning client, that client renewed: the lead is
 * linked, their package set to the one asked for, and a renewal link queued to `queued_to`; no
 * second account. No password is ever answered.
 */
export type LeadConversion =
  | { renewed: false; client: AdminClient; queued_to: QueuedTo[]; lead: AdminLead }
  | { renewed: true; client: AdminClient; queued_to: QueuedTo[]; lead: AdminLead };

/** One change of a client's status or term, as the lifecycle recorded it (GET /api/admin/clients/:id → lifecycle). */
export interface LifecycleEvent {
  id: string;
  cause: string;
  /** 'Payment captured', 'Suspended by an admin', ... */
  label: string;
  reason: string;
  /** who or what caused it: an admin's e-mail, 'payment STRMDSK_…', 'scheduled job' */
  actor: string;
  status_before: string | null;
  status_after: string;
  end_before: string | null;
  end_after: string | null;
  created_at: string;
}

export interface AdminPayment {
  id: string;
  provider: string;
  external_transaction_id: string;
  provider_reference: string | null;
  amount: number;
  currency: string;
  package_id: string | null;
  package_name: string;
  description: string;
  client_id: string | null;
  lead_id: string | null;
  client_email: string;
  status: string;
  paid_at: string | null;
  notes: string;
  /** billing: the coupon priced in, what it took off, and what has been refunded so far (rand) */
  coupon_code?: string;
  discount?: number;
  refunded_amount?: number;
  /** of refunded_amount, what is only held: a refund sent to the provider and not yet confirmed (rand) */
  refund_held?: number;
  created_at: string;
  updated_at: string;
  client_username: string | null;
  client_full_name: string | null;
}

export interface AdminContentRequest {
  id: string;
  client_id: string | null;
  request_type: (typeof CONTENT_REQUEST_TYPES)[number] | string;
  title: string;
  details: string;
  status: ContentRequestStatus | string;
  reply: string;
  created_at: string;
  updated_at: string;
  client_username: string | null;
  client_full_name: string | null;
}

export interface AdminOutboxMessage {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** GET /api/admin/clients/:id → {data} (the /admin/client/{clientId} page) */
export interface AdminClientDetail extends AdminClient {
  payments: AdminPayment[];
  leads: AdminLead[];
  content_requests: AdminContentRequest[];
  /** messages queued or sent to them, newest first */
  messages: AdminOutboxMessage[];
  /** every change of their status or term, newest first */
  lifecycle: LifecycleEvent[];
  /** the client named by possible_duplicate_of or merged_into */
  related: RelatedClient | null;
  /** clients flagged as possibly this one */
  flagged_duplicates: RelatedClient[];
}

/** GET /api/admin/stats; days are Africa/Johannesburg days, oldest first. */
export interface AdminStats {
  leads_today: number;
  leads_week: number;
  active_clients: number;
  live_trials: number;
  expiring_7d: number;
  revenue_month: number;
  eft_awaiting: number;
  /** messages that failed for good or are retrying after an error */
  outbox_failed: number;
  /** WhatsApp messages waiting for the owner to send by hand (no Cloud API, or no template) */
  whatsapp_to_send: number;
  /** payments with a refund a provider has not confirmed, its amount held (admin/payments?refund=held) */
  refunds_held: number;
  leads_per_day: { date: string; count: number }[];
  revenue_per_day: { date: string; amount: number }[];
}

/**
 * GET /api/admin/launch-checklist → {items, done}: what the owner still has to set before taking
 * real customers. whatsapp_templates is listed only with the Cloud API, stream_url only with a real
 * panel or manual mode.
 */
export interface LaunchChecklistItem {
  key:
    | "bank"
    | "legal"
    | "whatsapp"
    | "support_email"
    | "alerts_email"
    | "email_delivery"
    | "whatsapp_templates"
    | "card"
    | "panel"
    | "stream_url"
    | "demo_content";
  label: string;
  done: boolean;
  /** what is missing (or, when done, what is set), in the owner's words */
  why: string;
  /** the dashboard page where it is set */
  href: string;
}
export interface LaunchChecklist {
  items: LaunchChecklistItem[];
  /** every item done: the overview hides the checklist */
  done: boolean;
}
