import { count, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, outbox, statusChecks } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, eventually, type TestApp } from "@/server/testing";

let t: TestApp;
let cookie: string;
let smtp: SMTPServer;
const received: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const address = smtp.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { seed: true });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;
const get = (url: string) => t.app.inject({ method: "GET", url, headers: { origin: "http://localhost:8080", cookie } });
const post = (url: string) => t.app.inject({ method: "POST", url, headers: { origin: "http://localhost:8080", cookie } });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe("GET /api/admin/outbox", () => {
  beforeAll(async () => {
    await t.app.db.insert(outbox).values([
      {
        channel: "email",
        recipient: "a@example.test",
        subject: "Your order",
        body: "…",
        kind: "order",
        status: "sent",
        created_at: minutesAgo(50),
      },
      { channel: "whatsapp", recipient: "27820000001", body: "…", kind: "instructions", status: "pending", created_at: minutesAgo(40) },
      {
        channel: "email",
        recipient: "b@example.test",
        subject: "100% ready",
        body: "…",
        kind: "receipt",
        status: "failed",
        attempts: 8,
        last_error: "550 mailbox unavailable",
        next_attempt_at: minutesAgo(1),
        created_at: minutesAgo(30),
      },
      {
        channel: "email",
        recipient: "c@example.test",
        subject: "Welcome",
        body: "…",
        kind: "order",
        status: "sent",
        created_at: minutesAgo(20),
      },
    ]);
  });

  it("lists every message newest first with its state, attempts and last error", async () => {
    const res = await get("/api/admin/outbox");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Json[]; total: number };
    expect(body.total).toBe(4);
    expect(body.data.map((m) => m.recipient)).toEqual(["c@example.test", "b@example.test", "27820000001", "a@example.test"]);
    expect(body.data[1]).toMatchObject({ status: "failed", attempts: 8, last_error: "550 mailbox unavailable", channel: "email" });
  });

  it("filters by status, channel and search text, and pages", async () => {
    const recipients = async (query: string) => ((await get(`/api/admin/outbox?${query}`)).json().data as Json[]).map((m) => m.recipient);
    expect(await recipients("status=sent")).toEqual(["c@example.test", "a@example.test"]);
    expect(await recipients("channel=whatsapp")).toEqual(["27820000001"]);
    expect(await recipients("q=B@EXAMPLE")).toEqual(["b@example.test"]);
    // '%' is searched for, not a wildcard
    expect(await recipients("q=100%25")).toEqual(["b@example.test"]);
    expect(await recipients("q=instructions")).toEqual(["27820000001"]);
    expect(await recipients("status=sent&channel=email&q=welcome")).toEqual(["c@example.test"]);
    const page2 = (await get("/api/admin/outbox?page=2&pageSize=3")).json();
    expect(page2).toMatchObject({ total: 4 });
    expect((page2.data as Json[]).map((m) => m.recipient)).toEqual(["a@example.test"]);
  });

  it("refuses bad filters with a 400 naming them", async () => {
    for (const [query, field] of [
      ["status=lost", "status"],
      ["channel=fax", "channel"],
      ["pageSize=500", "pageSize"],
      ["page=0", "page"],
    ]) {
      const res = await get(`/api/admin/outbox?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().error.fields), query).toEqual([field]);
    }
  });
});

describe("POST /api/admin/outbox/:id/retry", () => {
  it("sends a failed message again: pending, attempts reset, due now, then delivered", async () => {
    const [failed] = await t.app.db
      .insert(outbox)
      .values({
        channel: "email",
        recipient: "retry@example.test",
        subject: "Login details",
        body: "Here they are.",
        kind: "credentials",
        status: "failed",
        attempts: 8,
        last_error: "connection refused",
        next_attempt_at: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const res = await post(`/api/admin/outbox/${failed.id}/retry`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: failed.id, status: "pending", attempts: 0 });
    expect(Math.abs(Date.parse(data.next_attempt_at) - Date.now())).toBeLessThan(10_000);

    // the worker was nudged: the message goes out without waiting for its old backoff
    await eventually(async () => {
      const [row] = await t.app.db.select().from(outbox).where(eq(outbox.id, failed.id));
      expect(row.status).toBe("sent");
    }, 10_000);
    expect(received).toContain("retry@example.test");

    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, failed.id));
    expect(entry).toMatchObject({
      action: "retry",
      resource: "outbox",
      before: { status: "failed", attempts: 8 },
      after: { status: "pending", attempts: 0 },
    });
  });

  it("leaves sent and sending messages alone (409) and answers 404 for unknown ids", async () => {
    const [sent] = await t.app.db
      .insert(outbox)
      .values({ channel: "email", recipient: "x@example.test", body: "x", status: "sent" })
      .returning();
    const [sending] = await t.app.db
      .insert(outbox)
      .values({ channel: "email", recipient: "y@example.test", body: "y", status: "sending" })
      .returning();
    expect((await post(`/api/admin/outbox/${sent.id}/retry`)).json().error).toEqual({
      code: "conflict",
      message: "This message was already sent.",
    });
    expect((await post(`/api/admin/outbox/${sending.id}/retry`)).statusCode).toBe(409);
    for (const id of ["00000000-0000-4000-8000-000000000000", "abc"]) {
      expect((await post(`/api/admin/outbox/${id}/retry`)).statusCode).toBe(404);
    }
  });
});

describe("GET /api/admin/audit", () => {
  it("lists audit entries newest first, filtered by resource, with a total", async () => {
    for (const title of ["First", "Second", "Third"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/banners",
        headers: { origin: "http://localhost:8080", cookie },
        payload: { title },
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await get("/api/admin/audit?resource=banners&pageSize=2");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Json[]; total: number };
    expect(body.total).toBe(3);
    expect(body.data.map((e) => e.after.title)).toEqual(["Third", "Second"]);
    expect(body.data.every((e) => e.resource === "banners" && e.action === "create" && e.admin_email.endsWith("@example.test"))).toBe(true);
    const page2 = (await get("/api/admin/audit?resource=banners&pageSize=2&page=2")).json();
    expect((page2.data as Json[]).map((e) => e.after.title)).toEqual(["First"]);
    const all = (await get("/api/admin/audit")).json();
    expect(all.total).toBeGreaterThan(3);
  });

  it("names the client an entry is about, even when the entry itself holds only ids and dates", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/admin/clients",
      headers: { origin: "http://localhost:8080", cookie },
      payload: { username: "audit-naming", full_name: "Thandi Audit", email: "thandi@example.test", communication_method: "email" },
    });
    expect(created.statusCode).toBe(201);
    const clientId = created.json().client.id as string;
    const granted = await t.app.inject({
      method: "POST",
      url: `/api/admin/clients/${clientId}/grant`,
      headers: { origin: "http://localhost:8080", cookie, "idempotency-key": "audit-naming-grant" },
      payload: { days: 3, reason: "Goodwill after an outage" },
    });
    expect(granted.statusCode).toBeLessThan(300);
    const entries = ((await get("/api/admin/audit?resource=clients&pageSize=50")).json().data as Json[]).filter(
      (e) => e.resource_id === clientId,
    );
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries.every((e) => e.record_name === "Thandi Audit")).toBe(true);
  });
});

describe("POST /api/admin/status/check", () => {
  it("runs the health monitor every time an admin asks (no 30-second wait)", async () => {
    const checks = async () => (await t.app.db.select({ n: count() }).from(statusChecks))[0].n;
    const before = await checks();
    for (let i = 0; i < 2; i++) {
      const res = await post("/api/admin/status/check");
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, ran: true, checked_at: expect.any(String) });
    }
    // five seeded components, two runs
    expect((await checks()) - before).toBe(10);
    // the public endpoint, asked right after, does not run again
    const anonymous = await t.app.inject({ method: "POST", url: "/api/status/check" });
    expect(anonymous.json().ran).toBe(false);
  });
});
