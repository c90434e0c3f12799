// The lifecycle job: ended terms move to grace (paid) or expired (trial), grace runs out into
// expired after the settings' grace days, each exactly once however often and however many
// runs at once; a renewal since the scan wins (on PostgreSQL, where it can come between); every change is in the history and the audit.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, clientLifecycleEvents, clients, siteSettings } from "@/server/db/schema";
import { applyChange, JOB_ACTOR, loadRules } from "@/server/lib/lifecycle";
import { waitForLockWaiters } from "@/server/test-support/race";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import { jobs } from ".";
import { runLifecycle } from "./lifecycle";

const DAY = 86_400_000;
const HOUR = 3_600_000;

let t: TestApp;
const ids: Record<string, string> = {};
let now: Date;

async function client(name: string, status: string, endOffset: number | null) {
  const [row] = await t.app.db
    .insert(clients)
    .values({
      username: name,
      full_name: name,
      password_hash: "x",
      status,
      subscription_end: endOffset === null ? null : new Date(now.getTime() + endOffset),
    })
    .returning({ id: clients.id });
  ids[name] = row.id;
}

const statusOf = async (name: string) => (await t.app.db.select().from(clients).where(eq(clients.id, ids[name])))[0].status;
const eventsOf = (name: string) => t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, ids[name]));

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  now = new Date();
  await client("paid.ended", "active", -HOUR);
  await client("trial.ended", "trial", -HOUR);
  await client("paid.running", "active", 5 * DAY);
  await client("pending", "pending", null);
  await client("suspended", "suspended", -10 * DAY);
  await client("long.gone", "active", -40 * DAY);
});
afterAll(async () => {
  await t?.close();
});

describe("runLifecycle", () => {
  it("is one of the server's jobs, every minute", () => {
    expect(jobs.find((j) => j.name === "client-lifecycle")?.everyMs).toBe(60_000);
  });

  it("ends paid terms into grace and trials into expired; leaves running, pending and suspended clients alone", async () => {
    // Five runs at once, as five server processes would: each change happens once.
    const results = await Promise.all(Array.from({ length: 5 }, () => runLifecycle(t.app, now)));
    const total = results.reduce((sum, r) => ({ ended: sum.ended + r.ended, expired: sum.expired + r.expired }), { ended: 0, expired: 0 });
    expect(total).toEqual({ ended: 1, expired: 2 });
    expect(await statusOf("paid.ended")).toBe("grace");
    expect(await statusOf("trial.ended")).toBe("expired");
    // Past its end and its grace days by far: straight to expired.
    expect(await statusOf("long.gone")).toBe("expired");
    expect(await statusOf("paid.running")).toBe("active");
    expect(await statusOf("pending")).toBe("pending");
    expect(await statusOf("suspended")).toBe("suspended");

    const [event] = await eventsOf("paid.ended");
    expect(event).toMatchObject({ cause: "term-ended", status_before: "active", status_after: "grace", actor: "scheduled job" });
    expect(await eventsOf("paid.ended")).toHaveLength(1);
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, ids["paid.ended"]));
    expect(audits.map((a) => a.action)).toEqual(["term-ended"]);
  });

  it("expires a grace period after the grace days (3 by default), once", async () => {
    await runLifecycle(t.app, new Date(now.getTime() + 2 * DAY));
    expect(await statusOf("paid.ended")).toBe("grace");
    const after = new Date(now.getTime() - HOUR + 3 * DAY);
    await Promise.all([runLifecycle(t.app, after), runLifecycle(t.app, after)]);
    expect(await statusOf("paid.ended")).toBe("expired");
    expect((await eventsOf("paid.ended")).map((e) => e.cause).sort()).toEqual(["grace-ended", "term-ended"]);
  });

  it("reads the grace days from the settings (0: a paid term ends straight into expired)", async () => {
    await t.app.db.update(siteSettings).set({ value: "0" }).where(eq(siteSettings.key, "grace_days"));
    try {
      await client("no.grace", "active", -HOUR);
      // The setting reaches the server's cache through the change feed.
      await eventually(async () => {
        await runLifecycle(t.app, now);
        expect(await statusOf("no.grace")).toBe("expired");
      }, 5000);
    } finally {
      await t.app.db.update(siteSettings).set({ value: "3" }).where(eq(siteSettings.key, "grace_days"));
    }
  });

  it("a client renewed before the run (the term runs again) is left alone: nothing applied, nothing in the history", async () => {
    await client("renewed", "active", -HOUR);
    // The renewal is written before the run, so the run's scan does not even find the client; the
    // renewal arriving after the scan is the PostgreSQL test below.
    await t.app.db
      .update(clients)
      .set({ subscription_end: new Date(now.getTime() + 30 * DAY) })
      .where(eq(clients.id, ids.renewed));
    await runLifecycle(t.app, now);
    expect(await statusOf("renewed")).toBe("active");
    expect(await eventsOf("renewed")).toHaveLength(0);
  });

  // Two processes: the job (its scan done, the client found due) and a payment's renewal through
  // the lifecycle module on another connection. PGlite is one connection: nothing can happen
  // between the scan and the step there, so this runs on PostgreSQL.
  it.runIf(onPostgres())(
    "PostgreSQL (PGlite has one connection: nothing races there): a renewal committed after the job's scan found the term ended wins: the job's step waits for it, and the old end's cause no longer applies",
    async () => {
      await client("renewed.racing", "active", -HOUR);
      const rules = await loadRules(t.app);
      let job: ReturnType<typeof runLifecycle> | null = null;
      // The renewal's transaction holds the client's row; the job, started meanwhile, scans (the
      // term has ended) and then waits for that row in its step; the renewal commits only then.
      const renewal = await t.app.db.transaction(async (tx) => {
        const renewed = await applyChange(tx, {
          clientId: ids["renewed.racing"],
          cause: { kind: "payment-captured", months: 1 },
          causeKey: `payment:race-test:${ids["renewed.racing"]}`,
          actor: JOB_ACTOR,
          rules,
        });
        job = runLifecycle(t.app, now);
        await waitForLockWaiters(t.database.url as string, 1);
        return renewed;
      });
      expect(renewal.applied).toBe(true);
      expect(await job).toEqual({ ended: 0, expired: 0 });
      expect(await statusOf("renewed.racing")).toBe("active");
      expect((await eventsOf("renewed.racing")).map((e) => e.cause)).toEqual(["payment-captured"]);
    },
  );
});
