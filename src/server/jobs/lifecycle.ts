// Moves clients through the end of their term on time: a trial or paid term whose end has
// passed ends (paid → grace, trial → expired), and a grace period whose days have passed
// expires. Every change goes through the lifecycle module with a cause key made of the client
// and the end it is about, so however many processes run this job, and however often, each
// term ends once; a renewal moves the end, and the new term gets its own key.
// A term that ends tells the client in the same transaction: the "subscription ended" / "trial
// ended" notice (queueEndedNotice in jobs/reminders.ts), so it arrives as the line stops, once.
import { and, eq, inArray, isNotNull, lte, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { clients } from "@/server/db/schema";
import { applyChange, JOB_ACTOR, loadRules } from "@/server/lib/lifecycle";
import type { Cause } from "@/shared/lifecycle";
import { loadEndedNoticeContext, queueEndedNotice } from "./reminders";

const EVERY_MS = 60_000;
/** Clients looked at per run; the rest are reached on the next run. */
const BATCH = 500;
const DAY_MS = 86_400_000;

/** One pass at `now` (tests move the clock). Returns how many clients changed. */
export async function runLifecycle(app: FastifyInstance, now: Date = new Date()): Promise<{ ended: number; expired: number }> {
  const rules = await loadRules(app);
  const graceCutoff = new Date(now.getTime() - rules.graceDays * DAY_MS);
  const due = await app.db
    .select({ id: clients.id, status: clients.status, end: clients.subscription_end })
    .from(clients)
    .where(
      and(
        isNotNull(clients.subscription_end),
        or(
          and(inArray(clients.status, ["active", "trial"]), lte(clients.subscription_end, now)),
          and(eq(clients.status, "grace"), lte(clients.subscription_end, graceCutoff)),
        ),
      ),
    )
    .orderBy(clients.subscription_end)
    .limit(BATCH);

  let ended = 0;
  let expired = 0;
  let notices = 0;
  // Read before the transactions: PGlite has one connection, which a transaction holds.
  const notice = due.length ? await loadEndedNoticeContext(app, now) : null;
  for (const row of due) {
    const cause: Cause = row.status === "grace" ? { kind: "grace-ended" } : { kind: "term-ended" };
    const end = (row.end as Date).toISOString();
    let result: Awaited<ReturnType<typeof applyChange>>;
    try {
      result = await app.db.transaction(async (tx) => {
        const change = await applyChange(tx, {
          clientId: row.id,
          cause,
          causeKey: `${cause.kind}:${row.id}:${end}`,
          actor: JOB_ACTOR,
          rules,
          now,
        });
        // The end of a term (not of its grace days, told at the term's end) is told as it happens.
        if (change.applied && cause.kind === "term-ended" && notice && (await queueEndedNotice(tx, change.before, change.client, notice)))
          notices++;
        return change;
      });
    } catch (error) {
      // One client's failure (deleted since the scan, say) must not hold up the others.
      app.log.warn({ err: error, client: row.id }, "client lifecycle step failed");
      continue;
    }
    if (!result.applied) continue; // another process did it, or a renewal since the scan wins
    if (result.client.status === "expired") expired++;
    else ended++;
  }
  if (notices) app.outbox.nudge();
  if (ended || expired) app.log.info({ ended, expired, notices }, "client terms moved on");
  return { ended, expired };
}

export const lifecycleJob = {
  name: "client-lifecycle",
  everyMs: EVERY_MS,
  run: (app: FastifyInstance) => runLifecycle(app),
};
