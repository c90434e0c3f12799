// Broadcasts: the count before sending, marketing only to clients who opted in (POPIA s69) with
// how to stop, each client on their own channel, one outbox row per client however often the
// send is retried, spread out at BROADCAST_PER_MINUTE, audited.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, clients, outbox } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { BROADCAST_PER_MINUTE } from "@/shared/broadcast-schemas";

const DAY = 86_400_000;
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  admin = await signInAdmin(t.app);
  const now = Date.now();
  await t.app.db.insert(clients).values([
    {
      password_hash: "x",
      username: "amara",
      full_name: "Amara Opted",
      email: "amara@example.test",
      communication_method: "email",
      marketing_opt_in: true,
      status: "active",
      subscription_end: new Date(now + 40 * DAY),
    },
    {
      password_hash: "x",
      username: "bongi",
      full_name: "Bongi Service",
      whatsapp: "27825550001",
      communication_method: "whatsapp",
      marketing_opt_in: false,
      status: "active",
      subscription_end: new Date(now + 40 * DAY),
    },
    { password_hash: "x", username: "cebo", full_name: "Cebo Nowhere", marketing_opt_in: true, status: "expired" },
    {
      password_hash: "x",
      username: "dudu",
      full_name: "Dudu Soon",
      email: "dudu@example.test",
      whatsapp: "27825550002",
      communication_method: "whatsapp",
      status: "active",
      subscription_end: new Date(now + 3 * DAY),
    },
  ]);
});
afterAll(async () => {
  await t?.close();
});

const preview = (payload: Record<string, unknown>) => admin.call({ method: "POST", url: "/api/admin/broadcasts/preview", payload });
const send = (payload: Record<string, unknown>, key: string) =>
  admin.call({ method: "POST", url: "/api/admin/broadcasts", payload, headers: { "idempotency-key": key } });

describe("POST /api/admin/broadcasts/preview", () => {
  it("counts a service message's reach on each client's channel, and who cannot be reached", async () => {
    const res = await preview({ kind: "service" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      count: 3,
      email: 1,
      whatsapp: 2,
      unreachable: 1,
      notOptedIn: 0,
      sample: ["Amara Opted", "Bongi Service", "Dudu Soon"],
    });
  });

  it("leaves out clients who did not opt in to offers when it is marketing", async () => {
    const data = (await preview({ kind: "marketing" })).json().data;
    expect(data).toMatchObject({ count: 1, email: 1, whatsapp: 0, notOptedIn: 2, unreachable: 1, sample: ["Amara Opted"] });
  });

  it("filters by status and by subscriptions ending within N days", async () => {
    expect((await preview({ kind: "service", status: "expired" })).json().data).toMatchObject({ count: 0, unreachable: 1 });
    expect((await preview({ kind: "service", expiringWithinDays: 7 })).json().data).toMatchObject({ count: 1, sample: ["Dudu Soon"] });
  });

  it("refuses a filter it cannot read, naming the field", async () => {
    const res = await preview({ kind: "spam", expiringWithinDays: -1 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields).sort()).toEqual(["expiringWithinDays", "kind"]);
  });
});

describe("POST /api/admin/broadcasts", () => {
  it("queues marketing only for the opted-in, with how to stop, once however often it is retried, and audits it", async () => {
    const message = { kind: "marketing", subject: "Summer special", body: "3 months for R1,450 this week." };
    const first = await send(message, "summer-1");
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ queued: 1, count: 1 });
    expect((await send(message, "summer-1")).statusCode).toBe(201);
    const rows = await t.app.db.select().from(outbox).where(eq(outbox.kind, "broadcast-marketing"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "email", recipient: "amara@example.test", subject: "Summer special" });
    expect(rows[0].body).toContain("Hi Amara,");
    expect(rows[0].body).toContain("3 months for R1,450 this week.");
    expect(rows[0].body).toContain("To stop, reply STOP");
    const entries = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "broadcast"), eq(auditLog.resource_id, "summer-1")));
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries[0].after).toMatchObject({ kind: "marketing", queued: 1 });
  });

  it("sends a service message to everyone reachable on their own channel, without the marketing footer", async () => {
    expect(
      (await send({ kind: "service", subject: "Maintenance tonight", body: "Streams pause 02:00-02:30." }, "maint-1")).json().data.queued,
    ).toBe(3);
    // (a WhatsApp message also gets an e-mail copy when there is no Cloud API: those are the worker's, not ours)
    const rows = (await t.app.db.select().from(outbox).where(like(outbox.dedupe_key, "broadcast:maint-1:%"))).filter(
      (r) => !r.dedupe_key?.endsWith(":email-copy"),
    );
    expect(rows.map((r) => `${r.channel}:${r.recipient}`).sort()).toEqual([
      "email:amara@example.test",
      "whatsapp:27825550001",
      "whatsapp:27825550002",
    ]);
    for (const row of rows) expect(row.body).not.toContain("STOP");
  });

  it(`spreads a large broadcast out: ${BROADCAST_PER_MINUTE} a minute`, async () => {
    await t.app.db.insert(clients).values(
      Array.from({ length: BROADCAST_PER_MINUTE + 1 }, (_, i) => ({
        password_hash: "x",
        username: `many-${i}`,
        full_name: `Many ${String(i).padStart(2, "0")}`,
        email: `many${i}@example.test`,
        communication_method: "email",
        status: "trial" as const,
      })),
    );
    const res = await send({ kind: "service", status: "trial", subject: "Hello", body: "Welcome." }, "many-1");
    expect(res.json().data).toMatchObject({ queued: BROADCAST_PER_MINUTE + 1, minutes: 2 });
    const rows = await t.app.db.select().from(outbox).where(like(outbox.dedupe_key, "broadcast:many-1:%"));
    const times = rows.map((r) => r.next_attempt_at.getTime()).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(59_000);
    expect(times.filter((at) => at - times[0] < 1000)).toHaveLength(BROADCAST_PER_MINUTE);
  });
});
