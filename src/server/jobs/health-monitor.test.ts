import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSession } from "@/server/auth/sessions";
import { testConfig } from "@/server/config";
import { admins, outbox, statusChecks, systemComponents } from "@/server/db/schema";
import { seedComponents } from "@/server/db/seed-content";
import { checkPayments, MESSAGES, RETENTION_DAYS, runChecks, runIfDue } from "@/server/lib/health-monitor";
import { createTestApp, type TestApp } from "@/server/testing";
import { healthMonitorJob } from "./health-monitor";

let t: TestApp;
const checkNow = (headers: Record<string, string> = {}) => t.app.inject({ method: "POST", url: "/api/status/check", headers });
const components = () => t.app.db.select().from(systemComponents);
const byKey = async () => new Map((await components()).map((c) => [c.key, c]));
const checkCount = async () => (await t.app.db.select({ n: sql<number>`count(*)::int` }).from(statusChecks))[0]?.n ?? 0;
/** Make every recorded run look older than the 30 s gate (and free the run claim). */
const ageRuns = async () => {
  await t.app.db.execute(sql`UPDATE status_checks SET created_at = created_at - interval '1 minute'`);
  await t.app.db.execute(sql`DELETE FROM rate_limits WHERE key = 'health-monitor:run'`);
};

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.app.db.delete(statusChecks);
  await t.app.db.delete(outbox);
  await t.app.db.update(systemComponents).set({ maintenance: false, status: "operational", message: "" });
  await t.app.db.execute(sql`DELETE FROM rate_limits WHERE key = 'health-monitor:run'`);
});

describe("health monitor checks", () => {
  it("writes one check per seeded component and updates each component", async () => {
    const before = Date.now();
    await runChecks(t.app);
    const rows = await t.app.db.select().from(statusChecks);
    const comps = await byKey();
    expect(rows).toHaveLength(seedComponents.length);
    expect(new Set(rows.map((r) => r.component_id))).toEqual(new Set([...comps.values()].map((c) => c.id)));
    for (const c of comps.values()) {
      expect(c.last_checked_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const database = comps.get("database");
    expect(database?.status).toBe("operational");
    const dbCheck = rows.find((r) => r.component_id === database?.id);
    expect(dbCheck?.latency_ms).toBeGreaterThanOrEqual(0);
    expect(comps.get("website")?.status).toBe("operational");
    expect(comps.get("payments")).toMatchObject({ status: "operational", message: "Sandbox payments (test mode)" });
    // no SMTP_URL and no WhatsApp token in this app: nothing can send, and that is by design
    expect(comps.get("messaging")).toMatchObject({
      status: "operational",
      message: "Messages are queued for the admin; no transport configured",
    });
  });

  it("leaves a component under maintenance alone, but records it in the history", async () => {
    await t.app.db
      .update(systemComponents)
      .set({ maintenance: true, status: "maintenance", message: "Upgrading the payment page until 14:00" })
      .where(eq(systemComponents.key, "payments"));
    await runChecks(t.app);
    const payments = (await byKey()).get("payments");
    expect(payments).toMatchObject({ status: "maintenance", message: "Upgrading the payment page until 14:00", maintenance: true });
    expect(payments?.last_checked_at).not.toBeNull();
    const [check] = await t.app.db
      .select()
      .from(statusChecks)
      .where(eq(statusChecks.component_id, payments?.id ?? ""));
    expect(check).toMatchObject({ status: "maintenance", message: "Upgrading the payment page until 14:00" });
  });

  it("keeps an unprobed component's status as the admin set it (streaming sits with the upstream provider)", async () => {
    await t.app.db
      .update(systemComponents)
      .set({ status: "degraded", message: "Some sport channels buffer" })
      .where(eq(systemComponents.key, "streaming"));
    await runChecks(t.app);
    const streaming = (await byKey()).get("streaming");
    expect(streaming).toMatchObject({ status: "degraded", message: "Some sport channels buffer" });
    const [check] = await t.app.db
      .select()
      .from(statusChecks)
      .where(eq(statusChecks.component_id, streaming?.id ?? ""));
    expect(check.status).toBe("degraded");
  });

  it("marks messaging degraded when a message failed in the last 24 hours", async () => {
    await t.app.db
      .insert(outbox)
      .values({ channel: "email", recipient: "a@example.co.za", body: "x", kind: "order", status: "failed", attempts: 8 });
    await runChecks(t.app);
    const messaging = (await byKey()).get("messaging");
    expect(messaging).toMatchObject({ status: "degraded", message: MESSAGES.failed });
    const [check] = await t.app.db
      .select()
      .from(statusChecks)
      .where(eq(statusChecks.component_id, messaging?.id ?? ""));
    expect(check.message).toContain("1 failed in the last 24 h");

    // a failure older than a day no longer counts
    await t.app.db.execute(sql`UPDATE outbox SET updated_at = now() - interval '25 hours'`);
    await runChecks(t.app);
    expect((await byKey()).get("messaging")?.status).toBe("operational");
  });

  it("deletes history older than the retention period in the job", async () => {
    const [comp] = await components();
    await t.app.db.insert(statusChecks).values([
      { component_id: comp.id, status: "operational", created_at: new Date(Date.now() - (RETENTION_DAYS + 1) * 86_400_000) },
      { component_id: comp.id, status: "operational", created_at: new Date(Date.now() - (RETENTION_DAYS - 1) * 86_400_000) },
    ]);
    await healthMonitorJob.run(t.app);
    const rows = await t.app.db.select().from(statusChecks).where(eq(statusChecks.component_id, comp.id));
    // the 119-day-old row stays, the 121-day-old one is gone, and the job's own run added one
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.created_at.getTime() > Date.now() - RETENTION_DAYS * 86_400_000)).toBe(true);
  });
});

describe("messaging with an SMTP transport", () => {
  it("is operational when the mail server answers, degraded when it does not or mail waits too long", async () => {
    const server = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], logger: false });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.server.address() as AddressInfo).port;
    const withSmtp = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { database: t.database, seed: false });
    try {
      await runChecks(withSmtp.app);
      let messaging = (await byKey()).get("messaging");
      expect(messaging).toMatchObject({ status: "operational", message: MESSAGES.sending });
      const [ok] = await t.app.db
        .select()
        .from(statusChecks)
        .where(eq(statusChecks.component_id, messaging?.id ?? ""));
      expect(ok.latency_ms).toBeGreaterThanOrEqual(0);

      // an e-mail waiting 20 minutes while a transport exists
      await t.app.db.insert(outbox).values({
        channel: "email",
        recipient: "b@example.co.za",
        body: "x",
        kind: "order",
        created_at: new Date(Date.now() - 20 * 60_000),
        next_attempt_at: new Date(Date.now() + 60 * 60_000),
      });
      await runChecks(withSmtp.app);
      messaging = (await byKey()).get("messaging");
      expect(messaging).toMatchObject({ status: "degraded", message: MESSAGES.delayed });
      await t.app.db.delete(outbox);

      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runChecks(withSmtp.app);
      expect((await byKey()).get("messaging")).toMatchObject({ status: "degraded", message: MESSAGES.delayed });
    } finally {
      await withSmtp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("payments", () => {
  it("reads the provider's configuration", () => {
    expect(checkPayments(testConfig())).toMatchObject({ status: "operational", message: "Sandbox payments (test mode)" });
    expect(checkPayments(testConfig({ IKHOKHA_APP_ID: "app", IKHOKHA_APP_SECRET: "secret", IKHOKHA_ENTITY_ID: "entity" }))).toMatchObject({
      status: "operational",
      message: MESSAGES.ikhokha,
    });
    expect(checkPayments(testConfig({ IKHOKHA_APP_ID: "app", IKHOKHA_APP_SECRET: "secret" })).status).toBe("degraded");
  });
});

describe("POST /api/status/check", () => {
  it("runs, then does not run again within 30 s", async () => {
    const first = await checkNow();
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    const firstBody = first.json();
    expect(firstBody).toMatchObject({ success: true, ran: true });
    expect(Date.parse(firstBody.checked_at)).toBeGreaterThan(Date.now() - 10_000);
    expect(await checkCount()).toBe(seedComponents.length);

    const second = await checkNow();
    expect(second.json()).toEqual({ success: true, ran: false, checked_at: firstBody.checked_at });
    expect(await checkCount()).toBe(seedComponents.length);

    // the job is held back by the same gate
    await healthMonitorJob.run(t.app);
    expect(await checkCount()).toBe(seedComponents.length);

    await ageRuns();
    const third = await checkNow();
    expect(third.json()).toMatchObject({ success: true, ran: true });
    expect(await checkCount()).toBe(2 * seedComponents.length);
  });

  it("runs once when several ask at the same moment", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => runIfDue(t.app)));
    expect(answers.filter((a) => a.ran)).toHaveLength(1);
    expect(await checkCount()).toBe(seedComponents.length);
  });

  it("lets an admin force a run", async () => {
    const [admin] = await t.app.db.insert(admins).values({ email: "owner@example.co.za", password_hash: "x" }).returning();
    const { token } = await createSession(t.app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
    expect((await checkNow()).json().ran).toBe(true);
    expect((await checkNow()).json().ran).toBe(false);
    expect((await checkNow({ origin: "http://localhost:8080", cookie: `sd_admin=${token}` })).json().ran).toBe(true);
    expect(await checkCount()).toBe(2 * seedComponents.length);
    // a bad cookie is just a visitor
    expect((await checkNow({ origin: "http://localhost:8080", cookie: "sd_admin=nonsense" })).json().ran).toBe(false);
  });

  it("refuses a request from another site", async () => {
    const res = await checkNow({ origin: "https://evil.example" });
    expect(res.statusCode).toBe(403);
    expect(await checkCount()).toBe(0);
  });
});
