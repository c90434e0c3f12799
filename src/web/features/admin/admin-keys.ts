// Query keys of the admin dashboard. Every admin list or record lives under ["admin", <table>]
// (the database table it reads), so the change feed can refresh it by table name: a change to
// `packages` refetches every query whose key starts with ["admin", "packages"]. Other admin
// sections (catalogue, operations) should key their queries the same way to stay live.
import { ADMIN_ONLY_TABLES } from "@/shared/change-feed";
import { publicTables } from "@/web/lib/query-keys";

export const adminKeys = {
  /** the session check; outside the ["admin"] prefix so refreshing admin data never re-checks it */
  session: ["admin-session"],
  all: ["admin"],
  stats: ["admin", "stats"],
  /** what a new shop still has to set: settings, branding and demo content feed it */
  launchChecklist: ["admin", "launch-checklist"],
  leads: ["admin", "leads"],
  clients: ["admin", "clients"],
  client: (id: string) => ["admin", "clients", "detail", id],
  payments: ["admin", "captured_payments"],
  /** automatic renewals by a kept card (issue 44): the count, the charges due, the failures */
  renewals: ["admin", "renewal_charges"],
  packages: ["admin", "packages"],
  /** the IPTV panel as the dashboard sees it: mode, credits, its packages and our mapping */
  panel: ["admin", "panel"],
  /** the panel's work: one job per cause (a payment, a trial, a status change) */
  provisioning: ["admin", "provisioning_jobs"],
  /** the WhatsApp inbox: conversations, threads and the unread count (issue 26) */
  inbox: ["admin", "whatsapp_messages"],
  /** an open conversation: its thread also shows what the outbox sent the number, with delivery states */
  inboxThreads: ["admin", "whatsapp_messages", "thread"],
} as const;

/**
 * Tables whose changes refresh what shows them without the "Data Updated" toast: the outbox moves
 * on its own all day (queued, sent, delivered, read), and the screens show the new state in place.
 */
export const QUIET_TABLES: readonly string[] = ["outbox"];

/** Every table the dashboard watches: the admin-only ones and everything the public site shows. */
export const ADMIN_LIVE_TABLES: readonly string[] = [...ADMIN_ONLY_TABLES, ...publicTables, "trial_blackout_days"];

/**
 * Besides ["admin", <table>]: the screens that show a table's rows elsewhere. A client's detail
 * page lists its payments, leads and content requests; the overview counts most things.
 */
const alsoShownIn: Record<string, readonly (readonly string[])[]> = {
  clients: [adminKeys.stats, adminKeys.leads, adminKeys.payments],
  captured_payments: [adminKeys.stats, adminKeys.clients],
  leads: [adminKeys.stats, adminKeys.clients],
  content_requests: [adminKeys.clients],
  packages: [adminKeys.clients],
  // the packages list carries today's price, which a special changes
  pricing_specials: [adminKeys.packages],
  // a job done on the panel spends its credits; the credit warning is a site setting
  provisioning_jobs: [adminKeys.panel],
  site_settings: [adminKeys.panel, adminKeys.launchChecklist],
  site_branding: [adminKeys.launchChecklist],
  testimonials_managed: [adminKeys.launchChecklist],
  homepage_content: [adminKeys.launchChecklist],
  // a WhatsApp message from a new number makes a lead
  whatsapp_messages: [adminKeys.leads],
  // what we sent a number, with its delivery state, shows in that number's open thread; the
  // overview counts failures and the owner's queue
  outbox: [adminKeys.inboxThreads, adminKeys.stats],
};

/** The query-key prefixes to refetch when a row of `table` changes. */
export function adminKeysForTable(table: string): (readonly string[])[] {
  return [["admin", table], ...(alsoShownIn[table] ?? [])];
}
