// The owner's view of their network (issue 45 item 5): per partner per month (South African
// time), the credits sold to them through the shop, given or taken back by hand, and spent on
// lines (net of refunds), with the lines made; and the owner's credit runway (modules/panel/
// runway.ts: the renewals due in 30 days) with what partners are likely to buy on top.
import { and, eq, gte, like, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { resellerCreditTransfers, resellerLines, resellers } from "@/server/db/schema";
import { computeRunway } from "@/server/modules/panel/runway";
import type { NetworkView } from "@/shared/reseller-schemas";
import { fresh, resellerPanel } from "./service";

const DAY_MS = 86_400_000;
/** South Africa is UTC+2 all year. */
const SAST = "interval '2 hours'";

/** 'YYYY-MM' months from `to` back, `count` of them, oldest first. */
export function monthsUpTo(to: string, count: number): string[] {
  const [y, m] = to.split("-").map(Number);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (count - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

const monthStart = (month: string) => new Date(`${month}-01T00:00:00+02:00`);
const shift = (month: string, by: number) => {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7);
};

export function currentMonth(now = new Date()): string {
  return new Date(now.getTime() + 2 * 3_600_000).toISOString().slice(0, 7);
}

export async function networkView(app: FastifyInstance, options: { to: string; months: number }, now = new Date()): Promise<NetworkView> {
  const months = monthsUpTo(options.to, options.months);
  const from = monthStart(months[0]);
  const until = monthStart(shift(months[months.length - 1], 1));
  const monthOf = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC') + ${sql.raw(SAST)}, 'YYYY-MM')`;

  const partners = await app.db.select({ id: resellers.id, name: resellers.name }).from(resellers).orderBy(resellers.name);
  const moved = await app.db
    .select({
      reseller_id: resellerCreditTransfers.reseller_id,
      month: monthOf(resellerCreditTransfers.created_at),
      sold: sql<number>`coalesce(sum(case when ${resellerCreditTransfers.cause} like 'order:%' then ${resellerCreditTransfers.credits} else 0 end), 0)::int`,
      given: sql<number>`coalesce(sum(case when ${resellerCreditTransfers.cause} in ('owner-give', 'owner-take') then ${resellerCreditTransfers.credits} else 0 end), 0)::int`,
      spent: sql<number>`coalesce(-sum(case when ${resellerCreditTransfers.cause} like 'line:%' or ${resellerCreditTransfers.cause} like 'line-refund:%' then ${resellerCreditTransfers.credits} else 0 end), 0)::int`,
    })
    .from(resellerCreditTransfers)
    .where(
      and(
        eq(resellerCreditTransfers.status, "done"),
        gte(resellerCreditTransfers.created_at, from),
        lt(resellerCreditTransfers.created_at, until),
      ),
    )
    .groupBy(resellerCreditTransfers.reseller_id, sql`2`);
  const made = await app.db
    .select({ reseller_id: resellerLines.reseller_id, month: monthOf(resellerLines.created_at), lines: sql<number>`count(*)::int` })
    .from(resellerLines)
    .where(and(eq(resellerLines.status, "done"), gte(resellerLines.created_at, from), lt(resellerLines.created_at, until)))
    .groupBy(resellerLines.reseller_id, sql`2`);

  const cell = (id: string, month: string) => ({
    ...(moved.find((r) => r.reseller_id === id && r.month === month) ?? { sold: 0, given: 0, spent: 0 }),
    lines: made.find((r) => r.reseller_id === id && r.month === month)?.lines ?? 0,
  });
  const byMonth = months.map((month) => ({
    month,
    partners: partners.map((p) => {
      const c = cell(p.id, month);
      return { id: p.id, name: p.name, sold: c.sold, given: c.given, spent: c.spent, lines: c.lines };
    }),
  }));

  // All time, per partner: their lines, what they bought and what they spent.
  const [totals, lineTotals] = await Promise.all([
    app.db
      .select({
        reseller_id: resellerCreditTransfers.reseller_id,
        bought: sql<number>`coalesce(sum(case when ${resellerCreditTransfers.cause} like 'order:%' then ${resellerCreditTransfers.credits} else 0 end), 0)::int`,
        spent: sql<number>`coalesce(-sum(case when ${resellerCreditTransfers.cause} like 'line:%' or ${resellerCreditTransfers.cause} like 'line-refund:%' then ${resellerCreditTransfers.credits} else 0 end), 0)::int`,
      })
      .from(resellerCreditTransfers)
      .where(eq(resellerCreditTransfers.status, "done"))
      .groupBy(resellerCreditTransfers.reseller_id),
    app.db
      .select({ reseller_id: resellerLines.reseller_id, lines: sql<number>`count(*)::int` })
      .from(resellerLines)
      .where(eq(resellerLines.status, "done"))
      .groupBy(resellerLines.reseller_id),
  ]);

  return {
    months: byMonth,
    partners: partners.map((p) => ({
      id: p.id,
      name: p.name,
      lines: lineTotals.find((l) => l.reseller_id === p.id)?.lines ?? 0,
      credits_bought: totals.find((t) => t.reseller_id === p.id)?.bought ?? 0,
      credits_spent: totals.find((t) => t.reseller_id === p.id)?.spent ?? 0,
    })),
    runway: await runwayWithPartners(app, now),
  };
}

/**
 * The panel's runway with partners in it: the renewals due in 30 days (computeRunway) plus what
 * partners bought in an average month of the last three (they buy from the owner's balance), as
 * a daily rate the balance lasts `days_left` at.
 */
export async function runwayWithPartners(app: FastifyInstance, now = new Date()): Promise<NetworkView["runway"]> {
  let credits: number | null = null;
  let panelPackages: Awaited<ReturnType<FastifyInstance["provisioning"]["panel"]["packages"]>> = [];
  try {
    resellerPanel(app);
    credits = (await fresh(app).userInfo()).credits;
  } catch {
    credits = null;
  }
  try {
    panelPackages = await app.provisioning.panel.packages();
  } catch {
    panelPackages = [];
  }
  const renewals = await computeRunway(app, credits, panelPackages, now);
  const [bought] = await app.db
    .select({ credits: sql<number>`coalesce(sum(${resellerCreditTransfers.credits}), 0)::int` })
    .from(resellerCreditTransfers)
    .where(
      and(
        eq(resellerCreditTransfers.status, "done"),
        like(resellerCreditTransfers.cause, "order:%"),
        gte(resellerCreditTransfers.created_at, new Date(now.getTime() - 90 * DAY_MS)),
      ),
    );
  const demand = Math.ceil((bought?.credits ?? 0) / 3);
  const needed = renewals.credits_needed_30d === null ? (demand > 0 ? demand : null) : renewals.credits_needed_30d + demand;
  const daysLeft = credits !== null && needed ? Math.max(0, Math.floor(credits / (needed / 30))) : null;
  const runsOut =
    daysLeft !== null && daysLeft < 30 ? new Date(now.getTime() + daysLeft * DAY_MS + 2 * 3_600_000).toISOString().slice(0, 10) : null;
  return {
    owner_credits: credits,
    renewals_due_30d: renewals.renewals_due_30d,
    renewal_credits_30d: renewals.credits_needed_30d,
    partner_demand_30d: demand,
    credits_needed_30d: needed,
    days_left: daysLeft,
    runs_out_on: runsOut,
  };
}
