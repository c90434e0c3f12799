// How long the reseller's panel credits last (issue 32 item 6): the renewals due in the next 30
// days (active and grace clients whose term ends by then), each priced at its mapped panel
// package's credits, taken in date order from the balance the panel reports; `runs_out_on` is
// the day of the first renewal the balance no longer covers (null: it covers them all). The
// nightly sync (jobs/panel-sync.ts) e-mails the owner once per such day when it is within the
// panel_runway_alert_days setting (default 7).
import { and, asc, inArray, isNull, lte } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { PanelPackage } from "@/server/adapters/panel/panel";
import { SANDBOX_PACKAGES } from "@/server/adapters/panel/sandbox";
import { clients, packages, panelCreditLedger, panelPackageMap } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { enqueue } from "@/server/lib/outbox";
import { alertsEmail } from "@/server/lib/owner-alerts";
import { formatDate } from "@/shared/dates";

export const RUNWAY_ALERT_SETTING = "panel_runway_alert_days";
export const RUNWAY_ALERT_DEFAULT = 7;
const HORIZON_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Runway {
  /** the day (YYYY-MM-DD) of the first renewal the credits no longer cover; null when they cover all in 30 days, or when the balance is not known */
  runs_out_on: string | null;
  renewals_due_30d: number;
  /** what those renewals cost on the panel; null when no price is known (manual mode, a panel that could not be read, nothing mapped) */
  credits_needed_30d: number | null;
  /** whether the panel reported a balance: without one (manual mode) the runway is unknown, not "0 credits" */
  credits_known: boolean;
}

/** The alert setting: whole days, else the default. */
export function runwayAlertDays(settings: Record<string, string | undefined>): number {
  const text = (settings[RUNWAY_ALERT_SETTING] ?? "").trim();
  return /^\d{1,3}$/.test(text) ? Number(text) : RUNWAY_ALERT_DEFAULT;
}

/** The runway from `credits` (null: a panel that does not count credits) and the panel's packages. */
export async function computeRunway(
  app: FastifyInstance,
  credits: number | null,
  panelPackages: PanelPackage[],
  now = new Date(),
): Promise<Runway> {
  const horizon = new Date(now.getTime() + HORIZON_DAYS * DAY_MS);
  const due = await app.db
    .select({ end: clients.subscription_end, package_id: clients.package_id })
    .from(clients)
    .where(and(inArray(clients.status, ["active", "grace"]), lte(clients.subscription_end, horizon), isNull(clients.merged_into)))
    .orderBy(asc(clients.subscription_end));
  const priceOf = await packagePrices(app, panelPackages);
  let left = credits;
  let runsOut: string | null = null;
  let needed = 0;
  let priced = 0;
  for (const renewal of due) {
    const price = renewal.package_id ? priceOf.get(renewal.package_id) : undefined;
    if (price !== undefined) priced++;
    const cost = price ?? 0;
    needed += cost;
    if (left === null || runsOut) continue;
    left -= cost;
    if (left < 0) {
      const on = renewal.end && renewal.end > now ? renewal.end : now;
      // The day in South Africa (UTC+2 all year).
      runsOut = new Date(on.getTime() + 2 * 3_600_000).toISOString().slice(0, 10);
    }
  }
  return {
    runs_out_on: runsOut,
    renewals_due_30d: due.length,
    credits_needed_30d: priced > 0 || due.length === 0 ? needed : null,
    credits_known: credits !== null,
  };
}

/** Our package id → what renewing it costs on the panel (its mapped package's credits). */
async function packagePrices(app: FastifyInstance, panelPackages: PanelPackage[]): Promise<Map<string, number>> {
  const byId = new Map(panelPackages.map((p) => [p.id, p.official_credits]));
  const prices = new Map<string, number>();
  for (const m of await app.db.select().from(panelPackageMap)) {
    const cost = byId.get(m.panel_package_id);
    if (cost !== undefined) prices.set(m.package_id, cost);
  }
  // The sandbox panel maps by length when nothing is mapped (as the worker does).
  if (app.provisioning.panel.mode === "sandbox") {
    for (const p of await app.db.select({ id: packages.id, months: packages.duration_months }).from(packages)) {
      const found = SANDBOX_PACKAGES.find((s) => !s.is_trial && s.official_duration === p.months);
      if (!prices.has(p.id) && found) prices.set(p.id, found.official_credits);
    }
  }
  return prices;
}

/**
 * The owner's alert: when the credits run out within the alert days, one e-mail to the alerts
 * e-mail per run-out day (dedupe panel-runway:<day>), saying when, how many renewals and credits.
 */
export async function runwayAlert(app: FastifyInstance, now = new Date()): Promise<boolean> {
  const panel = app.provisioning.panel;
  if (panel.mode !== "xtream") return false;
  const [{ credits }, panelPackages, business] = await Promise.all([panel.userInfo(), panel.packages(), loadBusiness(app)]);
  const runway = await computeRunway(app, credits, panelPackages, now);
  const ownerEmail = await alertsEmail(app.db);
  if (!runway.runs_out_on || !ownerEmail) return false;
  const days = runwayAlertDays(business.settings);
  const until = (new Date(`${runway.runs_out_on}T00:00:00+02:00`).getTime() - now.getTime()) / DAY_MS;
  if (until > days) return false;
  const day = formatDate(new Date(`${runway.runs_out_on}T12:00:00+02:00`));
  // Once per run-out day: the dedupe key makes a second night's (or process's) alert a no-op.
  await enqueue(app.db, {
    channel: "email",
    recipient: ownerEmail,
    subject: `Panel credits run out on ${day}`,
    body: [
      `Your panel has ${credits} credits. The ${runway.renewals_due_30d} renewals due in the next 30 days need ${runway.credits_needed_30d}, so the credits run out on ${day}: renewals after that fail until you top up.`,
      "",
      `Top up your reseller credits on the panel, then check the balance here: ${business.publicUrl}/admin/panel`,
    ].join("\n"),
    kind: "panel-runway",
    client_id: null,
    dedupe_key: `panel-runway:${runway.runs_out_on}`,
  });
  app.outbox.nudge();
  return true;
}

/** What a ledger row says the panel took: null when a balance around it could not be read. */
export function chargedBy(row: Pick<typeof panelCreditLedger.$inferSelect, "credits_before" | "credits_after">): number | null {
  return row.credits_before === null || row.credits_after === null ? null : row.credits_before - row.credits_after;
}

/**
 * The ledger's totals: what the panel took in the last 30 days (rows whose balances were read),
 * the last balance it recorded, the rows off the package's price, and the rows with something
 * unknown (a balance or the price not read: their note says why).
 */
export async function ledgerSummary(app: FastifyInstance, now = new Date()) {
  const since = new Date(now.getTime() - HORIZON_DAYS * DAY_MS);
  const rows = await app.db.select().from(panelCreditLedger).orderBy(asc(panelCreditLedger.created_at));
  const recent = rows.filter((r) => r.created_at >= since);
  return {
    entries_30d: recent.length,
    charged_30d: recent.reduce((sum, r) => sum + (chargedBy(r) ?? 0), 0),
    last_balance: rows.findLast((r) => r.credits_after !== null)?.credits_after ?? null,
    /** rows where the panel took other than the package's price (a top-up or other spending between the reads) */
    mismatched: rows.filter((r) => r.outcome !== "refused" && r.cost !== null && chargedBy(r) !== null && chargedBy(r) !== r.cost).length,
    /** rows with a balance or the price unknown (a read failed) */
    unknown: rows.filter((r) => r.cost === null || chargedBy(r) === null).length,
  };
}
