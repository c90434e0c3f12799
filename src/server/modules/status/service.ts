// The public status page: components with their current status and a 90-day daily history
// (days in Africa/Johannesburg), recent incidents, scheduled maintenance not yet over (its
// components read "maintenance" while it runs, whatever a check saw), and the overall status of spec §4.
import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { incidents, statusChecks, systemComponents } from "@/server/db/schema";
import type { ComponentStatus, Incident, Maintenance, StatusComponent, StatusDay, StatusResponse } from "@/shared/api";
import { SA_TIME_ZONE } from "@/shared/dates";
import { keysUnderMaintenance, maintenancePhase, overallStatus } from "@/shared/status";

export const HISTORY_DAYS = 90;
/** resolved incidents stay on the page this long */
export const RESOLVED_INCIDENT_DAYS = 14;
/** inlined, not bound: the grouped expression must be textually the same in SELECT and GROUP BY */
const ZONE_SQL = sql.raw(`'${SA_TIME_ZONE}'`);
const DAY_MS = 24 * 60 * 60 * 1000;

/** Rank of each status, worst highest: a day shows the worst status checked that day (same order as shared worstStatus). */
const BY_SEVERITY: ComponentStatus[] = ["operational", "degraded", "maintenance", "down"];

/** A status the page understands; anything unexpected from the monitor reads as degraded. */
function componentStatus(value: string): ComponentStatus {
  return (BY_SEVERITY as string[]).includes(value) ? (value as ComponentStatus) : "degraded";
}

/** The `count` calendar days ending with `lastDay`, oldest first. */
export function daysEnding(lastDay: string, count: number): string[] {
  const last = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(last - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** What the database says for one business day; the per-request part (incident age) is applied by statusAt. */
/** An incident row as the public status page and the portal show it. */
export function incidentView(i: typeof incidents.$inferSelect): Incident {
  return {
    id: i.id,
    title: i.title,
    body: i.body,
    impact: i.impact,
    status: i.status,
    component_keys: Array.isArray(i.component_keys) ? i.component_keys : [],
    started_at: i.started_at.toISOString(),
    resolved_at: i.resolved_at?.toISOString() ?? null,
  };
}

export interface StatusSnapshot {
  components: StatusComponent[];
  incidents: Incident[];
  /** scheduled and in progress, by status; statusAt drops those whose end has passed */
  maintenance: Maintenance[];
  checked_at: string | null;
}

/** Four queries whatever the number of components or days: components, daily check aggregates, incidents, maintenance. */
export async function loadStatus(db: Db, today: string, now: Date): Promise<StatusSnapshot> {
  const days = daysEnding(today, HISTORY_DAYS);
  const day = sql<string>`((${statusChecks.created_at} at time zone ${ZONE_SQL})::date)::text`;
  // A little more than 14 days, so statusAt can apply the exact cut-off at request time.
  const resolvedSince = new Date(now.getTime() - (RESOLVED_INCIDENT_DAYS + 1) * DAY_MS);

  const [componentRows, dailyRows, incidentRows, maintenanceRows] = await Promise.all([
    db.select().from(systemComponents).orderBy(asc(systemComponents.sort_order), asc(systemComponents.name), asc(systemComponents.id)),
    db
      .select({
        component_id: statusChecks.component_id,
        day,
        total: sql<number>`count(*)::int`,
        operational: sql<number>`(count(*) filter (where ${statusChecks.status} = 'operational'))::int`,
        worst: sql<number>`max(case ${statusChecks.status} when 'operational' then 0 when 'degraded' then 1 when 'maintenance' then 2 when 'down' then 3 else 1 end)::int`,
        last_at: sql<Date>`max(${statusChecks.created_at})`.mapWith(statusChecks.created_at),
      })
      .from(statusChecks)
      .where(sql`${statusChecks.created_at} >= (${days[0]}::date)::timestamp at time zone ${ZONE_SQL}`)
      .groupBy(statusChecks.component_id, day),
    db
      .select()
      .from(incidents)
      .where(and(eq(incidents.kind, "incident"), or(isNull(incidents.resolved_at), gte(incidents.resolved_at, resolvedSince))))
      .orderBy(desc(incidents.started_at), desc(incidents.created_at), asc(incidents.id)),
    db
      .select()
      .from(incidents)
      .where(and(eq(incidents.kind, "maintenance"), inArray(incidents.status, ["scheduled", "in_progress"])))
      .orderBy(asc(incidents.started_at), asc(incidents.id)),
  ]);

  const daily = new Map<string, Map<string, (typeof dailyRows)[number]>>();
  const lastCheck = new Map<string, number>();
  for (const row of dailyRows) {
    let byDay = daily.get(row.component_id);
    if (!byDay) {
      byDay = new Map();
      daily.set(row.component_id, byDay);
    }
    byDay.set(row.day, row);
    const last = row.last_at.getTime();
    if (last > (lastCheck.get(row.component_id) ?? Number.NEGATIVE_INFINITY)) lastCheck.set(row.component_id, last);
  }

  const components = componentRows.map((c): StatusComponent => {
    const byDay = daily.get(c.id);
    const history = days.map((date): StatusDay => {
      const row = byDay?.get(date);
      if (!row || row.total === 0) return { date, status: null, uptime: null };
      return { date, status: BY_SEVERITY[row.worst] ?? "degraded", uptime: row.operational / row.total };
    });
    const lastChecked = Math.max(c.last_checked_at?.getTime() ?? Number.NEGATIVE_INFINITY, lastCheck.get(c.id) ?? Number.NEGATIVE_INFINITY);
    return {
      id: c.id,
      key: c.key,
      name: c.name,
      description: c.description,
      // An admin's maintenance flag wins over whatever the monitor last saw.
      status: c.maintenance ? "maintenance" : componentStatus(c.status),
      message: c.message,
      last_checked_at: Number.isFinite(lastChecked) ? new Date(lastChecked).toISOString() : null,
      history,
    };
  });

  // ISO strings of one format compare in time order.
  const checkedAt = components.reduce<string | null>(
    (latest, c) => (c.last_checked_at && (!latest || c.last_checked_at > latest) ? c.last_checked_at : latest),
    null,
  );

  return {
    components,
    incidents: incidentRows.map(incidentView),
    maintenance: maintenanceRows.map((m) => ({
      id: m.id,
      title: m.title,
      body: m.body,
      status: m.status,
      component_keys: Array.isArray(m.component_keys) ? m.component_keys : [],
      starts_at: m.started_at.toISOString(),
      // a maintenance row always has an end (its schema asks for one); a bare row counts as an hour
      ends_at: (m.ends_at ?? new Date(m.started_at.getTime() + 60 * 60 * 1000)).toISOString(),
      resolved_at: m.resolved_at?.toISOString() ?? null,
    })),
    checked_at: checkedAt,
  };
}

/**
 * The response at `now`: unresolved incidents plus those resolved in the last 14 days; maintenance
 * not yet over, soonest first; a component under maintenance in progress reads "maintenance".
 */
export function statusAt(snapshot: StatusSnapshot, now: number): StatusResponse {
  const since = now - RESOLVED_INCIDENT_DAYS * DAY_MS;
  const maintenance = snapshot.maintenance.filter((m) => maintenancePhase(m, now) !== "over");
  const underMaintenance = keysUnderMaintenance(maintenance, now);
  const components = underMaintenance.size
    ? snapshot.components.map((c) => (underMaintenance.has(c.key) ? { ...c, status: "maintenance" as const } : c))
    : snapshot.components;
  const data = components.map((c) => ({ key: c.key, status: c.status }));
  return {
    overall: overallStatus(data),
    data,
    components,
    incidents: snapshot.incidents.filter((i) => i.resolved_at === null || Date.parse(i.resolved_at) >= since),
    maintenance,
    checked_at: snapshot.checked_at,
  };
}
