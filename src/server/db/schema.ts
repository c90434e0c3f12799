// Drizzle schema: every table of docs/architecture.md, "Data". Spec tables keep the spec's names and
// column names; money is numeric (never float) read as a JS number of rand.
import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ADMIN_ONLY_TABLES as ADMIN_ONLY } from "@/shared/change-feed";

const id = () => uuid("id").primaryKey().defaultRandom();
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: "number" });

// ---- catalogue -------------------------------------------------------------------------

export const packages = pgTable(
  "packages",
  {
    id: id(),
    name: text("name").notNull(),
    price: money("price").notNull(),
    duration: text("duration").notNull(),
    /** whole months the package buys; used to extend subscriptions */
    duration_months: integer("duration_months").notNull().default(1),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    description: text("description").notNull().default(""),
    is_featured: boolean("is_featured").notNull().default(false),
    sort_order: integer("sort_order").notNull().default(0),
    is_active: boolean("is_active").notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("packages_active_sort_idx").on(t.is_active, t.sort_order)],
);

export const pricingSpecials = pgTable("pricing_specials", {
  id: id(),
  package_name: text("package_name").notNull(),
  original_price: money("original_price").notNull(),
  special_price: money("special_price").notNull(),
  title: text("title").notNull().default(""),
  description: text("description").notNull().default(""),
  is_active: boolean("is_active").notNull().default(true),
  starts_at: timestamp("starts_at", { withTimezone: true }),
  ends_at: timestamp("ends_at", { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const banners = pgTable("banners", {
  id: id(),
  title: text("title").notNull(),
  content: text("content").notNull().default(""),
  /** 'special' shows as a popup; anything else inline */
  banner_type: text("banner_type").notNull().default("info"),
  is_active: boolean("is_active").notNull().default(true),
  sort_order: integer("sort_order").notNull().default(0),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const siteSettings = pgTable("site_settings", {
  id: id(),
  key: text("key").notNull().unique(),
  value: text("value").notNull().default(""),
  description: text("description").notNull().default(""),
  is_active: boolean("is_active").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const downloads = pgTable("downloads", {
  id: id(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  download_url: text("download_url"),
  file_type: text("file_type").notNull().default(""),
  file_size: text("file_size").notNull().default(""),
  version: text("version").notNull().default(""),
  device_compatibility: jsonb("device_compatibility").$type<string[]>().notNull().default([]),
  installation_guide: text("installation_guide"),
  download_count: integer("download_count").notNull().default(0),
  is_featured: boolean("is_featured").notNull().default(false),
  qr_code_data: text("qr_code_data"),
  logo_url: text("logo_url"),
  sort_order: integer("sort_order").notNull().default(0),
  is_active: boolean("is_active").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const testimonialsManaged = pgTable("testimonials_managed", {
  id: id(),
  client_name: text("client_name").notNull(),
  location: text("location").notNull().default(""),
  content: text("content").notNull(),
  rating: integer("rating").notNull().default(5),
  is_featured: boolean("is_featured").notNull().default(false),
  is_published: boolean("is_published").notNull().default(false),
  is_approved: boolean("is_approved").notNull().default(false),
  sort_order: integer("sort_order").notNull().default(0),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const imageRegistry = pgTable("image_registry", {
  id: id(),
  image_key: text("image_key").notNull().unique(),
  image_url: text("image_url").notNull(),
  alt_text: text("alt_text").notNull().default(""),
  version: integer("version").notNull().default(1),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const homepageContent = pgTable("homepage_content", {
  id: id(),
  section_name: text("section_name").notNull(),
  title: text("title").notNull().default(""),
  description: text("description").notNull().default(""),
  /** JSON object: features, cta_primary, cta_secondary, links, support_links, ... */
  content: jsonb("content").$type<Record<string, unknown>>().notNull().default({}),
  is_active: boolean("is_active").notNull().default(true),
  sort_order: integer("sort_order").notNull().default(0),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const siteBranding = pgTable("site_branding", {
  id: id(),
  setting_name: text("setting_name").notNull().unique(),
  setting_value: text("setting_value").notNull().default(""),
  is_active: boolean("is_active").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const notices = pgTable("notices", {
  id: id(),
  title: text("title").notNull(),
  body: text("body").notNull().default(""),
  /** info | warning | critical */
  severity: text("severity").notNull().default("info"),
  /** public | clients | all */
  audience: text("audience").notNull().default("all"),
  starts_at: timestamp("starts_at", { withTimezone: true }),
  ends_at: timestamp("ends_at", { withTimezone: true }),
  is_active: boolean("is_active").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

// ---- customers -------------------------------------------------------------------------

export const clients = pgTable(
  "clients",
  {
    id: id(),
    username: text("username").notNull().unique(),
    password_hash: text("password_hash").notNull(),
    full_name: text("full_name").notNull(),
    email: text("email").notNull().default(""),
    whatsapp: text("whatsapp").notNull().default(""),
    /** whatsapp | email */
    communication_method: text("communication_method").notNull().default("whatsapp"),
    marketing_opt_in: boolean("marketing_opt_in").notNull().default(false),
    marketing_opt_in_at: timestamp("marketing_opt_in_at", { withTimezone: true }),
    package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
    package_name: text("package_name").notNull().default(""),
    /** pending | trial | active | grace | expired | suspended: changed only by src/server/lib/lifecycle.ts */
    status: text("status").notNull().default("pending"),
    /** while suspended: the status the suspension interrupted */
    suspended_from: text("suspended_from"),
    subscription_start: timestamp("subscription_start", { withTimezone: true }),
    subscription_end: timestamp("subscription_end", { withTimezone: true }),
    device: text("device").notNull().default(""),
    internet_platform: text("internet_platform").notNull().default(""),
    line_username: text("line_username").notNull().default(""),
    line_password: text("line_password").notNull().default(""),
    line_portal_url: text("line_portal_url").notNull().default(""),
    /** the line's id on the IPTV panel, when provisioning made (or the owner linked) it */
    panel_line_id: text("panel_line_id"),
    /** the line's expiry as the panel reported it */
    line_expires_at: timestamp("line_expires_at", { withTimezone: true }),
    line_enabled: boolean("line_enabled").notNull().default(true),
    /** a line on the sandbox panel: a test line, not a real subscription */
    line_is_test: boolean("line_is_test").notNull().default(false),
    /** what the nightly sync found different on the panel ('' when it agrees) */
    line_sync_issue: text("line_sync_issue").notNull().default(""),
    /** m3u (an app's login) | mag | enigma2: a box's line is keyed on the panel by its MAC (issue 32) */
    line_type: text("line_type").notNull().default("m3u"),
    line_mac: text("line_mac").notNull().default(""),
    /** the client's details for their invoices (portal account page) */
    billing_company: text("billing_company").notNull().default(""),
    billing_address: text("billing_address").notNull().default(""),
    billing_vat_number: text("billing_vat_number").notNull().default(""),
    notes: text("notes").notNull().default(""),
    /**
     * Another client this one may be (a payment whose payer matched that client's number or
     * e-mail without proving it): the owner merges them or dismisses the flag (lib/identity.ts).
     */
    possible_duplicate_of: uuid("possible_duplicate_of"),
    /** the client this one was merged into: kept for the history, no longer a customer */
    merged_into: uuid("merged_into"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("clients_status_end_idx").on(t.status, t.subscription_end),
    // A WhatsApp number (stored as 27…) belongs to one client; a flagged possible duplicate
    // may share it until the owner merges or dismisses, and a merged row keeps its history.
    uniqueIndex("clients_whatsapp_unique")
      .on(t.whatsapp)
      .where(sql`whatsapp <> '' and possible_duplicate_of is null and merged_into is null`),
    index("clients_email_idx").on(sql`lower(${t.email})`),
  ],
);

export const leads = pgTable(
  "leads",
  {
    id: id(),
    /** order | interest | free-trial */
    form_type: text("form_type").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull().default(""),
    whatsapp: text("whatsapp").notNull().default(""),
    whatsapp_digits: text("whatsapp_digits").notNull().default(""),
    package_name: text("package_name").notNull().default(""),
    package_price: text("package_price").notNull().default(""),
    duration: text("duration").notNull().default(""),
    device: text("device").notNull().default(""),
    internet_platform: text("internet_platform").notNull().default(""),
    other_platform: text("other_platform").notNull().default(""),
    internet_speed: text("internet_speed").notNull().default(""),
    communication_method: text("communication_method").notNull().default("whatsapp"),
    /** `email` as the mailbox it delivers to (shared/contact.ts mailboxKey): what one trial per address compares */
    email_key: text("email_key").notNull().default(""),
    marketing_opt_in: boolean("marketing_opt_in").notNull().default(false),
    /** the whole submission as received, so nothing a customer typed is lost */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    /** new | contacted | converted | lost */
    status: text("status").notNull().default("new"),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    /** a client whose number or e-mail this lead gave, not proven to be them (never credited with its money) */
    possible_duplicate_of: uuid("possible_duplicate_of").references(() => clients.id, { onDelete: "set null" }),
    idempotency_key: text("idempotency_key").unique(),
    ip: text("ip").notNull().default(""),
    notes: text("notes").notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("leads_created_idx").on(t.created_at),
    index("leads_wa_idx").on(t.whatsapp_digits),
    // One free trial per WhatsApp number and per e-mail address, even under concurrent submissions.
    uniqueIndex("leads_one_trial_per_whatsapp").on(t.whatsapp_digits).where(sql`form_type = 'free-trial'`),
    // per mailbox, not per spelling: a.b+1@gmail.com is ab@gmail.com (issue 46)
    uniqueIndex("leads_one_trial_per_email").on(t.email_key).where(sql`form_type = 'free-trial'`),
  ],
);

export const capturedPayments = pgTable(
  "captured_payments",
  {
    id: id(),
    /** ikhokha | sandbox | payfast | ozow | yoco | eft | manual */
    provider: text("provider").notNull(),
    external_transaction_id: text("external_transaction_id").notNull().unique(),
    provider_reference: text("provider_reference"),
    /**
     * the provider's own id of the money movement (PayFast pf_payment_id, Ozow TransactionId, Yoco
     * payment id), set when it is captured: unique per provider, so a replayed notification never
     * captures a second payment
     */
    provider_payment_id: text("provider_payment_id"),
    amount: money("amount").notNull(),
    currency: text("currency").notNull().default("ZAR"),
    package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
    package_name: text("package_name").notNull().default(""),
    description: text("description").notNull().default(""),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    client_email: text("client_email").notNull().default(""),
    /** when the payer agreed that a paid plan starts at once (ECT Act s44 cooling-off waived) */
    immediate_start_consent_at: timestamp("immediate_start_consent_at", { withTimezone: true }),
    /** capturing this payment made the payer's client account (their portal login was sent) */
    client_created: boolean("client_created").notNull().default(false),
    /** pending | paid | failed | cancelled | refunded */
    status: text("status").notNull().default("pending"),
    paid_at: timestamp("paid_at", { withTimezone: true }),
    raw_payload: jsonb("raw_payload").$type<Record<string, unknown>>(),
    notes: text("notes").notNull().default(""),
    /** the coupon priced into `amount` (billing), and what it took off the package's price */
    coupon_id: uuid("coupon_id"),
    coupon_code: text("coupon_code").notNull().default(""),
    discount: money("discount").notNull().default(0),
    /** money given back so far (credit notes); status turns 'refunded' when it reaches `amount` */
    refunded_amount: money("refunded_amount").notNull().default(0),
    /** the buyer's details for the invoice, as given at the review step */
    buyer_company: text("buyer_company").notNull().default(""),
    buyer_address: text("buyer_address").notNull().default(""),
    buyer_vat_number: text("buyer_vat_number").notNull().default(""),
    /** the device the line is for: m3u (an app) | mag | enigma2, and the box's MAC (issue 32) */
    line_type: text("line_type").notNull().default("m3u"),
    line_mac: text("line_mac").notNull().default(""),
    /**
     * The payer chose "Renew automatically with this card" (issue 44): the consent sentence as
     * shown (amount, when, how to stop); null when they did not. The card's token arrives with the
     * provider's notification and is kept sealed on auto_renewals.
     */
    auto_renew_consent: text("auto_renew_consent"),
    /**
     * Paid from a suspended client's number without the code that proves the payer is them (issue
     * 46): nothing was set up (no account, no term, no line); the money waits for the owner to
     * refund it or reactivate this client (payments/held.ts)
     */
    held_for_client_id: uuid("held_for_client_id").references(() => clients.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("payments_created_idx").on(t.created_at),
    index("payments_client_idx").on(t.client_id),
    uniqueIndex("payments_provider_payment_unique").on(t.provider, t.provider_payment_id).where(sql`provider_payment_id is not null`),
  ],
);

export const contentRequests = pgTable("content_requests", {
  id: id(),
  client_id: uuid("client_id").references(() => clients.id, { onDelete: "cascade" }),
  /** channel | film | series | other */
  request_type: text("request_type").notNull().default("channel"),
  title: text("title").notNull(),
  details: text("details").notNull().default(""),
  /** new | in_progress | added | declined */
  status: text("status").notNull().default("new"),
  reply: text("reply").notNull().default(""),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

// ---- ours ------------------------------------------------------------------------------

export const admins = pgTable("admins", {
  id: id(),
  email: text("email").notNull().unique(),
  name: text("name").notNull().default(""),
  password_hash: text("password_hash").notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    token_hash: text("token_hash").notNull().unique(),
    /** admin | client */
    kind: text("kind").notNull(),
    admin_id: uuid("admin_id").references(() => admins.id, { onDelete: "cascade" }),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "cascade" }),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    created_at: createdAt(),
    last_seen_at: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_expires_idx").on(t.expires_at)],
);

export const passwordResetTokens = pgTable("password_reset_tokens", {
  id: id(),
  client_id: uuid("client_id")
    .notNull()
    .references(() => clients.id, { onDelete: "cascade" }),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  used_at: timestamp("used_at", { withTimezone: true }),
  created_at: createdAt(),
});

export const outbox = pgTable(
  "outbox",
  {
    id: id(),
    /** email | whatsapp */
    channel: text("channel").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull().default(""),
    body: text("body").notNull(),
    /** what caused it, e.g. 'order', 'receipt', 'instructions' */
    kind: text("kind").notNull().default(""),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    /**
     * pending | sending | sent | failed | owner (WhatsApp the owner sends by hand from the
     * dashboard) | rerouted (not sent on this channel: an e-mail copy carried it)
     */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    last_error: text("last_error"),
    sent_at: timestamp("sent_at", { withTimezone: true }),
    dedupe_key: text("dedupe_key").unique(),
    /** WhatsApp: the click-to-chat link (wa.me) with the body; null when the body holds a secret */
    wa_link: text("wa_link"),
    /** a reset link or password, AES-256-GCM encrypted; the body holds {{secret}} where it goes */
    secret_enc: text("secret_enc"),
    /** named values a WhatsApp template's positional parameters may use */
    template_vars: jsonb("template_vars").$type<Record<string, string>>().notNull().default({}),
    /** how it went: smtp | cloud-text | cloud-template:<name> | owner | e-mail copy, ... */
    sent_via: text("sent_via").notNull().default(""),
    /** why the outbox routed it as it did (no template, sent by e-mail instead, ...) */
    note: text("note").notNull().default(""),
    /** the Cloud API's message id (wamid…), which its delivery statuses refer to */
    wamid: text("wamid"),
    /** the Cloud API's last delivery status: sent | delivered | read | failed */
    delivery_status: text("delivery_status"),
    delivery_updated_at: timestamp("delivery_updated_at", { withTimezone: true }),
    /** a document e-mailed with it, rendered when sent: 'invoice:INV-000001' */
    attachment: text("attachment"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("outbox_due_idx").on(t.status, t.next_attempt_at),
    uniqueIndex("outbox_wamid_idx").on(t.wamid).where(sql`wamid is not null`),
    // the per-recipient cap counts a recipient's last hour (lib/rate-limit.ts, withinRecipientCap)
    // on every public order: without it each order read the whole outbox
    index("outbox_recipient_idx").on(sql`lower(trim(${t.recipient}))`, t.created_at),
    // the shop-wide daily cap on WhatsApp codes counts the day's code messages (lib/code-route.ts, whatsappCodesCapped)
    index("outbox_kind_created_idx").on(t.kind, t.created_at),
  ],
);

/**
 * The last message each WhatsApp number sent us: it opens that number's 24-hour window, in
 * which the Cloud API delivers free text; outside it only approved templates go through.
 */
export const whatsappWindows = pgTable("whatsapp_windows", {
  /** international digits, no '+': 27821234567 */
  number: text("number").primaryKey(),
  last_inbound_at: timestamp("last_inbound_at", { withTimezone: true }).notNull(),
  last_message_id: text("last_message_id").notNull().default(""),
  updated_at: updatedAt(),
});

/** Per message kind, the approved Cloud API template sent outside the 24-hour window (set in the dashboard). */
export const whatsappTemplates = pgTable("whatsapp_templates", {
  /** the outbox kind: 'receipt', 'reminder-7d', 'welcome', ... */
  kind: text("kind").primaryKey(),
  template_name: text("template_name").notNull(),
  language_code: text("language_code").notNull().default("en"),
  /** the variable behind each positional body parameter, in order: ['name', 'days', ...] */
  params: jsonb("params").$type<string[]>().notNull().default([]),
  enabled: boolean("enabled").notNull().default(true),
  // Templates the dashboard submits to Meta (modules/whatsapp/templates.ts); all empty for one set by hand.
  /** AUTHENTICATION or UTILITY, as submitted */
  category: text("category").notNull().default(""),
  /** the owner's words with {{named}} variables, turned into {{1}}, {{2}} when submitted ('' for authentication: Meta's fixed text) */
  body_text: text("body_text").notNull().default(""),
  /** Meta's template id; set once Meta has it (created, or found under our name) */
  meta_id: text("meta_id"),
  /** Meta's review state as it answered it (PENDING, APPROVED, REJECTED, PAUSED, DISABLED, ...); null until submitted */
  meta_status: text("meta_status"),
  rejected_reason: text("rejected_reason"),
  /** Meta's own message when it refused the create */
  meta_error: text("meta_error"),
  submitted_at: timestamp("submitted_at", { withTimezone: true }),
  /** when Meta's list was last read for it */
  checked_at: timestamp("checked_at", { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const auditLog = pgTable("audit_log", {
  id: id(),
  admin_id: uuid("admin_id").references(() => admins.id, { onDelete: "set null" }),
  admin_email: text("admin_email").notNull().default(""),
  action: text("action").notNull(),
  resource: text("resource").notNull(),
  resource_id: text("resource_id"),
  before: jsonb("before"),
  after: jsonb("after"),
  created_at: createdAt(),
});

export const systemComponents = pgTable("system_components", {
  id: id(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** operational | degraded | maintenance | down */
  status: text("status").notNull().default("operational"),
  /** set by an admin: the monitor does not overwrite a component under maintenance */
  maintenance: boolean("maintenance").notNull().default(false),
  message: text("message").notNull().default(""),
  sort_order: integer("sort_order").notNull().default(0),
  last_checked_at: timestamp("last_checked_at", { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const statusChecks = pgTable(
  "status_checks",
  {
    id: id(),
    component_id: uuid("component_id")
      .notNull()
      .references(() => systemComponents.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    latency_ms: integer("latency_ms"),
    message: text("message").notNull().default(""),
    created_at: createdAt(),
  },
  (t) => [index("status_checks_component_time_idx").on(t.component_id, t.created_at)],
);

export const incidents = pgTable("incidents", {
  id: id(),
  title: text("title").notNull(),
  body: text("body").notNull().default(""),
  /** minor | major | critical | maintenance */
  impact: text("impact").notNull().default("minor"),
  /** investigating | identified | monitoring | resolved */
  status: text("status").notNull().default("investigating"),
  component_keys: jsonb("component_keys").$type<string[]>().notNull().default([]),
  started_at: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  resolved_at: timestamp("resolved_at", { withTimezone: true }),
  // Scheduled maintenance (issue 13 item 5) is a row of this table too, so one change-feed path
  // notifies subscribers of both: kind 'maintenance', started_at its planned start, ends_at its
  // planned end; status scheduled | in_progress | completed | cancelled (resolved_at set by the last two).
  /** incident | maintenance */
  kind: text("kind").notNull().default("incident"),
  ends_at: timestamp("ends_at", { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const kbArticles = pgTable("kb_articles", {
  id: id(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  category: text("category").notNull().default("General"),
  summary: text("summary").notNull().default(""),
  body: text("body").notNull(),
  is_published: boolean("is_published").notNull().default(true),
  sort_order: integer("sort_order").notNull().default(0),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const releases = pgTable("releases", {
  id: id(),
  version: text("version").notNull(),
  title: text("title").notNull(),
  body: text("body").notNull().default(""),
  released_on: date("released_on", { mode: "string" }).notNull(),
  is_published: boolean("is_published").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const trialBlackoutDays = pgTable("trial_blackout_days", {
  id: id(),
  /** a calendar day in Africa/Johannesburg time */
  day: date("day", { mode: "string" }).notNull().unique(),
  reason: text("reason").notNull().default(""),
  created_at: createdAt(),
});

/** rate-limit counters shared between processes (fixed one-minute windows) */
/**
 * One-time codes that prove a person holds a contact (lib/verification.ts): six digits, kept
 * only as a keyed hash, valid ten minutes, used once, void after five wrong tries.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: id(),
    /** contact-change | payment-identify */
    purpose: text("purpose").notNull(),
    /** email | whatsapp: where the code was sent */
    channel: text("channel").notNull(),
    /** the address or 27… number it was sent to */
    recipient: text("recipient").notNull(),
    /** the client the code speaks for */
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "cascade" }),
    /** or the lead it speaks for, when there is no client yet (an instant free trial) */
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    /** who asked for it ('client:<id>', 'ip:<address>'), for the per-requester limit */
    requester: text("requester").notNull(),
    /** what confirming it does (the new contact of a contact change) */
    payload: jsonb("payload").$type<Record<string, string>>().notNull().default({}),
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index("verification_recipient_idx").on(t.recipient, t.created_at),
    index("verification_requester_idx").on(t.requester, t.created_at),
    index("verification_client_idx").on(t.client_id, t.purpose, t.created_at),
    index("verification_lead_idx").on(t.lead_id, t.purpose, t.created_at),
  ],
);

export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  window_start: timestamp("window_start", { withTimezone: true }).notNull().default(sql`now()`),
  /** sign-in limits (lib/rate-limit.ts `reserve`): when each attempt of the last minute was made, a sliding window */
  hits: timestamp("hits", { withTimezone: true }).array().notNull().default(sql`'{}'`),
});

/** client reminder messages already sent (7 days, 1 day, on expiry), so each goes once */
export const reminderLog = pgTable(
  "reminder_log",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    threshold: text("threshold").notNull(),
    subscription_end: timestamp("subscription_end", { withTimezone: true }).notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex("reminder_once_idx").on(t.client_id, t.threshold, t.subscription_end)],
);

/**
 * Every change of a client's status or term, written by the lifecycle module in the same
 * transaction as the change. cause_key is unique: the same cause (one payment, one term's end,
 * one admin action) changes a client once, however often a callback or job is retried.
 */
export const clientLifecycleEvents = pgTable(
  "client_lifecycle_events",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    /** payment-captured | trial-started | term-ended | grace-ended | admin-suspend | admin-reactivate | complimentary-grant */
    cause: text("cause").notNull(),
    cause_key: text("cause_key").notNull().unique(),
    reason: text("reason").notNull().default(""),
    /** an admin's e-mail, 'payment <ref>', 'scheduled job' */
    actor: text("actor").notNull().default(""),
    admin_id: uuid("admin_id").references(() => admins.id, { onDelete: "set null" }),
    status_before: text("status_before"),
    status_after: text("status_after").notNull(),
    end_before: timestamp("end_before", { withTimezone: true }),
    end_after: timestamp("end_after", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index("lifecycle_client_idx").on(t.client_id, t.created_at)],
);

/**
 * Work for the IPTV panel, one row per cause (cause_key unique: a payment, a trial, a
 * lifecycle change), worked like the outbox: claimed with FOR UPDATE SKIP LOCKED, retried with
 * backoff, one at a time per client. In manual mode a step waits as a task for the owner.
 */
export const provisioningJobs = pgTable(
  "provisioning_jobs",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    /** create_line | extend_line | enable_line | disable_line */
    action: text("action").notNull(),
    cause_key: text("cause_key").notNull().unique(),
    /** our package (for the mapping and the owner's task), and whether it is a trial line */
    package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
    package_name: text("package_name").notNull().default(""),
    trial: boolean("trial").notNull().default(false),
    /** pending | running | done | failed | task */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** the panel's STATUS_* word (or NETWORK, TIMEOUT, BAD_ANSWER) of the last failure */
    error_status: text("error_status").notNull().default(""),
    last_error: text("last_error").notNull().default(""),
    /** the panel's raw answer to the last attempt, secrets masked */
    panel_answer: text("panel_answer").notNull().default(""),
    /** manual mode: what the owner is asked to do */
    instruction: text("instruction").notNull().default(""),
    done_at: timestamp("done_at", { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("provisioning_due_idx").on(t.status, t.next_attempt_at), index("provisioning_client_idx").on(t.client_id, t.created_at)],
);

/** Which panel package each of our packages buys (set in the dashboard). */
export const panelPackageMap = pgTable("panel_package_map", {
  package_id: uuid("package_id")
    .primaryKey()
    .references(() => packages.id, { onDelete: "cascade" }),
  panel_package_id: text("panel_package_id").notNull(),
  /** the panel package's bouquets this package includes (bouquets_selected[]); empty: all of them (issue 32 item 3) */
  bouquets: jsonb("bouquets").$type<string[]>().notNull().default([]),
  updated_at: updatedAt(),
});

/** The sandbox panel's own lines (what a real panel would hold): test lines with generated logins. */
export const sandboxPanelLines = pgTable("sandbox_panel_lines", {
  id: id(),
  username: text("username").notNull().unique(),
  password: text("password").notNull(),
  panel_package_id: text("panel_package_id").notNull(),
  trial: boolean("trial").notNull().default(false),
  exp_date: timestamp("exp_date", { withTimezone: true }),
  enabled: boolean("enabled").notNull().default(true),
  contact: text("contact").notNull().default(""),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * A difference the panel sync found between a client and their line on the panel (issue 32
 * item 5): kind expiry | enabled | max_connections | missing_on_panel (our line id is not on
 * the panel) | missing_here (a panel line no client of ours has), with both sides' values as
 * text (an ISO date, 'true'/'false', a number). Open while it lasts (one open row per line and
 * kind); 'fixed' once the owner pushed ours or accepted the panel's (direction), 'resolved'
 * when a later sync found the two agreeing by themselves.
 */
export const panelDrift = pgTable(
  "panel_drift",
  {
    id: id(),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "cascade" }),
    panel_line_id: text("panel_line_id").notNull(),
    kind: text("kind").notNull(),
    ours: text("ours").notNull().default(""),
    panel: text("panel").notNull().default(""),
    /** open | fixed | resolved */
    status: text("status").notNull().default("open"),
    /** '' | push | accept */
    direction: text("direction").notNull().default(""),
    fixed_by: text("fixed_by").notNull().default(""),
    fixed_at: timestamp("fixed_at", { withTimezone: true }),
    found_at: timestamp("found_at", { withTimezone: true }).notNull().defaultNow(),
    /** the last sync that still found it */
    seen_at: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("panel_drift_open_idx").on(t.panel_line_id, t.kind).where(sql`status = 'open'`),
    index("panel_drift_status_idx").on(t.status, t.found_at),
  ],
);

/**
 * Every panel call that costs credits (issue 32 item 6): the reseller's balance read from
 * user_info just before and just after it, the package's price, and how the call ended
 * (done | answer-lost | refused). One row per job attempt (cause_key + attempt unique), so the
 * sum of (credits_before - credits_after) is what the panel took, to set against its balance.
 */
export const panelCreditLedger = pgTable(
  "panel_credit_ledger",
  {
    id: id(),
    job_id: uuid("job_id").references(() => provisioningJobs.id, { onDelete: "set null" }),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    /** create_line | extend_line */
    action: text("action").notNull(),
    cause_key: text("cause_key").notNull(),
    attempt: integer("attempt").notNull(),
    panel_package_id: text("panel_package_id").notNull().default(""),
    /** what the package costs, as the panel's package list says; null when the list could not be read or lacks the package */
    cost: integer("cost"),
    /** the panel's balance just before and after the call; null when that read failed (see note) */
    credits_before: integer("credits_before"),
    credits_after: integer("credits_after"),
    outcome: text("outcome").notNull(),
    /** what could not be read, and why ('' when everything was) */
    note: text("note").notNull().default(""),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("panel_credit_ledger_once_idx").on(t.cause_key, t.attempt),
    index("panel_credit_ledger_created_idx").on(t.created_at),
  ],
);

/**
 * A client's change of their box's MAC address from the portal (issue 32 item 2): one row per
 * request (request_key: the client and the Idempotency-Key, unique), counted for the cooldown and
 * the monthly limit; the panel's edit is a provisioning job (change_mac) keyed on the row.
 */
export const lineMacChanges = pgTable(
  "line_mac_changes",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    request_key: text("request_key").notNull().unique(),
    old_mac: text("old_mac").notNull(),
    new_mac: text("new_mac").notNull(),
    /** pending | done | failed (its change_mac job failed; an owner's Retry that works makes it done) */
    status: text("status").notNull().default("pending"),
    created_at: createdAt(),
    done_at: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [index("line_mac_changes_client_idx").on(t.client_id, t.created_at)],
);

/** The local sandbox payment provider's own ledger (what a real provider would hold). */
export const sandboxPaylinks = pgTable("sandbox_paylinks", {
  id: id(),
  external_transaction_id: text("external_transaction_id").notNull().unique(),
  amount_cents: integer("amount_cents").notNull(),
  description: text("description").notNull().default(""),
  /** pending | SUCCESS | FAILURE | CANCELLED */
  status: text("status").notNull().default("pending"),
  callback_url: text("callback_url").notNull(),
  success_url: text("success_url").notNull(),
  failure_url: text("failure_url").notNull(),
  cancel_url: text("cancel_url").notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** Tables whose row changes are announced on the change feed (spec §7 plus public reads). */
export const WATCHED_TABLES = [
  "clients",
  "captured_payments",
  "content_requests",
  "packages",
  "leads",
  "notices",
  "image_registry",
  "homepage_content",
  "site_branding",
  "downloads",
  "pricing_specials",
  "banners",
  "site_settings",
  "testimonials_managed",
  "system_components",
  "status_checks",
  "incidents",
  "kb_articles",
  "releases",
  "trial_blackout_days",
  "provisioning_jobs",
  "whatsapp_messages",
  // outbound messages and their delivery states, for the inbox's open thread (migration 0015)
  "outbox",
] as const;
export type WatchedTable = (typeof WATCHED_TABLES)[number];

/** Streamed on the change feed to admin sessions only (each one a watched table). */
export const ADMIN_ONLY_TABLES: readonly WatchedTable[] = ADMIN_ONLY;

// ---- status subscriptions (issue 13) ------------------------------------------------------------

/**
 * People who asked for status updates by e-mail: double opt-in (confirmed_at set by the mailed
 * link; the confirm token kept only as a hash), and a one-click unsubscribe link in every
 * message (its own random token).
 */
export const statusSubscribers = pgTable(
  "status_subscribers",
  {
    id: id(),
    /** null for a signed-in client's own subscription (issue 13 item 5): they get it on their channel */
    email: text("email").unique(),
    /** a client who subscribed from the portal: no double opt-in (they are known), one row per client */
    client_id: uuid("client_id")
      .unique()
      .references(() => clients.id, { onDelete: "cascade" }),
    confirm_token_hash: text("confirm_token_hash"),
    unsubscribe_token: text("unsubscribe_token").notNull().unique(),
    confirmed_at: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribed_at: timestamp("unsubscribed_at", { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex("status_subscribers_confirm_idx").on(t.confirm_token_hash)],
);

// ---- billing documents (issue 18; docs/decisions/007-billing-documents.md) ----------------------

/** One row per numbered series ('invoice', 'credit_note'): the next number, taken under the row's lock. */
export const documentSequences = pgTable("document_sequences", {
  name: text("name").primaryKey(),
  next: integer("next").notNull().default(1),
  updated_at: updatedAt(),
});

/** Who a document is from or to, as it stood when it was issued. */
export interface DocumentParty {
  name: string;
  company?: string;
  address?: string;
  vat_number?: string;
  email?: string;
  registration_number?: string;
}

/** One invoice per captured payment, frozen when issued (amounts in integer cents). */
export const invoices = pgTable(
  "invoices",
  {
    id: id(),
    number: text("number").notNull().unique(),
    payment_id: uuid("payment_id")
      .notNull()
      .unique()
      .references(() => capturedPayments.id, { onDelete: "restrict" }),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    /** tax-full | tax-abridged | invoice */
    kind: text("kind").notNull(),
    issued_at: timestamp("issued_at", { withTimezone: true }).notNull(),
    seller: jsonb("seller").$type<DocumentParty>().notNull(),
    buyer: jsonb("buyer").$type<DocumentParty>().notNull(),
    description: text("description").notNull(),
    term_months: integer("term_months").notNull().default(0),
    list_cents: integer("list_cents").notNull(),
    discount_cents: integer("discount_cents").notNull().default(0),
    coupon_code: text("coupon_code").notNull().default(""),
    excl_cents: integer("excl_cents").notNull(),
    vat_cents: integer("vat_cents").notNull(),
    incl_cents: integer("incl_cents").notNull(),
    vat_rate: text("vat_rate").notNull(),
    reference: text("reference").notNull(),
    created_at: createdAt(),
  },
  (t) => [index("invoices_issued_idx").on(t.issued_at), index("invoices_client_idx").on(t.client_id)],
);

/** Money given back against an invoice, from its own series. */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: id(),
    number: text("number").notNull().unique(),
    invoice_id: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    payment_id: uuid("payment_id")
      .notNull()
      .references(() => capturedPayments.id, { onDelete: "restrict" }),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    issued_at: timestamp("issued_at", { withTimezone: true }).notNull(),
    reason: text("reason").notNull(),
    excl_cents: integer("excl_cents").notNull(),
    vat_cents: integer("vat_cents").notNull(),
    incl_cents: integer("incl_cents").notNull(),
    /** provider (the card provider's refund API) | manual (paid back outside the product) */
    method: text("method").notNull(),
    provider_reference: text("provider_reference"),
    /** what the refund did to the term: kept | ended | shortened by N days */
    term_change: text("term_change").notNull().default("kept"),
    admin_id: uuid("admin_id"),
    created_at: createdAt(),
  },
  (t) => [index("credit_notes_issued_idx").on(t.issued_at)],
);

/**
 * One refund sent to a provider's refund API (PayFast, Ozow, Yoco; docs/payment-providers.md,
 * "Refunds"). Written, with the amount held on the payment, before anything is sent; its id is our
 * refund id (Yoco's Idempotency-Key). `pending` while the provider's answer is awaited or was lost,
 * `made` once the provider took it (the credit note follows), `done` with the credit note, `failed`
 * when it was refused or is known not to have happened (the hold released). One open attempt per
 * payment, so a lost answer is looked up at the provider before any second refund is sent.
 */
export const refundAttempts = pgTable(
  "refund_attempts",
  {
    id: id(),
    payment_id: uuid("payment_id")
      .notNull()
      .references(() => capturedPayments.id, { onDelete: "restrict" }),
    provider: text("provider").notNull(),
    amount_cents: integer("amount_cents").notNull(),
    /** pending | made | done | failed */
    state: text("state").$type<"pending" | "made" | "done" | "failed">().notNull().default("pending"),
    /** what the provider said before it was sent (PayFast: the amount it had left to refund) */
    mark: text("mark"),
    /** set just before the refund is sent: null means it never left */
    sent_at: timestamp("sent_at", { withTimezone: true }),
    provider_reference: text("provider_reference"),
    /** card | payment-source | bank-account: how the money goes back */
    route: text("route"),
    /** the owner's request (reason, term, days), carried to the credit note when a lost answer turns out made */
    request: jsonb("request").$type<{ reason: string; term?: string; days?: number }>().notNull(),
    admin_id: uuid("admin_id"),
    credit_note_id: uuid("credit_note_id"),
    /** why it failed, or what is awaited */
    detail: text("detail").notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex("refund_attempts_one_open").on(t.payment_id).where(sql`state in ('pending', 'made')`)],
);

export const coupons = pgTable("coupons", {
  id: id(),
  /** upper-case, as customers type it (compared case-insensitively) */
  code: text("code").notNull().unique(),
  kind: text("kind").$type<"percent" | "fixed">().notNull(),
  percent_off: integer("percent_off"),
  amount_off: money("amount_off"),
  package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
  expires_at: timestamp("expires_at", { withTimezone: true }),
  max_uses: integer("max_uses"),
  /** captured payments that used it, counted once each (coupon_redemptions) */
  uses: integer("uses").notNull().default(0),
  is_active: boolean("is_active").notNull().default(true),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** A coupon used by a captured payment: one row per payment, one per customer per coupon. */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    id: id(),
    coupon_id: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    payment_id: uuid("payment_id")
      .notNull()
      .unique()
      .references(() => capturedPayments.id, { onDelete: "cascade" }),
    /** who used it: client:<id> or wa:<digits> */
    customer_key: text("customer_key").notNull(),
    created_at: createdAt(),
  },
  (t) => [index("coupon_redemptions_customer_idx").on(t.coupon_id, t.customer_key)],
);

// ---- message templates (issue 13): the owner's edits; the defaults live in shared/message-templates.ts ----
/** One row per kind the owner changed (welcome, receipt, reminder-7d, ...); deleting it goes back to the default. */
export const messageTemplates = pgTable("message_templates", {
  kind: text("kind").primaryKey(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  updated_at: updatedAt(),
  /** the admin's e-mail address */
  updated_by: text("updated_by").notNull().default(""),
});
// ---- end message templates ----

// ---- WhatsApp inbox (issue 26): the conversation with each number ----
/**
 * Every inbound WhatsApp message (and the owner's replies from the inbox), linked to the client
 * or lead with that number. Kept for the whatsapp_retention_months setting (POPIA), then purged
 * by jobs/whatsapp-retention.ts. Messages the outbox sent stay on their outbox rows; the thread
 * shows both (modules/whatsapp/inbox.ts).
 */
export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    id: id(),
    /** international digits, no '+': 27821234567 */
    number: text("number").notNull(),
    /** in (the customer wrote) | out (a reply from the inbox) */
    direction: text("direction").notNull(),
    /** the Cloud API's message id; null for a reply the owner sent by hand (wa.me) */
    wamid: text("wamid"),
    /** text | button | interactive | image | video | audio | document | sticker | location | reaction | ... */
    type: text("type").notNull().default("text"),
    /** the text, a button's title or a media caption ('' when none) */
    text: text("text").notNull().default(""),
    /** media: the Cloud API's media id and type (the file itself is not fetched) */
    media_id: text("media_id"),
    media_mime: text("media_mime"),
    /** the sender's WhatsApp profile name, as the webhook gave it */
    profile_name: text("profile_name").notNull().default(""),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    lead_id: uuid("lead_id").references(() => leads.id, { onDelete: "set null" }),
    /** out: sending | sent | failed | owner (sent by hand through its wa.me link) */
    status: text("status"),
    /** out: the Cloud API's last delivery status: sent | delivered | read | failed */
    delivery_status: text("delivery_status"),
    delivery_updated_at: timestamp("delivery_updated_at", { withTimezone: true }),
    error: text("error"),
    /** out: the admin who replied */
    admin_id: uuid("admin_id").references(() => admins.id, { onDelete: "set null" }),
    /** in: when an admin opened the thread (null: unread) */
    read_at: timestamp("read_at", { withTimezone: true }),
    /** when it was written (Meta's timestamp for inbound) */
    sent_at: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("whatsapp_messages_wamid_idx").on(t.wamid).where(sql`wamid is not null`),
    index("whatsapp_messages_number_idx").on(t.number, t.sent_at),
    index("whatsapp_messages_sent_idx").on(t.sent_at),
    index("whatsapp_messages_unread_idx").on(t.number).where(sql`direction = 'in' and read_at is null`),
  ],
);
// ---- end WhatsApp inbox ----

// ---- instant free trials (issue 27) ----
/**
 * A free trial asked for in instant mode (modules/trials): the lead it came with, the network it
 * came from (for the per-network limit), where its code went, and — once the code was right —
 * the client it started. The client's line is the panel's answer, read from the client.
 */
export const trials = pgTable(
  "trials",
  {
    id: id(),
    lead_id: uuid("lead_id")
      .notNull()
      .unique()
      .references(() => leads.id, { onDelete: "cascade" }),
    client_id: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    /** the requester's network: an IPv4 /24 ('198.51.100.0/24') or an IPv6 /48 */
    network: text("network").notNull(),
    /** email | whatsapp, and the address or 27… number the code went to */
    channel: text("channel").notNull(),
    recipient: text("recipient").notNull(),
    /** sha256 of the token in the cookie of the browser that entered the code: it alone sees the line's password */
    viewer_hash: text("viewer_hash"),
    started_at: timestamp("started_at", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index("trials_network_idx").on(t.network, t.created_at), index("trials_started_idx").on(t.started_at)],
);

/** Each free trial refused by a limit, counted for the owner (reason: network | daily-cap | disposable-email | ...). */
export const trialRefusals = pgTable(
  "trial_refusals",
  {
    id: id(),
    reason: text("reason").notNull(),
    network: text("network").notNull().default(""),
    created_at: createdAt(),
  },
  (t) => [index("trial_refusals_created_idx").on(t.created_at)],
);
// ---- end instant free trials ----

// ---- one-tap pay links (issue 27 item 4) ----
/**
 * The payment a pay link started, per client, package and way to pay (modules/pay-links): a tap
 * claims the row while it starts the payment through the renewal path, and later taps (a double
 * tap, a retry, another process) answer the same pending payment instead of making another.
 */
export const payLinkStarts = pgTable("pay_link_starts", {
  /** `<client>:<package>:<method>` */
  key: text("key").primaryKey(),
  client_id: uuid("client_id")
    .notNull()
    .references(() => clients.id, { onDelete: "cascade" }),
  /** the tap that holds the row while it starts the payment */
  claim: uuid("claim").notNull(),
  /** starting | ready */
  state: text("state").notNull().default("starting"),
  /** our reference of the payment it started (captured_payments.external_transaction_id) */
  payment_ref: text("payment_ref"),
  /** what the tap answered (where to send the browser), given again while that payment is pending */
  answer: jsonb("answer").$type<Record<string, unknown>>(),
  updated_at: updatedAt(),
});

// ---- sub-resellers (issue 45) ----------------------------------------------------------------

/**
 * A sub-reseller (a "partner"): someone who sells to their own circle on a reseller account the
 * owner made for them on the panel (create_user), buying credits from the owner. The row comes
 * first, under its unique username, so a retried or replayed create finds it and looks the
 * username up on the panel before sending create_user again: one panel account per row.
 * Their password is theirs alone (set through a link); their credits live on the panel.
 */
export const resellers = pgTable("resellers", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  /** stored as 27… (toStoredWhatsApp), '' when none */
  whatsapp: text("whatsapp").notNull().default(""),
  /** their username on the panel and for signing in to /partner */
  username: text("username").notNull().unique(),
  /** the reseller's id on the panel once create_user is done (or the lookup found it); null until then */
  panel_user_id: text("panel_user_id"),
  /** null until they choose one through the set-password link */
  password_hash: text("password_hash"),
  /** active | suspended (their sign-in stops; their lines keep running) */
  status: text("status").notNull().default("active"),
  /** the Idempotency-Key of the request that made the row: a replay of it answers the same reseller */
  create_key: text("create_key").unique(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** A partner's set-password link (like a client's password_reset_tokens): only the SHA-256 kept, used once. */
export const resellerPasswordTokens = pgTable("reseller_password_tokens", {
  id: id(),
  reseller_id: uuid("reseller_id")
    .notNull()
    .references(() => resellers.id, { onDelete: "cascade" }),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  used_at: timestamp("used_at", { withTimezone: true }),
  created_at: createdAt(),
});

/** Partner sessions: a kind of their own beside admin and client, in their own cookie (auth/partner-sessions.ts). */
export const resellerSessions = pgTable(
  "reseller_sessions",
  {
    id: id(),
    token_hash: text("token_hash").notNull().unique(),
    reseller_id: uuid("reseller_id")
      .notNull()
      .references(() => resellers.id, { onDelete: "cascade" }),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    created_at: createdAt(),
    last_seen_at: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reseller_sessions_reseller_idx").on(t.reseller_id)],
);

/**
 * The credit ledger per sub-reseller: one row per transfer (request_key unique: the reseller and
 * the request's Idempotency-Key, so a replay or a second request at the same moment is the same
 * transfer), carried out by one adjust_credits. Balances before and after are read from the panel
 * (null where the panel has none to give); `credits` is what moved to the partner (negative: back
 * to the owner). Status: pending (claimed, being sent) | done | refused (nothing moved) |
 * failed (the panel could not be reached and nothing moved; the same key may try again) |
 * unknown (sent, the answer lost and the balance unreadable: never resent by itself).
 */
export const resellerCreditTransfers = pgTable(
  "reseller_credit_transfers",
  {
    id: id(),
    reseller_id: uuid("reseller_id")
      .notNull()
      .references(() => resellers.id, { onDelete: "cascade" }),
    request_key: text("request_key").notNull().unique(),
    credits: integer("credits").notNull(),
    note: text("note").notNull().default(""),
    /**
     * owner-give | owner-take | line:<partner line id> | line-refund:<partner line id>, and for a
     * renewal line:<line id>:renew:<renewal id> | line-refund:<line id>:renew:<renewal id>
     */
    cause: text("cause").notNull(),
    /** who: the admin's e-mail, or partner:<username> */
    actor: text("actor").notNull(),
    status: text("status").notNull().default("pending"),
    partner_before: integer("partner_before"),
    partner_after: integer("partner_after"),
    owner_before: integer("owner_before"),
    owner_after: integer("owner_after"),
    error: text("error").notNull().default(""),
    created_at: createdAt(),
    done_at: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [index("reseller_credit_transfers_reseller_idx").on(t.reseller_id, t.created_at)],
);

/** The sandbox panel's sub-resellers (what a real panel's users table would hold), beside its lines. */
export const sandboxPanelUsers = pgTable("sandbox_panel_users", {
  id: id(),
  username: text("username").notNull().unique(),
  password: text("password").notNull(),
  email: text("email").notNull().default(""),
  member_group_id: text("member_group_id").notNull().default(""),
  notes: text("notes").notNull().default(""),
  credits: integer("credits").notNull().default(0),
  enabled: boolean("enabled").notNull().default(true),
  created_at: createdAt(),
});

/**
 * A line a partner sold from their portal (issue 45 item 3): made on the panel with member_id =
 * the partner (the line is theirs; the owner's reseller pays, and takes the cost back from the
 * partner first, one transfer keyed on this row). request_key (the partner and the
 * Idempotency-Key) unique, so a replay answers the same line. Status: pending | done | failed.
 */
export const resellerLines = pgTable(
  "reseller_lines",
  {
    id: id(),
    reseller_id: uuid("reseller_id")
      .notNull()
      .references(() => resellers.id, { onDelete: "cascade" }),
    request_key: text("request_key").notNull().unique(),
    name: text("name").notNull(),
    whatsapp: text("whatsapp").notNull().default(""),
    email: text("email").notNull().default(""),
    package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
    package_name: text("package_name").notNull().default(""),
    panel_package_id: text("panel_package_id").notNull().default(""),
    cost: integer("cost").notNull().default(0),
    status: text("status").notNull().default("pending"),
    panel_line_id: text("panel_line_id"),
    line_username: text("line_username").notNull().default(""),
    line_password: text("line_password").notNull().default(""),
    expires_at: timestamp("expires_at", { withTimezone: true }),
    /** the partner switched the line off on the panel (null: on); it keeps its status and login */
    switched_off_at: timestamp("switched_off_at", { withTimezone: true }),
    error: text("error").notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("reseller_lines_reseller_idx").on(t.reseller_id, t.created_at)],
);

/**
 * A client's request to correct or erase what we hold of them (POPIA s24; issue 46 item 7;
 * modules/data-requests). Due DATA_REQUEST_DAYS (30, PAIA's yardstick) after it was made; the
 * owner corrects through the normal client edit, refuses with a reason the client is told, or
 * erases: the person is de-identified and the tax records (invoices, credit notes, payments) kept.
 * One open request per client and kind (the partial unique index), so a second is a 409.
 */
export const dataRequests = pgTable(
  "data_requests",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    /** correction | erasure */
    kind: text("kind").notNull(),
    /** correction: what is wrong; erasure: why, if they said */
    details: text("details").notNull().default(""),
    /** correction: what it should say */
    correction: text("correction").notNull().default(""),
    /** open | corrected | refused | erased */
    status: text("status").notNull().default("open"),
    due_at: timestamp("due_at", { withTimezone: true }).notNull(),
    /** the owner's words the client was told: the reason for a refusal, or what was done */
    outcome: text("outcome").notNull().default(""),
    resolved_at: timestamp("resolved_at", { withTimezone: true }),
    resolved_by: uuid("resolved_by").references(() => admins.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("data_requests_one_open").on(t.client_id, t.kind).where(sql`status = 'open'`),
    index("data_requests_status_due_idx").on(t.status, t.due_at),
  ],
);

/**
 * A partner's purchase of credits from the shop (issue 45 item 4): priced from the owner's
 * partner_credit_pricing setting when it was made, paid through one captured_payments row
 * (payment_id unique: the payment is this order's, and settling it marks the order paid, in the
 * capture's transaction). Once paid, one transfer moves the credits, keyed `order:<id>` in the
 * partner's credit ledger, so a replayed notification or a second process moves them once.
 * Status: pending (not paid) | paid (to deliver) | delivered | refused (the owner had too few
 * credits: nothing moved) | failed (the panel could not be reached: tried again) | unknown.
 */
export const partnerCreditOrders = pgTable(
  "partner_credit_orders",
  {
    id: id(),
    reseller_id: uuid("reseller_id")
      .notNull()
      .references(() => resellers.id, { onDelete: "cascade" }),
    payment_id: uuid("payment_id")
      .notNull()
      .unique()
      .references(() => capturedPayments.id, { onDelete: "cascade" }),
    credits: integer("credits").notNull(),
    /** rand per credit at the tier the order fell in, and the total charged */
    unit_price: money("unit_price").notNull(),
    amount: money("amount").notNull(),
    status: text("status").notNull().default("pending"),
    /** 0, and one more each time the owner sends a refused order again (its ledger key order:<id>:<attempt>) */
    attempt: integer("attempt").notNull().default(0),
    transfer_id: uuid("transfer_id"),
    error: text("error").notNull().default(""),
    created_at: createdAt(),
    paid_at: timestamp("paid_at", { withTimezone: true }),
    delivered_at: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("partner_credit_orders_reseller_idx").on(t.reseller_id, t.created_at),
    index("partner_credit_orders_status_idx").on(t.status),
  ],
);

/**
 * A client's automatic renewal (issue 44): a saved card the shop charges itself the day before the
 * term ends. One row per client. token_sealed is the provider's card token (PayFast's ITN `token`)
 * sealed with lib/secret-box.ts: never logged, never returned by an API. The consent is the
 * sentence the payer agreed to, when, and with which payment.
 */
export const autoRenewals = pgTable("auto_renewals", {
  client_id: uuid("client_id")
    .primaryKey()
    .references(() => clients.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  /** payfast (paystack later) */
  provider: text("provider").notNull(),
  token_sealed: text("token_sealed"),
  /** "Visa ending 4242", when the provider says; else '' */
  card_label: text("card_label").notNull().default(""),
  consent_text: text("consent_text").notNull().default(""),
  consent_at: timestamp("consent_at", { withTimezone: true }),
  consent_payment_id: uuid("consent_payment_id").references(() => capturedPayments.id, { onDelete: "set null" }),
  /** why it was turned off (the portal, a refund, a suspension), for the owner */
  disabled_reason: text("disabled_reason").notNull().default(""),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * One renewal of one term by a saved card: unique (client, term_end), so a term's notice and charge
 * happen at most once whatever process or retry runs the job. The row is claimed (status moved
 * with attempts + 1) in a transaction before the provider is asked.
 * Status: pending (noticed, not charged) | sent (asked, answer awaited) | paid | declined |
 * unknown (the provider's answer was lost: looked up before anything is sent again) | cancelled.
 */
export const renewalCharges = pgTable(
  "renewal_charges",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    term_end: timestamp("term_end", { withTimezone: true }).notNull(),
    provider: text("provider").notNull(),
    amount_cents: integer("amount_cents").notNull(),
    package_id: uuid("package_id").references(() => packages.id, { onDelete: "set null" }),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }),
    notice_sent_at: timestamp("notice_sent_at", { withTimezone: true }),
    /** the payment row this charge settles through (its reference is the charge's m_payment_id) */
    payment_id: uuid("payment_id").references(() => capturedPayments.id, { onDelete: "set null" }),
    provider_reference: text("provider_reference"),
    last_error: text("last_error").notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("renewal_charges_term_unique").on(t.client_id, t.term_end),
    index("renewal_charges_due_idx").on(t.status, t.next_attempt_at),
  ],
);

/**
 * A partner's renewal of one of their customers' lines (issue 45 item 3), one row per request
 * (request_key: partner + Idempotency-Key, so a replay is the same renewal and moves credits
 * once). The cost is moved back from the partner to the owner before the panel extends the line,
 * and given back when the panel refuses (modules/partner/line-actions.ts).
 * Status: pending | done | failed | unknown (the panel's answer was lost and the line could not be
 * looked up: the credits stay moved, the business checks).
 */
export const resellerLineRenewals = pgTable(
  "reseller_line_renewals",
  {
    id: id(),
    line_id: uuid("line_id")
      .notNull()
      .references(() => resellerLines.id, { onDelete: "cascade" }),
    reseller_id: uuid("reseller_id")
      .notNull()
      .references(() => resellers.id, { onDelete: "cascade" }),
    request_key: text("request_key").notNull().unique(),
    cost: integer("cost").notNull().default(0),
    status: text("status").notNull().default("pending"),
    expires_before: timestamp("expires_before", { withTimezone: true }),
    expires_after: timestamp("expires_after", { withTimezone: true }),
    error: text("error").notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("reseller_line_renewals_line_idx").on(t.line_id, t.created_at)],
);

/**
 * A client's change of the card their automatic renewal charges (issue 44 item 5, "Use another
 * card"): the card-saving checkout's payment (unique: a replayed notification finds the change done
 * and changes nothing twice), and the replaced card's token, sealed, until the provider has been
 * told to forget it (then null, with the time). Status: pending (checkout started) | done (the new
 * card kept) | dropped (paid without a card, or the renewal was turned off meanwhile).
 */
export const autoRenewCardChanges = pgTable(
  "auto_renew_card_changes",
  {
    id: id(),
    client_id: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    payment_id: uuid("payment_id")
      .notNull()
      .references(() => capturedPayments.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    status: text("status").notNull().default("pending"),
    /** the card no longer used (or a new one not kept), sealed, until the provider forgets it */
    old_token_sealed: text("old_token_sealed"),
    /** a process claimed telling the provider (another waits until this is old) */
    cancel_tried_at: timestamp("cancel_tried_at", { withTimezone: true }),
    cancelled_at: timestamp("cancelled_at", { withTimezone: true }),
    done_at: timestamp("done_at", { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("auto_renew_card_changes_payment_unique").on(t.payment_id),
    index("auto_renew_card_changes_cancel_idx").on(t.status).where(sql`${t.old_token_sealed} is not null`),
  ],
);
