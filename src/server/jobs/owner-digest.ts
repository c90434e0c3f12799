// The owner's daily digest (docs/architecture.md, "Owner alerts"): when the owner_digest setting
// is on, once a day at the owner_digest_hour (SAST, default 07:00; or at the first run after it
// that day), yesterday in numbers — payments (how many, how much), new clients, free trials
// started and trial clients who paid, automatic renewals by card that failed — and what waits for them now, with the dashboard's links
// (a refund whose answer the provider lost among them: its amount stays held until it is checked).
// Queued through lib/owner-alerts.ts with the day in its dedupe key, so however many processes
// run this job, the owner gets one digest a day.
import { and, count, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import type { Db } from "@/server/db/client";
import { capturedPayments, clientLifecycleEvents, clients, outbox, provisioningJobs, renewalCharges } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { type AlertRoute, loadAlertRoute, type OwnerAlert, queueOwnerAlert } from "@/server/lib/owner-alerts";
import { refundHeld } from "@/server/modules/admin-business/payment-service";
import { formatDate, saDay } from "@/shared/dates";
import { formatRand, toCents } from "@/shared/money";

const EVERY_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** SAST is UTC+2 all year (shared/dates.ts). */
const SA_OFFSET_MS = 2 * 3_600_000;

export interface DigestFacts {
  /** the SAST day the numbers are about, 'YYYY-MM-DD' */
  day: string;
  payments: number;
  /** rand */
  received: number;
  newClients: number;
  trialsStarted: number;
  trialsConverted: number;
  failedPanelJobs: number;
  failedMessages: number;
  eftAwaiting: number;
  whatsappToSend: number;
  /** payments with a refund sent to the provider and not yet confirmed (its amount held) */
  refundsHeld: number;
  /** automatic renewals by a kept card that failed that day: declined, or no clear answer (issue 44) */
  renewalsFailed: number;
}

/** The dedupe key of a day's digest (the e-mail's; the WhatsApp row adds ':whatsapp'). */
export const digestKey = (day: string) => `owner-alert:digest:${day}`;

/** Midnight SAST at the start of the SAST day `now` falls in. */
function saMidnight(now: Date): Date {
  const wall = now.getTime() + SA_OFFSET_MS;
  return new Date(wall - (wall % DAY_MS) - SA_OFFSET_MS);
}

/** The hour of the day in South Africa. */
const saHour = (now: Date) => new Date(now.getTime() + SA_OFFSET_MS).getUTCHours();

/** Yesterday's numbers (the SAST day before `now`'s) and what is waiting now. */
export async function digestFacts(db: Pick<Db, "select">, now: Date): Promise<DigestFacts> {
  const to = saMidnight(now);
  const from = new Date(to.getTime() - DAY_MS);
  const within = (column: AnyPgColumn) => and(gte(column, from), lt(column, to));
  const [[paid], [created], [started], [converted], [panel], [messages], [eft], [whatsapp], [held], [renewals]] = await Promise.all([
    db
      .select({ n: count(), total: sql<string>`coalesce(sum(${capturedPayments.amount}), 0)` })
      .from(capturedPayments)
      .where(
        and(isNotNull(capturedPayments.paid_at), within(capturedPayments.paid_at), inArray(capturedPayments.status, ["paid", "refunded"])),
      ),
    db
      .select({ n: count() })
      .from(clients)
      .where(and(within(clients.created_at), isNull(clients.merged_into))),
    db
      .select({ n: count() })
      .from(clientLifecycleEvents)
      .where(and(eq(clientLifecycleEvents.cause, "trial-started"), within(clientLifecycleEvents.created_at))),
    // A trial converted: the client's first payment, after a free trial of theirs.
    db
      .select({ n: sql<number>`count(distinct ${clientLifecycleEvents.client_id})::int` })
      .from(clientLifecycleEvents)
      .where(
        and(
          eq(clientLifecycleEvents.cause, "payment-captured"),
          within(clientLifecycleEvents.created_at),
          sql`exists (select 1 from client_lifecycle_events t where t.client_id = ${clientLifecycleEvents.client_id}
                and t.cause = 'trial-started' and t.created_at < ${clientLifecycleEvents.created_at})`,
          sql`not exists (select 1 from client_lifecycle_events p where p.client_id = ${clientLifecycleEvents.client_id}
                and p.cause = 'payment-captured' and p.created_at < ${clientLifecycleEvents.created_at})`,
        ),
      ),
    db.select({ n: count() }).from(provisioningJobs).where(eq(provisioningJobs.status, "failed")),
    // As the overview counts them: given up, or retrying after an error.
    db
      .select({ n: count() })
      .from(outbox)
      .where(or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.last_error)))),
    db
      .select({ n: count() })
      .from(capturedPayments)
      .where(and(eq(capturedPayments.provider, "eft"), eq(capturedPayments.status, "pending"))),
    db
      .select({ n: count() })
      .from(outbox)
      .where(and(eq(outbox.channel, "whatsapp"), eq(outbox.status, "owner"))),
    db.select({ n: count() }).from(capturedPayments).where(refundHeld),
    db
      .select({ n: count() })
      .from(renewalCharges)
      .where(and(inArray(renewalCharges.status, ["declined", "unknown"]), within(renewalCharges.updated_at))),
  ]);
  return {
    day: saDay(from),
    payments: paid.n,
    received: toCents(Number(paid.total ?? 0)) / 100,
    newClients: created.n,
    trialsStarted: started.n,
    trialsConverted: Number(converted.n),
    failedPanelJobs: panel.n,
    failedMessages: messages.n,
    eftAwaiting: eft.n,
    whatsappToSend: whatsapp.n,
    refundsHeld: held.n,
    renewalsFailed: renewals.n,
  };
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The digest's text: the numbers as the business reads them, and each thing waiting with its page. */
export function digestAlert(publicUrl: string, facts: DigestFacts): OwnerAlert {
  const date = formatDate(`${facts.day}T12:00:00+02:00`);
  const waiting = [
    facts.failedPanelJobs
      ? `- ${counted(facts.failedPanelJobs, "panel job failed", "panel jobs failed")}, waiting for you to retry: ${publicUrl}/admin/panel`
      : "",
    facts.failedMessages
      ? `- ${counted(facts.failedMessages, "message", "messages")} not sent: ${publicUrl}/admin/outbox?status=failed`
      : "",
    facts.eftAwaiting
      ? `- ${counted(facts.eftAwaiting, "EFT order", "EFT orders")} to confirm when the money shows: ${publicUrl}/admin/payments?status=pending&provider=eft`
      : "",
    facts.whatsappToSend
      ? `- ${counted(facts.whatsappToSend, "WhatsApp message", "WhatsApp messages")} for you to send: ${publicUrl}/admin/outbox?status=owner`
      : "",
    facts.refundsHeld
      ? `- ${counted(facts.refundsHeld, "refund", "refunds")} not confirmed by the payment provider, the amount held until you refund again to check: ${publicUrl}/admin/payments?refund=held`
      : "",
  ].filter(Boolean);
  return {
    cause: "digest",
    dedupeKey: digestKey(facts.day),
    subject: `Your day, ${date}: ${counted(facts.payments, "payment", "payments")}, ${formatRand(facts.received)}`,
    body: [
      `Yesterday, ${date}:`,
      `- Payments: ${facts.payments}, ${formatRand(facts.received)} in total`,
      `- New clients: ${facts.newClients}`,
      `- Free trials started: ${facts.trialsStarted}; trial clients who paid: ${facts.trialsConverted}`,
      ...(facts.renewalsFailed
        ? [
            `- Automatic renewals by card that failed: ${facts.renewalsFailed} (declined or no clear answer; the customers have the pay link): ${publicUrl}/admin/payments`,
          ]
        : []),
      "",
      ...(waiting.length
        ? ["Waiting for you now:", ...waiting]
        : ["Nothing is waiting for you now: no failed panel jobs or messages, no EFT to confirm, no refund held."]),
      "",
      `Your dashboard: ${publicUrl}/admin`,
    ].join("\n"),
  };
}

/**
 * Queue today's digest when it is on and its hour has come (SAST); once a day, however many
 * processes ask. Returns whether this run asked for it (a concurrent run's rows are dropped by their keys).
 */
export async function runOwnerDigest(app: FastifyInstance, now = new Date()): Promise<boolean> {
  const route: AlertRoute = await loadAlertRoute(app.db, app.outbox.cloudApi);
  if (!route.prefs.digest || saHour(now) < route.prefs.digestHour) return false;
  const key = digestKey(saDay(new Date(saMidnight(now).getTime() - DAY_MS)));
  // Already queued today (by this process or another): nothing to count.
  const [done] = await app.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(inArray(outbox.dedupe_key, [key, `${key}:whatsapp`]))
    .limit(1);
  if (done) return false;
  const facts = await digestFacts(app.db, now);
  const publicUrl = (await loadBusiness(app)).publicUrl;
  const queued = await queueOwnerAlert(app.db, route, digestAlert(publicUrl, facts));
  if (queued) app.outbox.nudge();
  return queued > 0;
}

export const ownerDigestJob = { name: "owner-digest", everyMs: EVERY_MS, run: (app: FastifyInstance) => runOwnerDigest(app) };
