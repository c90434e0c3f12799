// One chat per person in the owner's "To send on WhatsApp" queue (issue 25, item 8): a person's
// waiting messages come together, oldest first, the person waiting longest first; "Mark all
// sent" marks every message of the group in one call, each audited on its own.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, outbox } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const headers = () => ({ origin: "http://localhost:8080", cookie });
const queue = async () => {
  const response = await t.app.inject({ method: "GET", url: "/api/admin/outbox?status=owner", headers: headers() });
  expect(response.statusCode).toBe(200);
  return response.json().data as { id: string; recipient: string; body: string }[];
};
const markAll = (ids: unknown) =>
  t.app.inject({ method: "POST", url: "/api/admin/outbox/mark-sent", headers: headers(), payload: { ids } });

const T0 = Date.parse("2026-11-22T06:00:00.000Z");
/** A WhatsApp message waiting for the owner, queued `minutes` after T0. */
async function waiting(recipient: string, body: string, minutes: number): Promise<string> {
  const at = new Date(T0 + minutes * 60_000);
  const [row] = await t.app.db
    .insert(outbox)
    .values({ channel: "whatsapp", recipient, body, kind: "test", status: "owner", created_at: at, updated_at: at, next_attempt_at: at })
    .returning({ id: outbox.id });
  return row.id;
}

describe("the owner's queue: one chat per person", () => {
  let thandi: string[];
  let sipho: string;

  beforeAll(async () => {
    // queued out of order, another person's message between Thandi's
    const third = await waiting("27825550101", "Thandi 3: your line is ready", 5);
    sipho = await waiting("27835550202", "Sipho 1: your receipt", 1);
    const first = await waiting("27825550101", "Thandi 1: welcome", 0);
    const second = await waiting("27825550101", "Thandi 2: your receipt", 2);
    thandi = [first, second, third];
  });

  it("lists a person's waiting messages together, oldest first, the longest-waiting person first", async () => {
    const rows = await queue();
    expect(rows.map((r) => r.id)).toEqual([...thandi, sipho]);
    expect(rows.map((r) => r.body.slice(0, 8))).toEqual(["Thandi 1", "Thandi 2", "Thandi 3", "Sipho 1:"]);
  });

  it("refuses a bad list (400) and an unknown message (404), marking nothing", async () => {
    expect((await markAll([])).statusCode).toBe(400);
    expect((await markAll(["not-an-id"])).statusCode).toBe(400);
    expect((await markAll(Array.from({ length: 51 }, () => crypto.randomUUID()))).statusCode).toBe(400);
    expect((await markAll([thandi[0], "00000000-0000-4000-8000-000000000000"])).statusCode).toBe(404);
    const [first] = await t.app.db.select().from(outbox).where(eq(outbox.id, thandi[0]));
    expect(first.status).toBe("owner");
  });

  it("marks all of the person's messages sent in one call: each audited, the others untouched; a second tap changes nothing", async () => {
    const response = await markAll(thandi);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((m: { id: string }) => m.id)).toEqual(thandi);
    expect(data.every((m: { status: string; sent_via: string }) => m.status === "sent" && m.sent_via === "owner")).toBe(true);
    const rows = await t.app.db.select().from(outbox).where(inArray(outbox.id, thandi));
    expect(rows.every((r) => r.status === "sent" && r.sent_at !== null)).toBe(true);

    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "outbox"), eq(auditLog.action, "mark-sent")));
    expect(audits.map((a) => a.resource_id).sort()).toEqual([...thandi].sort());
    expect(audits.every((a) => (a.before as { recipient: string }).recipient === "27825550101")).toBe(true);

    expect((await queue()).map((r) => r.id)).toEqual([sipho]);

    const again = await markAll(thandi);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, "outbox"), eq(auditLog.action, "mark-sent"))),
    ).toHaveLength(3);
  });

  it("is for admins only", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/admin/outbox/mark-sent",
      headers: { origin: "http://localhost:8080" },
      payload: { ids: [sipho] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
