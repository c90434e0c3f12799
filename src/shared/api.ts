// The public API's response types (docs/architecture.md, "API"). Entities travel with the spec's
// column names. Dates travel as ISO strings. Lists answer {data: [...]}.
import type { LoginChannel } from "./login-channel";
import type { CardProviderName, HostedProviderName, PaymentProviderName } from "./payment-providers";

export type { LoginChannel };

export interface ListResponse<T> {
  data: T[];
}

export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/** GET /api/packages — active, sort_order ascending */
export interface Package {
  id: string;
  name: string;
  price: number;
  duration: string;
  duration_months: number;
  features: string[];
  description: string;
  is_featured: boolean;
  sort_order: number;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  /** false when the shop cannot make a line for it yet (no panel package mapped): shown, not sold */
  available?: boolean;
}

/** GET /api/specials — active specials inside their date window */
export interface Special {
  id: string;
  package_name: string;
  original_price: number;
  special_price: number;
  title: string;
  description: string;
}

/** GET /api/banners — active; banner_type 'special' shows as a popup, anything else inline */
export interface Banner {
  id: string;
  title: string;
  content: string;
  banner_type: string;
  is_active: boolean;
  sort_order: number;
  created_at: string;
}

/** GET /api/settings — {data: {key: value}} of active settings */
export type SettingsMap = Record<string, string>;

/** GET /api/downloads — active, featured first, then sort_order, then name */
export interface Download {
  id: string;
  name: string;
  description: string;
  /** whether a download URL exists; the URL itself comes from POST /api/downloads/:id/download */
  download_url: string | null;
  file_type: string;
  file_size: string;
  version: string;
  device_compatibility: string[];
  installation_guide: string | null;
  download_count: number;
  is_featured: boolean;
  qr_code_data: string | null;
  logo_url: string | null;
  sort_order: number;
  is_active: boolean;
}

/** GET /api/testimonials — published and approved; featured first, sort_order asc, newest */
export interface Testimonial {
  id: string;
  client_name: string;
  location: string;
  content: string;
  rating: number;
  is_featured: boolean;
  sort_order: number;
  created_at: string;
}

/** GET /api/images?keys=a,b — image_url carries ?v={version} */
export interface ImageEntry {
  id: string;
  image_key: string;
  image_url: string;
  alt_text: string;
  version: number;
  updated_at: string;
}

/** GET /api/content?section=x — active, sort_order asc */
export interface ContentSection {
  id: string;
  section_name: string;
  title: string;
  description: string;
  content: Record<string, unknown>;
  is_active: boolean;
  sort_order: number;
}

/** GET /api/branding — {data: {setting_name: setting_value}} of active branding */
export type BrandingMap = Partial<Record<"company_name" | "tagline" | "whatsapp_number" | "support_email", string>> &
  Record<string, string>;

/** GET /api/notices — active and inside their window, newest first */
export interface Notice {
  id: string;
  title: string;
  body: string;
  severity: "info" | "warning" | "critical" | string;
  audience: string;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
}

export type ComponentStatus = "operational" | "degraded" | "maintenance" | "down";
export type OverallStatus = "stable" | "maintenance" | "down";

export interface StatusDay {
  /** YYYY-MM-DD in Africa/Johannesburg */
  date: string;
  /** the worst status seen that day, or null when nothing was checked */
  status: ComponentStatus | null;
  /** share of checks that were operational, 0..1, or null */
  uptime: number | null;
}

export interface StatusComponent {
  id: string;
  key: string;
  name: string;
  description: string;
  status: ComponentStatus;
  message: string;
  last_checked_at: string | null;
  /** 90 days, oldest first */
  history: StatusDay[];
}

export interface Incident {
  id: string;
  title: string;
  body: string;
  impact: string;
  status: string;
  component_keys: string[];
  started_at: string;
  resolved_at: string | null;
}

/** Scheduled maintenance as the status page shows it (a row of incidents with kind 'maintenance'). */
export interface Maintenance {
  id: string;
  title: string;
  body: string;
  /** scheduled | in_progress | completed | cancelled */
  status: string;
  component_keys: string[];
  starts_at: string;
  ends_at: string;
  /** when it was completed or cancelled */
  resolved_at: string | null;
}

/** GET /api/status */
export interface StatusResponse {
  /** spec §4: down if any is down; else maintenance if any is; else stable */
  overall: OverallStatus;
  /** the entries the overall rule reads (one per component) */
  data: { key: string; status: ComponentStatus }[];
  components: StatusComponent[];
  incidents: Incident[];
  /** scheduled maintenance not yet over (upcoming and in progress), soonest first */
  maintenance: Maintenance[];
  checked_at: string | null;
}

/** GET /api/kb?q=&category= */
export interface KbArticleSummary {
  id: string;
  slug: string;
  title: string;
  category: string;
  summary: string;
  updated_at: string;
}

/** GET /api/kb/:slug */
export interface KbArticle extends KbArticleSummary {
  body: string;
}

/** GET /api/releases — published, newest first */
export interface Release {
  id: string;
  version: string;
  title: string;
  body: string;
  released_on: string;
}

/** GET /api/health */
export interface Health {
  status: "ok" | "degraded";
  database: "up" | "down";
  version: string;
  uptime_s: number;
}

/** SSE payload on GET /api/events */
export interface ChangeEvent {
  table: string;
  op: "INSERT" | "UPDATE" | "DELETE";
  id: string | null;
}

/**
 * GET /api/trial-availability → {data}: whether a free trial can start today (spec §1: not on
 * sport event days), so the free-trial buttons can say so before anyone fills in the form.
 */
export interface TrialAvailability {
  available: boolean;
  /** the blackout day's reason as the business wrote it ('' when none or when available) */
  reason: string;
  /** the South African calendar day this answer is about, 'YYYY-MM-DD' */
  day: string;
}

// ---- commerce (POST endpoints) ----------------------------------------------------------

/** POST /api/orders */
export interface OrderResponse {
  success: true;
  id: string;
  whatsappUrl: string;
  /** a free trial no code could reach: the shop confirms it instead, in these words (CODE_ROUTE_MESSAGES.trialApprove) */
  notice?: string;
}

/** POST /api/interest */
export interface InterestResponse {
  success: true;
  id: string;
}

/** POST /api/payments/paylink */
export interface PaylinkResponse {
  success: true;
  paylinkUrl: string;
  externalTransactionID: string;
}

export type PaymentStatus = "pending" | "paid" | "failed" | "cancelled" | "refunded";

/** GET /api/payments/:ref → {data} */
export interface PaymentStatusView {
  external_transaction_id: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  package_name: string;
  provider: string;
  created_at: string;
  paid_at: string | null;
  /** what the payment did for the person who paid; the result pages say only this */
  outcome: PaymentOutcome;
  /** only when the payment is a partner's credit order (issue 45): it buys credits, not a subscription */
  credit_order?: PaymentCreditOrder | null;
  /**
   * only when the payment is a client's change of the card their automatic renewals charge (issue
   * 44, "Use another card"): nothing charged, no term added. pending: the provider has not told us
   * yet; done: the new card is kept; dropped: paid without a card, or auto-renew was turned off meanwhile.
   */
  card_change?: { status: "pending" | "done" | "dropped" } | null;
}

/** What a partner's credit order stands at, for the result page. */
export interface PaymentCreditOrder {
  credits: number;
  /**
   * pending: not paid; paid: paid, the credits being moved; delivered: on their balance;
   * refused / failed / unknown: paid, not moved yet (the business sees to it); refunded
   */
  status: "pending" | "paid" | "delivered" | "refused" | "failed" | "unknown" | "refunded";
  /** the partner's balance just after the credits moved, when known */
  balance: number | null;
}

/** Where a message about a payment went, masked: {channel: 'whatsapp', hint: 'ending 4567'}. */
export interface SentTo {
  channel: "whatsapp" | "email";
  hint: string;
}

export interface PaymentOutcome {
  /**
   * renewed: an existing client's term was extended; created: a new client account was made
   * from the payer's details and its portal login sent; none: nothing yet (not paid, or paid
   * with nobody to credit, which the business sorts out by hand)
   */
  account: "renewed" | "created" | "none";
  /** the client's term now ends at (when paid and time was added) */
  subscription_end: string | null;
  /** the client is suspended: the time was added, but only the business can lift the suspension */
  suspended: boolean;
  /** where the receipt and, for a new account, the portal login were sent */
  sent_to: SentTo[];
  /**
   * The customer's messages this payment caused (receipt, welcome with the portal login, line
   * login details), each with what really happened to it so far; never the business's notice.
   */
  messages: PaymentMessage[];
}

/** What the customer's message about a payment is: its kind and channel. */
export type PaymentMessageKind = "receipt" | "welcome" | "credentials";

/**
 * Where one message stands: queued (waiting in our outbox), owner (waiting for the business to
 * send it on WhatsApp by hand), sent, delivered or read (WhatsApp's own report), failed.
 */
export type PaymentMessageState = "queued" | "owner" | "sent" | "delivered" | "read" | "failed";

export interface PaymentMessage {
  kind: PaymentMessageKind;
  channel: "whatsapp" | "email";
  state: PaymentMessageState;
}

/** The payment providers an owner may turn on beside the card provider (docs/payment-providers.md). */
export type HostedPaymentMethod = HostedProviderName;

/**
 * GET /api/payment-providers → {data}: every registered payment provider (on or not: a payment made
 * through one since turned off still needs its words), as the pages show it. From the server's
 * registry (src/server/adapters/payments/registry.ts), never written in a page.
 */
export interface PaymentProviderInfo {
  name: PaymentProviderName;
  /** in a list of payments: 'Card (Yoco)', 'Ozow (instant EFT)' */
  label: string;
  /** in a sentence: 'Ozow is not asked to refund it', 'refunded through PayFast' */
  sentenceName: string;
  /** a short text badge: a few letters */
  mark: string;
  /** the card provider, or one beside it with its own page */
  role: "card" | "hosted";
  /** the local test checkout: takes no real money */
  test: boolean;
  /** what its page lets the customer do, beside its name where they choose a way to pay */
  choiceText: string;
  /** the owner's words for turning it on: 'set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET' */
  turnOn: string;
  capabilities: {
    /** how the customer pays: a pay link the provider makes, a page it redirects to, or a signed form our page posts */
    checkout: "paylink" | "redirect" | "form";
    /** whether it signs what it tells us (a notification we verify) */
    verifiesNotifications: boolean;
    /** whether its status can be asked by our reference (the result page) */
    statusQuery: boolean;
    /** whether money goes back through its API (else the owner pays back by hand) */
    refundByApi: boolean;
    /** whether it can charge a card saved at an earlier payment (renewals) */
    chargeSavedCard: boolean;
  };
  refund: {
    /** how its refunds go back: to the card, the way they paid, or the bank account paid from */
    route: "card" | "payment-source" | "bank-account";
    /** the customer's sentence for it, in the refund message */
    how: string;
  };
  /** where it tells us about a payment (our path) */
  notificationPath: string;
}

/** GET /api/payments/methods → {data}: which ways to pay are on. */
export interface PaymentMethods {
  /**
   * card payments: the card provider's name (GET /api/payment-providers says its label and whether
   * it is the test checkout that takes no real money), or off
   */
  card: CardProviderName | "off";
  eft: boolean;
  /** the other providers the owner turned on, by id and the name customers know, in the order offered (the server always sends it) */
  providers?: readonly { id: HostedPaymentMethod; name: string }[];
  /** how the login details go (shared/login-channel.ts): 'whatsapp' with an approved template, else 'email' (the server always sends it) */
  loginChannel?: LoginChannel;
}

export interface BankDetails {
  bank_name: string;
  account_name: string;
  account_number: string;
  branch_code: string;
  account_type: string;
}

/** POST /api/payments/eft */
export interface EftResponse {
  success: true;
  reference: string;
  amount: number;
  package_name: string;
  bank: BankDetails;
}

/** POST /api/downloads/:id/download */
export interface DownloadUrlResponse {
  url: string;
}

/** POST /api/downloads/:id/instructions */
export interface InstructionsResponse {
  success: true;
}

/** POST /api/status/check */
export interface StatusCheckResponse {
  success: true;
  ran: boolean;
  checked_at: string | null;
}

// ---- the WhatsApp inbox (issue 26) ----

/** GET /api/admin/inbox → {data: InboxConversation[]}, newest first */
export interface InboxConversation {
  /** international digits: 27821234567 */
  number: string;
  name: string;
  client_id: string | null;
  lead_id: string | null;
  last_message_at: string;
  last_text: string;
  /** inbound messages not yet opened */
  unread: number;
}

/** One message of a thread: from the inbox table (inbound, replies) or from the outbox (what the business sent). */
export interface InboxMessage {
  id: string;
  source: "inbox" | "outbox";
  direction: "in" | "out";
  /** text | button | interactive | image | ... ; outbox rows: their kind ('receipt', 'reminder-7d', ...) */
  type: string;
  text: string;
  media_id: string | null;
  media_mime: string | null;
  at: string;
  /** out: sending | sent | failed | owner | pending | rerouted (outbox states) */
  status: string | null;
  /** out: sent | delivered | read | failed (the Cloud API's last word) */
  delivery_status: string | null;
  wamid: string | null;
  error: string | null;
  /** out: how it went (cloud-text, cloud-template:<name>, wa.me, ...) */
  sent_via: string | null;
}

export interface InboxCustomer {
  kind: "client" | "lead";
  id: string;
  name: string;
  status: string;
  subscription_end: string | null;
  package: string;
  panel_username: string;
  email: string;
  payments: { id: string; amount: number; status: string; package_name: string; provider: string; at: string }[];
}

/** GET /api/admin/inbox/:number → {data: InboxThread} (and the thread is marked read) */
export interface InboxThread {
  number: string;
  name: string;
  client_id: string | null;
  lead_id: string | null;
  /** the 24-hour window: free text may go until then (null: the number never wrote, or it closed) */
  window_open_until: string | null;
  cloud_api: boolean;
  messages: InboxMessage[];
  customer: InboxCustomer | null;
}

/** POST /api/admin/inbox/:number/reply → {data: InboxReplyResult}; wa_link when the owner sends it by hand (no Cloud API) */
export interface InboxReplyResult {
  message: InboxMessage;
  waLink: string | null;
}

/** One message the inbox's "Resend line details" queued: where it went (masked) and its outbox state now. */
export interface LineDetailsQueued {
  /** the outbox row: an open thread shows the WhatsApp one with its live state */
  id: string;
  channel: "email" | "whatsapp";
  hint: string;
  /** pending | sending | sent | owner | rerouted | failed */
  status: string;
  delivery_status: string | null;
}

/**
 * POST /api/admin/inbox/:number/resend-line-details (Idempotency-Key) → 201 {data} (200 when that
 * key was already used: the same messages, nothing queued again)
 */
export interface LineDetailsResent {
  client_id: string;
  queued: LineDetailsQueued[];
  /** true when this Idempotency-Key had already queued them */
  replayed: boolean;
  /** false: WhatsApp messages wait in the owner's queue ("To send on WhatsApp") */
  cloud_api: boolean;
}
