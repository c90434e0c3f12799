// Paid orders that arrive together are written together (group commit, decision 012): each must
// still get exactly what it would have had alone — its own lead, messages, rate-limit count,
// client match and answer — and one order the database refuses must not cost the others theirs.
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/client";
import { leads, outbox, rateLimits } from "@/server/db/schema";
import { PUBLIC_WRITE_MESSAGE, RECIPIENT_LIMIT_PER_HOUR } from "@/server/lib/rate-limit";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { awayFromMinuteTurn, createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { paidOrdersPending } from "./service";
import { paidOrder } from "./test-helpers";

const LIMIT = 5;
let t: TestApp;
let n = 0;
let warmups = 0;

function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  n += 1;
  const person = { name: `Sipho Dlamini ${n}`, email: `sipho.batch${n}@example.co.za`, whatsapp: `084 555 ${String(2000 + n)}` };
  return paidOrder(person, overrides);
}

const post = (payload: unknown, from: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: JSON.stringify(payload),
    remoteAddress: from,
    headers: { "content-type": "application/json", ...headers },
  });

/**
 * Sends while the database holds up writes (a transaction of the test's locks the rate-limit table;
 * on PGlite any transaction holds the one connection), and lets the writes go only once all
 * `count` orders have reached the writers of `apps` (the first being written, held up by the lock;
 * the rest waiting for the next batch): the rest are then written together, as under load. The
 * condition is the writer's own count, not a fixed wait.
 */
async function arrivingTogether<T>(count: number, send: () => Promise<T>, apps: TestApp[] = [t]): Promise<T> {
  // An order of its own first, so the reads an order makes before the writer (the business and
  // the price list) are in memory: on PGlite the held transaction holds the one connection, and
  // an order that had to read would wait there instead of at the writer.
  for (const app of apps) {
    const warm = await app.app.inject({ method: "POST", url: "/api/orders", payload: order(), remoteAddress: `10.19.0.${++warmups}` });
    expect(warm.statusCode, warm.body).toBe(201);
  }
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holding = apps[0].app.db.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE rate_limits IN SHARE ROW EXCLUSIVE MODE`);
    locked();
    await released;
  });
  await isLocked;
  const sending = send();
  try {
    const arrived = () => apps.reduce((sum, app) => sum + paidOrdersPending(app.app), 0);
    await expect.poll(arrived, { timeout: 10_000, interval: 5, message: "orders at the writers before the lock is let go" }).toBe(count);
  } finally {
    release();
    await holding;
  }
  return sending;
}

const rateCount = async (from: string) =>
  (
    await t.app.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, `orders:ip:${from}`))
  )[0]?.count ?? 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: LIMIT });
  // the shop's first admin: the business's notes go to their address (the alerts e-mail)
  await createAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/orders: paid orders arriving together", () => {
  it("writes orders that arrive together in one transaction, each saved once with its own lead, messages and answer", async () => {
    // One address each, so the limit of 5 a minute never refuses any.
    const bodies = Array.from({ length: 30 }, () => order());
    const answers = await arrivingTogether(30, () => Promise.all(bodies.map((body, i) => post(body, `10.20.0.${i + 1}`))));
    expect(answers.map((res) => res.statusCode)).toEqual(bodies.map(() => 201));
    const ids = answers.map((res) => res.json().id as string);
    expect(new Set(ids).size).toBe(30);

    const saved = await t.app.db.select().from(leads).where(inArray(leads.id, ids));
    const byId = new Map(saved.map((lead) => [lead.id, lead]));
    bodies.forEach((body, i) => {
      // Each answer names the lead of its own order, from its own address.
      expect(byId.get(ids[i])).toMatchObject({ email: body.email, name: body.name, ip: `10.20.0.${i + 1}`, form_type: "order" });
    });
    const messages = await t.app.db.select().from(outbox).where(inArray(outbox.lead_id, ids));
    for (const [i, id] of ids.entries()) {
      const own = messages.filter((message) => message.lead_id === id);
      expect(own.map((message) => message.kind).sort()).toEqual(["order", "order-confirmation"]);
      expect(own.find((message) => message.kind === "order-confirmation")?.recipient).toBe(bodies[i].email);
    }
    // A transaction's now() is its start: leads written together share their created_at. The
    // first went alone; the others arrived while it was written, and went in one.
    const together = new Map<number, number>();
    for (const lead of saved) together.set(lead.created_at.getTime(), (together.get(lead.created_at.getTime()) ?? 0) + 1);
    expect(Math.max(...together.values())).toBe(29);
  });

  it("refuses exactly the orders past an address's limit within one batch, and counts every submission once", async () => {
    await awayFromMinuteTurn();
    const from = "10.21.0.1";
    const bodies = Array.from({ length: LIMIT + 3 }, () => order());
    const answers = await arrivingTogether(LIMIT + 3, () => Promise.all(bodies.map((body) => post(body, from))));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(3).fill(429)]);
    for (const refused of answers.filter((res) => res.statusCode === 429)) {
      expect(refused.json()).toEqual({ error: { code: "rate_limited", message: PUBLIC_WRITE_MESSAGE } });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    const saved = await t.app.db.select({ id: leads.id }).from(leads).where(eq(leads.ip, from));
    expect(saved.map((lead) => lead.id).sort()).toEqual(
      answers
        .filter((res) => res.statusCode === 201)
        .map((res) => res.json().id)
        .sort(),
    );
    expect(await rateCount(from)).toBe(LIMIT + 3);
  });

  it("takes each order alone when the database refuses the batch (a reused key), losing and doubling none", async () => {
    await awayFromMinuteTurn();
    const first = order();
    const original = await post(first, "10.22.0.1", { "idempotency-key": "batch-key-1" });
    expect(original.statusCode).toBe(201);

    // Arriving together: plain orders, a retry of the order above, and twins with a new key.
    const plain = Array.from({ length: 4 }, () => order());
    const twin = order();
    const answers = await arrivingTogether(7, () =>
      Promise.all([
        ...plain.map((body, i) => post(body, `10.22.1.${i + 1}`)),
        post(first, "10.22.0.1", { "idempotency-key": "batch-key-1" }),
        post(twin, "10.22.0.2", { "idempotency-key": "batch-key-2" }),
        post(twin, "10.22.0.2", { "idempotency-key": "batch-key-2" }),
      ]),
    );
    const [p1, p2, p3, p4, retry, twinA, twinB] = answers;
    for (const res of [p1, p2, p3, p4]) expect(res.statusCode).toBe(201);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().id).toBe(original.json().id);
    expect([twinA.statusCode, twinB.statusCode].sort()).toEqual([200, 201]);
    expect(twinA.json().id).toBe(twinB.json().id);

    for (const [i, body] of plain.entries()) {
      const saved = await t.app.db
        .select()
        .from(leads)
        .where(eq(leads.email, body.email as string));
      expect(saved.map((lead) => lead.id)).toEqual([[p1, p2, p3, p4][i].json().id]);
      expect(await t.app.db.select().from(outbox).where(eq(outbox.lead_id, saved[0].id))).toHaveLength(2);
    }
    for (const body of [first, twin]) {
      const saved = await t.app.db
        .select()
        .from(leads)
        .where(eq(leads.email, body.email as string));
      expect(saved).toHaveLength(1);
      expect(await t.app.db.select().from(outbox).where(eq(outbox.lead_id, saved[0].id))).toHaveLength(2);
    }
    // Retried alone after the batch was refused, yet each submission counted once.
    expect(await rateCount("10.22.0.1")).toBe(2);
    expect(await rateCount("10.22.0.2")).toBe(2);
    for (let i = 1; i <= 4; i++) expect(await rateCount(`10.22.1.${i}`)).toBe(1);
  });

  it("caps confirmations to one address across a batch: every order saved, only the first few confirmed", async () => {
    const victim = "target.batch@example.co.za";
    const answers = await arrivingTogether(6, () =>
      Promise.all(Array.from({ length: 6 }, (_, i) => post(order({ email: victim }), `10.23.0.${i + 1}`))),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(6).fill(201));
    const ids = answers.map((res) => res.json().id as string);
    expect(await t.app.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, ids))).toHaveLength(6);
    const confirmations = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "order-confirmation"), sql`lower(trim(${outbox.recipient})) = ${victim}`));
    expect(confirmations).toHaveLength(RECIPIENT_LIMIT_PER_HOUR);
    // The business hears of every order.
    const notices = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "order"), inArray(outbox.lead_id, ids)));
    expect(notices).toHaveLength(6);
  });

  it("links each order of a batch to who it may be: a client's number to that client, only its address flagged", async () => {
    const client = await makeClient(t.app, {
      username: "batch-returning",
      whatsapp: "27845559911",
      email: "returning.batch@example.co.za",
    });
    const byNumber = order({ whatsapp: "084 555 9911" });
    const byAddress = order({ email: "Returning.Batch@example.co.za" });
    const stranger = order();
    // A filler first: it goes alone, and the three that matter are written together after it.
    const answers = await arrivingTogether(5, () =>
      Promise.all([order(), byNumber, byAddress, stranger, order()].map((body, i) => post(body, `10.24.0.${i + 1}`))),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(5).fill(201));
    const lead = async (res: (typeof answers)[number]) => (await t.app.db.select().from(leads).where(eq(leads.id, res.json().id)))[0];
    expect(await lead(answers[1])).toMatchObject({ client_id: client.id, possible_duplicate_of: null });
    expect(await lead(answers[2])).toMatchObject({ client_id: null, possible_duplicate_of: client.id });
    expect(await lead(answers[3])).toMatchObject({ client_id: null, possible_duplicate_of: null });
  });

  // Two server processes on one database: two apps, each with its own batches, on one PostgreSQL
  // database (PGlite is one process's own; this case runs on PostgreSQL only and is skipped there).
  it.runIf(onPostgres())(
    "PostgreSQL: two processes writing batches at once with the same addresses and recipients: no deadlock, each order once, the counts exact",
    { timeout: 30_000 },
    async () => {
      const first = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 1_000 });
      const secondDatabase = await openDatabase({ databaseUrl: first.database.url, poolSize: 5 });
      const second = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 1_000 }, { database: secondDatabase, seed: false });
      try {
        await awayFromMinuteTurn();
        const victims = ["one.shared@example.co.za", "two.shared@example.co.za", "three.shared@example.co.za"];
        const addresses = ["10.30.0.1", "10.30.0.2", "10.30.0.3", "10.30.0.4"];
        // Each process gets 24 orders; the two name the victims and addresses in opposite orders.
        const sends = (app: TestApp, reversed: boolean) =>
          Array.from({ length: 24 }, (_, i) => {
            const k = reversed ? 23 - i : i;
            const body = order({ email: victims[k % victims.length] });
            return app.app.inject({ method: "POST", url: "/api/orders", payload: body, remoteAddress: addresses[k % addresses.length] });
          });
        // Both processes' first orders held up (the lock is on the one database) until the rest have queued behind them.
        const results = await arrivingTogether(48, () => Promise.all([...sends(first, false), ...sends(second, true)]), [first, second]);

        expect(results.map((res) => res.statusCode)).toEqual(Array(48).fill(201));
        const ids = results.map((res) => res.json().id as string);
        expect(new Set(ids).size).toBe(48);
        expect(await first.app.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, ids))).toHaveLength(48);
        // The per-recipient cap held across both processes: three confirmations a victim, no more.
        for (const victim of victims) {
          const confirmations = await first.app.db
            .select({ id: outbox.id })
            .from(outbox)
            .where(and(eq(outbox.kind, "order-confirmation"), eq(outbox.recipient, victim)));
          expect(confirmations).toHaveLength(RECIPIENT_LIMIT_PER_HOUR);
        }
        // Every submission counted once on its address: 48 over four addresses.
        for (const address of addresses) {
          const [row] = await first.app.db
            .select({ count: rateLimits.count })
            .from(rateLimits)
            .where(eq(rateLimits.key, `orders:ip:${address}`));
          expect(row?.count).toBe(12);
        }
      } finally {
        await second.close();
        await secondDatabase.close();
        await first.close();
      }
    },
  );
});
