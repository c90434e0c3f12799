// Scheduled maintenance moves on by the clock (issue 13 item 5; docs/architecture.md,
// "Integrations"): every minute, a window whose start has come is marked in progress, and one
// whose end has passed is marked completed. Each is one conditional UPDATE, so however many
// processes run this, a window moves once; the row's change reaches status subscribers through
// the change feed (modules/status/subscriptions.ts), deduped by the row's updated_at.
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { incidents } from "@/server/db/schema";

export async function runMaintenanceClock(app: FastifyInstance, now: Date = new Date()): Promise<{ started: number; completed: number }> {
  const completed = await app.db
    .update(incidents)
    .set({ status: "completed", resolved_at: sql`${incidents.ends_at}`, updated_at: now })
    .where(and(eq(incidents.kind, "maintenance"), inArray(incidents.status, ["scheduled", "in_progress"]), lte(incidents.ends_at, now)))
    .returning({ id: incidents.id });
  const started = await app.db
    .update(incidents)
    .set({ status: "in_progress", updated_at: now })
    .where(
      and(eq(incidents.kind, "maintenance"), eq(incidents.status, "scheduled"), lte(incidents.started_at, now), gt(incidents.ends_at, now)),
    )
    .returning({ id: incidents.id });
  if (started.length || completed.length) app.log.info({ started: started.length, completed: completed.length }, "maintenance clock");
  return { started: started.length, completed: completed.length };
}

export const maintenanceJob = { name: "maintenance-clock", everyMs: 60_000, run: (app: FastifyInstance) => runMaintenanceClock(app) };
