// What the business dashboard's routes answer (dates as ISO strings): leads, clients, payments,
// content requests, the outbox, the overview's stats and the launch checklist.
import type { CONTENT_REQUEST_TYPES } from "./account-schemas";
import type { ContentRequestStatus, LEAD_FORM_TYPES, LeadStatus } from "./admin-list-schemas";
import type { ClientStatus } from "./lifecycle";

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
  /**
   * paid from this suspended client's number without proof (issue 46): nothing was set up; the
   * owner refunds it or reactivates the client
   */
  held_for_client_id?: string | null;
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
