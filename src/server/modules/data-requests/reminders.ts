// Reminders of open privacy requests (POPIA s24; issue 46 item 7): the owner is alerted once when a
// request has REMIND_DAYS_BEFORE days left, and once when it is overdue (each its own dedupe key, so
// several processes or runs alert once). Run by jobs/index.ts every few hours.
import { and, eq, lt } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { clients, dataRequests } from "@/server/db/schema";
import { alertOwner } from "@/server/lib/owner-alerts";
import { DATA_REQUEST_KIND_LABELS, type DataRequestKind } from "@/shared/data-request-schemas";
import { formatDate } from "@/shared/dates";

export const REMIND_DAYS_BEFORE = 7;
const EVERY_MS = 3 * 3_600_000;

/** Queues the reminders now due; returns how many requests were reminded of. */
export async function remindOfDataRequests(app: FastifyInstance, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + REMIND_DAYS_BEFORE * 86_400_000);
  const rows = await app.db
    .select({ id: dataRequests.id, kind: dataRequests.kind, due_at: dataRequests.due_at, name: clients.full_name })
    .from(dataRequests)
    .innerJoin(clients, eq(clients.id, dataRequests.client_id))
    .where(and(eq(dataRequests.status, "open"), lt(dataRequests.due_at, soon)));
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
  let queued = 0;
  for (const row of rows) {
    const overdue = row.due_at.getTime() < now.getTime();
    const what = DATA_REQUEST_KIND_LABELS[row.kind as DataRequestKind].toLowerCase();
    queued += await alertOwner(app, app.db, {
      cause: "privacy-request",
      dedupeKey: `owner-alert:privacy-request:${row.id}:${overdue ? "overdue" : `${REMIND_DAYS_BEFORE}d`}`,
      subject: overdue
        ? `Overdue privacy request: ${row.name}'s ${what} was due ${formatDate(row.due_at)}`
        : `Privacy request due ${formatDate(row.due_at)}: ${row.name}'s ${what}`,
      body: [
        overdue
          ? `${row.name}'s ${what} request was due ${formatDate(row.due_at)} and is still open. POPIA expects an answer as soon as reasonably practicable.`
          : `${row.name}'s ${what} request is due ${formatDate(row.due_at)}.`,
        "",
        `Correct, refuse with a reason, or erase here: ${publicUrl}/admin/privacy-requests`,
      ].join("\n"),
    });
  }
  if (queued) app.outbox.nudge();
  return rows.length;
}

export const dataRequestRemindersJob = { name: "data-request-reminders", everyMs: EVERY_MS, run: remindOfDataRequests };
