// Issue 30, item 4: a coupon's limits hold at capture. A 3-use coupon is not paid 30 times by
// opening 30 pay links first (links beyond the limit are refused while pending links hold the
// uses; a declined link gives its hold back), 30 links made and paid at the same instant count
// exactly 3 uses, and a one-per-customer coupon is counted once for a client who pays 5 links.
// Payments over a limit are still captured at the price quoted (billing/coupons.ts says why).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_COOKIE } from "@/server/auth/sessions";
import { capturedPayments, couponRedemptions, coupons, packages } from "@/server/db/schema";
import { clientSession } from "@/server/modules/admin-business/test-admin";
import { makeClient } from "@/server/modules/client/test-helpers";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { COUPON_MESSAGES } from "@/shared/billing";

const PUBLIC_URL = "http://localhost:8080";
let t: TestApp;
let packageId: string;
let ip = 0;
let phone = 0;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SECRET: "sandbox-test-secret", PUBLIC_URL, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  const [pkg] = await t.app.db
    .insert(packages)
    .values({ name: "Coupon Race Monthly", price: 200, duration: "1 Month", duration_months: 1, is_active: true })
    .returning();
  packageId = pkg.id;
});
afterAll(async () => {
  await t?.close();
});

async function makeCoupon(code: string, maxUses: number | null) {
  const [row] = await t.app.db.insert(coupons).values({ code, kind: "fixed", amount_off: 50, max_uses: maxUses }).returning();
  return row;
}

const paylink = (coupon: string, cookie?: Record<string, string>, app = t.app) =>
  app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: cookie
      ? { packageId, coupon, immediateStartConsent: true }
      : { packageId, coupon, name: `Buyer ${++phone}`, whatsapp: `0721${String(phone).padStart(6, "0")}`, immediateStartConsent: true },
    headers: { origin: PUBLIC_URL },
    cookies: cookie,
    remoteAddress: `10.30.${Math.floor(++ip / 250)}.${ip % 250}`,
  });

const press = (ref: string, action: "pay" | "decline", app = t.app) =>
  app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/${action}`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });

async function counted(couponId: string) {
  const [row] = await t.app.db.select().from(coupons).where(eq(coupons.id, couponId));
  const redemptions = await t.app.db.select().from(couponRedemptions).where(eq(couponRedemptions.coupon_id, couponId));
  return { uses: row.uses, redemptions: redemptions.length };
}

const refsOf = (responses: { statusCode: number; json(): { externalTransactionID: string } }[]) =>
  responses.filter((r) => r.statusCode === 201).map((r) => r.json().externalTransactionID);

describe("coupon limits at capture", () => {
  it("refuses pay links beyond a 3-use coupon's limit while the first three are open, and a declined link gives its use back", async () => {
    await makeCoupon("THREE-SEQ", 3);
    const responses = [];
    for (let i = 0; i < 30; i++) responses.push(await paylink("THREE-SEQ"));
    const refs = refsOf(responses);
    expect(refs).toHaveLength(3);
    for (const r of responses.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(400);
      expect(r.json().error.fields.coupon).toBe(COUPON_MESSAGES.usedUp);
    }
    // A declined link releases its hold: one more link can be made.
    expect((await press(refs[0], "decline")).statusCode).toBe(303);
    expect((await paylink("THREE-SEQ")).statusCode).toBe(201);
    expect((await paylink("THREE-SEQ")).statusCode).toBe(400);
  });

  it("counts exactly 3 uses when 30 pay links are made together and all are paid together (taking turns on PGlite's one connection); every payment is still captured", async () => {
    const coupon = await makeCoupon("THREE-RACE", 3);
    const refs = refsOf(await Promise.all(Array.from({ length: 30 }, () => paylink("THREE-RACE"))));
    expect(refs.length).toBeGreaterThanOrEqual(3);
    const paid = await Promise.all(refs.map((ref) => press(ref, "pay")));
    for (const r of paid) expect(r.statusCode).toBe(303);
    for (const ref of refs) {
      // As each customer's result page does: its status read settles a callback that thirty at
      // once on a loaded machine left unapplied (the pool's wait), from the provider's ledger.
      await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
      const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
      expect(row.status).toBe("paid");
      expect(row.amount).toBe(150);
    }
    expect(await counted(coupon.id)).toEqual({ uses: 3, redemptions: 3 });
  });

  it("counts a one-per-customer coupon once for a client who opens 5 links first and pays them all", async () => {
    const coupon = await makeCoupon("ONCE-EACH", null);
    const client = await makeClient(t.app, { username: "coupon-repeat", whatsapp: "27721999001", status: "active" });
    const session = await clientSession(t.app, client.id);
    expect(session.cookie[CLIENT_COOKIE]).toBeTruthy();
    const refs = refsOf(await Promise.all(Array.from({ length: 5 }, () => paylink("ONCE-EACH", session.cookie))));
    expect(refs).toHaveLength(5);
    await Promise.all(refs.map((ref) => press(ref, "pay")));
    expect(await counted(coupon.id)).toEqual({ uses: 1, redemptions: 1 });
    // ...and the next link is refused as used before.
    const again = await paylink("ONCE-EACH", session.cookie);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.coupon).toBe(COUPON_MESSAGES.usedBefore);
  });
});

describe.runIf(onPostgres())(
  "PostgreSQL only (PGlite is one connection: nothing races there): a coupon's limit on two processes at the same moment",
  () => {
    it("a 2-use coupon: links made on two processes together, then all paid on both together, count exactly 2 uses; every payment captured", async () => {
      const other = await secondProcess(t);
      try {
        const coupon = await makeCoupon("TWO-PG-RACE", 2);
        const apps = [t.app, other.app];
        // three links a process, each insert of its pending payment waiting behind the lock, then all go
        const made = await startTogether(t.database.url as string, "LOCK TABLE captured_payments IN EXCLUSIVE MODE", 6, () =>
          Promise.all(apps.map((app) => Promise.all([0, 1, 2].map(() => paylink("TWO-PG-RACE", undefined, app))))),
        );
        for (const side of made) for (const r of side) expect([201, 400]).toContain(r.statusCode);
        const refs = made.map((side) => refsOf(side));
        expect(refs.flat().length).toBeGreaterThanOrEqual(2);
        // each process pays its own links; each capture's count waits behind the lock on coupons, then all go
        const paid = await startTogether(t.database.url as string, "LOCK TABLE coupons IN EXCLUSIVE MODE", refs.flat().length, () =>
          Promise.all(apps.map((app, i) => Promise.all(refs[i].map((ref) => press(ref, "pay", app))))),
        );
        for (const r of paid.flat()) expect(r.statusCode).toBe(303);
        for (const ref of refs.flat()) {
          await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
          const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
          expect(row).toMatchObject({ status: "paid", amount: 150 });
        }
        expect(await counted(coupon.id)).toEqual({ uses: 2, redemptions: 2 });
      } finally {
        await other.close();
      }
    });
  },
);
