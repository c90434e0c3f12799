// The overview's figures. Days and months are South African (Africa/Johannesburg): "today"
// starts at 00:00 SAST whatever the server's zone, and the 30-day series are SA calendar days.
import { and, count, eq, gt, gte, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { capturedPayments, clients, leads, outbox } from "@/server/db/schema";
import { saDayStart } from "@/server/lib/list-query";
import type { AdminStats } from "@/shared/business-schemas";
import { SA_TIME_ZONE, saDay } from "@/shared/dates";
import { toCents } from "@/shared/money";
import { refundHeld } from "./payment-service";

export const SERIES_DAYS = 30;
const DAY_MS = 86_400_000;

/** The SA days of the series, oldest first, ending today. */
export function seriesDays(now: Date, days = SERIES_DAYS): string[] {
  const today = saDayStart(saDay(now)).getTime();
  // Noon of each day avoids any edge at midnight.
  return Array.from({ length: days }, (_, i) => saDay(new Date(today - (days - 1 - i) * DAY_MS + DAY_MS / 2)));
}

export async function loadStats(app: FastifyInstance, now = new Date()): Promise<AdminStats> {
  const { db } = app;
  const today = saDay(now);
  const todayStart = saDayStart(today);
  const weekStart = new Date(todayStart.getTime() - 6 * DAY_MS);
  const monthStart = saDayStart(`${today.slice(0, 7)}-01`);
  const days = seriesDays(now);
  const seriesStart = saDayStart(days[0]);
  const in7Days = new Date(now.getTime() + 7 * DAY_MS);
  // The zone is a constant in the SQL text (not a parameter) so GROUP BY matches the select.
  const zone = sql.raw(`'${SA_TIME_ZONE}'`);
  const leadDay = sql<string>`to_char(${leads.created_at} at time zone ${zone}, 'YYYY-MM-DD')`;
  const paidDay = sql<string>`to_char(${capturedPayments.paid_at} at time zone ${zone}, 'YYYY-MM-DD')`;
  const running = (status: string) =>
    and(eq(clients.status, status), or(isNull(clients.subscription_end), gt(clients.subscription_end, now)));

  const [
    [leadsToday],
    [leadsWeek],
    [activeClients],
    [liveTrials],
    [expiring],
    [revenueMonth],
    [eftAwaiting],
    [outboxFailed],
    [whatsappToSend],
    [refundsHeld],
    leadsPerDay,
    revenuePerDay,
  ] = await Promise.all([
    db.select({ n: count() }).from(leads).where(gte(leads.created_at, todayStart)),
    db.select({ n: count() }).from(leads).where(gte(leads.created_at, weekStart)),
    db.select({ n: count() }).from(clients).where(running("active")),
    db
      .select({ n: count() })
      .from(clients)
      .where(and(eq(clients.status, "trial"), gt(clients.subscription_end, now))),
    db
      .select({ n: count() })
      .from(clients)
      .where(and(eq(clients.status, "active"), gt(clients.subscription_end, now), lte(clients.subscription_end, in7Days))),
    db
      .select({ total: sql<string>`coalesce(sum(${capturedPayments.amount} - ${capturedPayments.refunded_amount}), 0)` })
      .from(capturedPayments)
      .where(and(eq(capturedPayments.status, "paid"), gte(capturedPayments.paid_at, monthStart))),
    db
      .select({ n: count() })
      .from(capturedPayments)
      .where(and(eq(capturedPayments.provider, "eft"), eq(capturedPayments.status, "pending"))),
    // Real failures: given up, or retrying after an error (the outbox's "failed" filter lists the same).
    db
      .select({ n: count() })
      .from(outbox)
      .where(or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.last_error)))),
    db
      .select({ n: count() })
      .from(outbox)
      .where(and(eq(outbox.channel, "whatsapp"), eq(outbox.status, "owner"))),
    db.select({ n: count() }).from(capturedPayments).where(refundHeld),
    db.select({ day: leadDay, n: count() }).from(leads).where(gte(leads.created_at, seriesStart)).groupBy(leadDay),
    db
      .select({ day: paidDay, total: sql<string>`sum(${capturedPayments.amount} - ${capturedPayments.refunded_amount})` })
      .from(capturedPayments)
      .where(and(eq(capturedPayments.status, "paid"), gte(capturedPayments.paid_at, seriesStart)))
      .groupBy(paidDay),
  ]);

  // numeric sums arrive as text; add them up in cents so no float noise reaches the screen.
  const rand = (value: string | number | null | undefined) => toCents(Number(value ?? 0)) / 100;
  const leadCounts = new Map(leadsPerDay.map((r) => [r.day, r.n]));
  const revenue = new Map(revenuePerDay.map((r) => [r.day, rand(r.total)]));
  return {
    leads_today: leadsToday.n,
    leads_week: leadsWeek.n,
    active_clients: activeClients.n,
    live_trials: liveTrials.n,
    expiring_7d: expiring.n,
    revenue_month: rand(revenueMonth.total),
    eft_awaiting: eftAwaiting.n,
    outbox_failed: outboxFailed.n,
    whatsapp_to_send: whatsappToSend.n,
    refunds_held: refundsHeld.n,
    leads_per_day: days.map((date) => ({ date, count: leadCounts.get(date) ?? 0 })),
    revenue_per_day: days.map((date) => ({ date, amount: revenue.get(date) ?? 0 })),
  };
}
