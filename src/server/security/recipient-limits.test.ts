// Issue 30, item 3: messages a stranger can cause to someone else's address or number are limited
// per recipient (3 an hour, all kinds together), not only per sender: status-update sign-ups and
// order/interest confirmations from many addresses naming one victim queue at most 3 to them,
// while every form still answers as usual (a refusal would tell the stranger something). And the
// names that go into those messages are names: no links, no line breaks, at most 80 characters.
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/rows";
import { outbox } from "@/server/db/schema";
import { RECIPIENT_LIMIT_PER_HOUR, STRANGER_MESSAGE_KINDS } from "@/server/lib/rate-limit";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { paidOrder } from "@/server/modules/orders/test-helpers";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { NAME_FORMAT_MESSAGE } from "@/shared/schemas";

const ORIGIN = "http://localhost:8080";
let t: TestApp;
let n = 0;
let packageId: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  // the shop's first admin: the business's notes go to their address (the alerts e-mail)
  await createAdmin(t.app);
  const [active] = await queryRows<{ id: string }>(t.app.db, sql`SELECT id FROM packages WHERE is_active LIMIT 1`);
  packageId = active.id;
});
afterAll(async () => {
  await t?.close();
});

const nextIp = () => `10.31.${Math.floor(++n / 250)}.${n % 250}`;
const post = (url: string, payload: unknown, app = t.app) =>
  app.inject({
    method: "POST",
    url,
    payload: JSON.stringify(payload),
    headers: { "content-type": "application/json", origin: ORIGIN },
    remoteAddress: nextIp(),
  });

const order = (overrides: Record<string, unknown> = {}) =>
  paidOrder(
    { name: `Thandi Mokoena ${++n}`, email: `thandi${n}@example.co.za`, whatsapp: `083 556 ${String(1000 + (n % 9000))}` },
    overrides,
  );
const interest = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Lerato",
  lastName: `Nkosi ${++n}`,
  email: `lerato${n}@example.co.za`,
  whatsapp: `+27 84 556 ${String(1000 + (n % 9000))}`,
  communicationMethod: "whatsapp",
  packageName: "Month to Month",
  packagePrice: 650,
  duration: "1 Month",
  marketingOptIn: false,
  ...overrides,
});

async function queuedTo(recipient: string) {
  const rows = await t.app.db
    .select({ kind: outbox.kind })
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), inArray(outbox.kind, [...STRANGER_MESSAGE_KINDS])));
  return rows.length;
}

describe("messages to one recipient", () => {
  it("queues at most 3 status-update confirmations to one address, however many addresses ask together (taking turns on PGlite's one connection)", async () => {
    const victim = "victim-status@example.co.za";
    const answers = await Promise.all(Array.from({ length: 12 }, () => post("/api/status/subscribe", { email: victim })));
    for (const r of answers) expect(r.statusCode).toBe(202);
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(await queuedTo(victim)).toBe(RECIPIENT_LIMIT_PER_HOUR);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): status-update sign-ups naming one address on two processes at the same moment queue at most 3; every one answered alike",
    async () => {
      const other = await secondProcess(t);
      try {
        const victim = "victim-status-pg@example.co.za";
        // four a process, each count of the recipient waiting behind the lock on rate_limits, then all go
        const sides = await startTogether(t.database.url as string, "LOCK TABLE rate_limits IN EXCLUSIVE MODE", 8, () =>
          Promise.all(
            [t.app, other.app].map((app) => Promise.all([0, 1, 2, 3].map(() => post("/api/status/subscribe", { email: victim }, app)))),
          ),
        );
        for (const side of sides) expect(side.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
        expect(new Set(sides.flat().map((r) => r.body)).size).toBe(1);
        expect(await queuedTo(victim)).toBe(RECIPIENT_LIMIT_PER_HOUR);
      } finally {
        await other.close();
      }
    },
  );

  it("queues at most 3 order confirmations to one address; every order is still saved and the business still hears", async () => {
    const victim = "victim-orders@example.co.za";
    const answers = await Promise.all(Array.from({ length: 10 }, () => post("/api/orders", order({ email: victim }))));
    for (const r of answers) expect(r.statusCode, r.body).toBe(201);
    expect(await queuedTo(victim)).toBe(RECIPIENT_LIMIT_PER_HOUR);
    const ids = answers.map((r) => r.json().id as string);
    const business = await t.app.db
      .select()
      .from(outbox)
      .where(and(inArray(outbox.lead_id, ids), eq(outbox.kind, "order")));
    expect(business).toHaveLength(10);
  });

  it("counts all kinds together: interest confirmations to a number, then an order to a victim already at the cap", async () => {
    const number = "+27 84 557 0001";
    const answers = await Promise.all(Array.from({ length: 6 }, () => post("/api/interest", interest({ whatsapp: number }))));
    for (const r of answers) expect(r.statusCode, r.body).toBe(201);
    expect(await queuedTo("27845570001")).toBe(RECIPIENT_LIMIT_PER_HOUR);

    const victim = "victim-mixed@example.co.za";
    for (let i = 0; i < 2; i++) expect((await post("/api/status/subscribe", { email: victim })).statusCode).toBe(202);
    for (let i = 0; i < 3; i++) expect((await post("/api/orders", order({ email: victim }))).statusCode).toBe(201);
    expect(await queuedTo(victim)).toBe(RECIPIENT_LIMIT_PER_HOUR);
  });
});

describe("names are names", () => {
  const BAD = [
    "Hi there. Your line is blocked: pay R99 at https://evil.example/pay",
    "Thandi\nYour line is blocked",
    "Thandi\r\nMokoena",
    "visit www.evil",
    "see evil.example/pay",
    "evil.example",
    "x".repeat(81),
  ];

  it("refuses links, line breaks and more than 80 characters in the order's name, the interest's names and the payer's name: 400 on the field", async () => {
    for (const name of BAD) {
      const message = name.length > 80 ? /80 characters or fewer/ : new RegExp(NAME_FORMAT_MESSAGE);
      const o = await post("/api/orders", order({ name }));
      expect(o.statusCode, name).toBe(400);
      expect(o.json().error.fields.name, name).toMatch(message);
      for (const field of ["firstName", "lastName"]) {
        const r = await post("/api/interest", interest({ [field]: name }));
        expect(r.statusCode, `${field}: ${name}`).toBe(400);
        expect(r.json().error.fields[field], `${field}: ${name}`).toMatch(message);
      }
      for (const url of ["/api/payments/paylink", "/api/payments/eft"]) {
        const p = await post(url, { packageId, name, whatsapp: "083 558 0001", immediateStartConsent: true });
        expect(p.statusCode, `${url}: ${name}`).toBe(400);
        expect(p.json().error.fields.name, `${url}: ${name}`).toMatch(message);
      }
    }
  });

  it("still takes real names: initials, hyphens, apostrophes, accents", async () => {
    for (const name of ["J.R. Smith", "Zoë O'Brien-van der Merwe", "St. John Ndlovu", "x".repeat(80)]) {
      expect((await post("/api/orders", order({ name }))).statusCode, name).toBe(201);
    }
  });
});
