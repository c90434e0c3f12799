// Expiry reminders (CPA s14 asks for an expiry notice before a term ends): every 15 minutes,
// clients whose paid term ends within each of the reminder_days setting's days (default
// 7, 3, 1 and 0: the day it ends) get ONE message per threshold per subscription end, on their preferred channel, with a link that
// pays: the one-tap pay link for their package (modules/pay-links), else the portal's renew action.
// A free trial lasts hours, not weeks: it gets one notice, scaled to its term (`trialNoticeAt`: a
// quarter of the term before its end, at most a day before, never in its first half), in a trial's
// words (choose a package to keep watching), naming every way to pay that is on. Statuses are not this job's business: the lifecycle job
// (jobs/lifecycle.ts) moves ended terms to grace and expired; this one only writes to people.
// reminder_log (unique client, threshold, subscription_end) is written first, in the same
// transaction as the message, so however many processes run this job, each reminder goes once;
// a renewal moves subscription_end, and the next term gets its own reminders.
// The ended notice (day 0: "subscription ended" / "trial ended") is not sent from here: the
// lifecycle job queues it with queueEndedNotice in the transaction that ends the term, so it
// arrives when the line stops, not up to 15 minutes later (issue 25 item 6). Its reminder_log row
// and dedupe key are the ones this job used, so it never goes twice.
import { and, eq, gte, inArray, isNotNull, lte } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "@/server/db/client";
import { clients, reminderLog } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { loadTemplates, type OwnerTemplates } from "@/server/lib/message-templates";
import { enqueue } from "@/server/lib/outbox";
import { type PayLinks, type ReminderFacts, reminderMessage, renewLinkFor, type Threshold } from "@/server/lib/reminder-words";
import { loadPayLinks } from "@/server/modules/pay-links/links";
import { paymentMethods } from "@/server/modules/payments/service";
import type { PaymentMethods } from "@/shared/api";
import { formatDate } from "@/shared/dates";
import { DEFAULT_REMINDER_DAYS, graceEnd, type LifecycleRules, lifecycleRules, reminderDays } from "@/shared/lifecycle";

/** Whose terms are looked at: running ones (an ended one's notice is the lifecycle job's; see queueEndedNotice). */
const REMINDED_STATUSES = ["trial", "active", "grace", "expired"];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const EVERY_MS = 15 * 60_000;
/** Clients looked at per run; the rest are reached on the next run. */
const BATCH = 500;
/** A term that ended longer ago than this (data imported, jobs off for a while) gets no message: a notice weeks late helps nobody. */
const LATE_EXPIRY_SILENT_AFTER_MS = 7 * DAY_MS;

/** The thresholds reached at `now` for these reminder days, most urgent first. */
export function thresholdsReached(end: Date, now: Date, days: readonly number[] = DEFAULT_REMINDER_DAYS): Threshold[] {
  const left = end.getTime() - now.getTime();
  return [...days]
    .sort((a, b) => a - b)
    .filter((day) => left <= day * DAY_MS)
    .map((day) => (day === 0 ? "expired" : `${day}d`));
}

/** A trial's one notice comes when this share of its term is left... */
const TRIAL_NOTICE_SHARE = 0.25;
/** ...but never earlier than this before its end. */
const TRIAL_NOTICE_MAX_MS = DAY_MS;

/**
 * When a free trial's one "ends soon" notice is due: a quarter of its term before the end (6 hours
 * for a 24-hour trial), at most a day before it (a week's trial: the day before), and never in the
 * first half of the term. `start` is when the trial began (the term's start).
 */
export function trialNoticeAt(start: Date, end: Date): Date {
  const term = Math.max(0, end.getTime() - start.getTime());
  const lead = Math.min(term * TRIAL_NOTICE_SHARE, TRIAL_NOTICE_MAX_MS, term / 2);
  return new Date(end.getTime() - lead);
}

/**
 * A trial's thresholds at `now`: its one notice (kept as '1d', the last day's, which it always
 * falls within: its row in reminder_log and its dedupe key make it once per trial end) from
 * `trialNoticeAt`, and 'expired' once it has ended.
 */
export function trialThresholdsReached(start: Date, end: Date, now: Date): Threshold[] {
  if (now.getTime() >= end.getTime()) return ["expired", "1d"];
  return now.getTime() >= trialNoticeAt(start, end).getTime() ? ["1d"] : [];
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type ClientRow = typeof clients.$inferSelect;

/**
 * Queues one reminder (or the ended notice) in `tx`: the owner's template for it, on `contact`,
 * its subject kept on WhatsApp rows too (the e-mail copy the outbox may make uses it), once per
 * client, threshold and end (the dedupe key).
 */
async function queueReminder(
  tx: Tx,
  client: ClientRow,
  contact: { channel: "email" | "whatsapp"; recipient: string },
  threshold: Threshold,
  context: {
    business: BusinessProfile;
    templates: OwnerTemplates;
    now: Date;
    trial: boolean;
    graceUntil: Date | null;
    end?: Date;
    payLinks: PayLinks | null;
    methods: PaymentMethods;
  },
): Promise<void> {
  const { business, now } = context;
  const end = context.end ?? (client.subscription_end as Date);
  const facts: ReminderFacts = {
    name: client.full_name,
    packageName: client.package_name,
    end,
    trial: context.trial,
    now,
    graceUntil: context.graceUntil,
    packageId: client.package_id,
    clientId: client.id,
    payLinks: context.payLinks,
    methods: context.methods,
  };
  const message = reminderMessage(business, threshold, facts, context.templates);
  await enqueue(tx, {
    ...contact,
    subject: message.subject,
    body: message.body,
    kind: `reminder-${threshold}`,
    client_id: client.id,
    failure: message.error,
    // for a WhatsApp template outside the 24-hour window (docs/architecture.md, "Integrations")
    vars: {
      end_date: formatDate(end),
      days: String(Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS))),
      package: client.package_name || "subscription",
      renew_link: renewLinkFor(business, facts).url,
    },
    dedupe_key: `reminder:${client.id}:${threshold}:${end.toISOString()}`,
  });
}

/** What queueEndedNotice needs, read before the transaction (PGlite has one connection). */
export interface EndedNoticeContext {
  business: BusinessProfile;
  templates: OwnerTemplates;
  rules: LifecycleRules;
  /** the reminder_days setting: no 0 in it, no ended notice */
  days: readonly number[];
  now: Date;
  payLinks: PayLinks;
  methods: PaymentMethods;
}

/** Reads what queueEndedNotice needs; once per pass of the lifecycle job. */
export async function loadEndedNoticeContext(app: FastifyInstance, now: Date): Promise<EndedNoticeContext> {
  const business = await loadBusiness(app);
  return {
    business,
    templates: await loadTemplates(app.db),
    rules: lifecycleRules(business.settings),
    days: reminderDays(business.settings),
    now,
    payLinks: await loadPayLinks(app, now),
    methods: await paymentMethods(app),
  };
}

/**
 * The "subscription ended" / "trial ended" notice, queued in the transaction that ended the term
 * (the lifecycle job's term-ended change; `before` and `after` are the client around it). Once
 * per client and end: the reminder_log row ('expired') and the dedupe key are the reminders
 * job's, which sends no ended notice of its own. Nothing when reminder_days has no 0, when the
 * end is more than a week past (a notice weeks late helps nobody), or with no usable contact.
 * Returns whether one was queued.
 */
export async function queueEndedNotice(tx: Tx, before: ClientRow, after: ClientRow, context: EndedNoticeContext): Promise<boolean> {
  const end = before.subscription_end;
  if (!end || !context.days.includes(0)) return false;
  if (context.now.getTime() - end.getTime() > LATE_EXPIRY_SILENT_AFTER_MS) return false;
  const contact = preferredContact(after);
  if (!contact) return false;
  const [logged] = await tx
    .insert(reminderLog)
    .values({ client_id: after.id, threshold: "expired", subscription_end: end })
    .onConflictDoNothing()
    .returning({ id: reminderLog.id });
  if (!logged) return false;
  await queueReminder(tx, after, contact, "expired", {
    business: context.business,
    templates: context.templates,
    now: context.now,
    end,
    trial: before.status === "trial",
    // a paid term ends into the grace days: the notice says until when the service stays on
    graceUntil: after.status === "grace" ? graceEnd(end, context.rules) : null,
    payLinks: context.payLinks,
    methods: context.methods,
  });
  return true;
}

/**
 * One pass. Returns how many reminder messages were queued and how many accounts were marked
 * expired. `now` is the clock (tests move it).
 */
export async function runReminders(app: FastifyInstance, now: Date = new Date()): Promise<{ queued: number; expired: number }> {
  const days = reminderDays((await loadBusiness(app)).settings);
  // a trial's notice comes at most a day before its end, whatever the reminder days
  const horizon = new Date(now.getTime() + Math.max(1, ...days) * DAY_MS);
  const tooLate = new Date(now.getTime() - LATE_EXPIRY_SILENT_AFTER_MS);
  const due = await app.db
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        inArray(clients.status, REMINDED_STATUSES),
        isNotNull(clients.subscription_end),
        lte(clients.subscription_end, horizon),
        gte(clients.subscription_end, tooLate),
      ),
    )
    .orderBy(clients.subscription_end)
    .limit(BATCH);
  if (due.length === 0) return { queued: 0, expired: 0 };

  // Read outside the transactions: PGlite has one connection, which a transaction holds.
  const business = await loadBusiness(app);
  const templates = await loadTemplates(app.db);
  const payLinks = await loadPayLinks(app, now);
  const methods = await paymentMethods(app);
  const rules = lifecycleRules(business.settings);
  let queued = 0;
  let expired = 0;
  for (const { id } of due) {
    const outcome = await app.db.transaction(async (tx) => {
      // Locked and re-read: a renewal or an admin edit since the scan wins.
      const [client] = await tx.select().from(clients).where(eq(clients.id, id)).for("no key update");
      if (!client?.subscription_end || !REMINDED_STATUSES.includes(client.status)) return null;
      const end = client.subscription_end;
      const trial = client.status === "trial";
      // a trial without its start recorded (imported) is taken to be the shop's trial length long
      const start = client.subscription_start ?? new Date(end.getTime() - rules.trialHours * HOUR_MS);
      const reached = trial ? trialThresholdsReached(start, end, now) : thresholdsReached(end, now, days);
      if (reached.length === 0) return null;
      // Every threshold reached is logged, so a client first seen 12 hours before the end gets
      // the 1-day reminder only, and never a late 7-day one after it. Not 'expired': that row is
      // the lifecycle job's, written with the ended notice (a pass between the end and the job's
      // must not take it).
      const beforeEnd = reached.filter((threshold) => threshold !== "expired");
      const inserted = beforeEnd.length
        ? await tx
            .insert(reminderLog)
            .values(beforeEnd.map((threshold) => ({ client_id: client.id, threshold, subscription_end: end })))
            .onConflictDoNothing()
            .returning({ threshold: reminderLog.threshold })
        : [];
      const fresh = new Set(inserted.map((r) => r.threshold));
      const urgent = reached[0];
      const isExpiry = urgent === "expired";
      // The term has ended: its notice is the lifecycle job's, queued as it ended the term
      // (queueEndedNotice). The days before are logged above, so no late "ends in 7 days" follows.
      if (isExpiry || !fresh.has(urgent)) return { sent: false, isExpiry };
      const contact = preferredContact(client);
      if (!contact) return { sent: false, isExpiry };
      await queueReminder(tx, client, contact, urgent, {
        business,
        templates,
        now,
        trial,
        graceUntil: null,
        payLinks,
        methods,
      });
      return { sent: true, isExpiry };
    });
    if (outcome?.sent) queued++;
    if (outcome?.isExpiry) expired++;
  }
  if (queued) app.outbox.nudge();
  if (queued || expired) app.log.info({ queued, expired }, "client reminders");
  return { queued, expired };
}

export const remindersJob = {
  name: "client-reminders",
  everyMs: EVERY_MS,
  run: (app: FastifyInstance) => runReminders(app),
};
