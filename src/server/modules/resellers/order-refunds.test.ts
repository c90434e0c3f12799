// A refund of a partner's credit order takes its credits back (issue 45), against the fake
// reseller panel on PGlite and (with TEST_DATABASE_URL) PostgreSQL: the owner refunds from the
// dashboard (POST /api/admin/payments/:id/refund); one adjust_credits takes the credits back,
// keyed on the credit note, so a replayed refund, racing processes and the sweep take nothing
// twice; a partner who spent them already gives back what their balance allows and owes the rest
// (a ledger row, the owner told once); an order refunded before its credits moved is closed.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { createPartnerSession, PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import { creditNotes, outbox, partnerCreditOrders, resellerCreditTransfers, resellers, siteSettings } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { changesDelivered } from "@/server/test-support/change-feed";
import { createTestApp, eventually, fillBankDetails, type TestApp } from "@/server/testing";
import { deliverOrder, paidOrderWorkSettled, retryOrder } from "./credit-orders";
import { creditsPerRefund, takeBackRecentRefunds, takeBackRefunds } from "./order-refunds";
import { MEMBER_GROUP_SETTING } from "./service";

const PUBLIC_URL = "http://localhost:8080";

describe("creditsPerRefund: each refund's share of the order's credits", () => {
  it.each([
    // credits, paid cents, refunds (cents), credits taken back per refund
    [10, 30_000, [30_000], [10]],
    [10, 30_000, [15_000, 15_000], [5, 5]],
    [10, 30_000, [10_000, 10_000, 10_000], [3, 4, 3]],
    [3, 9_000, [100], [0]],
    [3, 9_000, [100, 8_900], [0, 3]],
  ])("%i credits paid with %i cents, refunds %j → %j", (credits, paid, refunds, shares) => {
    expect(creditsPerRefund(credits, paid, refunds)).toEqual(shares);
  });
});

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel({ existing: { m3u: 0, mag: 0, enigma2: 0 }, credits: 1000 });
  t = await createTestApp({ PUBLIC_URL, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 500 }, { seed: true });
  await t.app.db.insert(siteSettings).values({ key: MEMBER_GROUP_SETTING, value: "4", is_active: false });
  await fillBankDetails(t.app);
  admin = await signInAdmin(t.app);
  const priced = await admin.call({ method: "PUT", url: "/api/admin/resellers/pricing", payload: { price_per_credit: 30 } });
  expect(priced.statusCode, priced.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.credits = 1000;
});

const orderOf = async (id: string) => (await t.app.db.select().from(partnerCreditOrders).where(eq(partnerCreditOrders.id, id)))[0];
const adjustsFor = (panelId: string) => fake.callsOf("adjust_credits").filter((c) => c.form.id === panelId);
const panelCredits = (panelId: string) => fake.users.get(panelId)?.credits;
const setPanelCredits = (panelId: string, credits: number) => {
  const user = fake.users.get(panelId);
  if (user) user.credits = credits;
};
const refund = (paymentId: string, payload: Record<string, unknown> = {}) =>
  admin.call({
    method: "POST",
    url: `/api/admin/payments/${paymentId}/refund`,
    payload: { reason: "Partner asked for it back", ...payload },
  });
const ledgerOf = (resellerId: string, orderId: string) =>
  t.app.db
    .select()
    .from(resellerCreditTransfers)
    .where(and(eq(resellerCreditTransfers.reseller_id, resellerId), like(resellerCreditTransfers.cause, `order-refund%:${orderId}`)));

/** A partner with `credits` bought by EFT, marked paid and moved to their balance (or left `refused`). */
async function boughtOrder(credits: number, expected: "delivered" | "refused" = "delivered") {
  const made = await admin.call({
    method: "POST",
    url: "/api/admin/resellers",
    payload: { name: `Refunded ${++n} Mokoena`, email: `refunded${n}@example.co.za` },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json() as { id: string };
  const [row] = await t.app.db.select().from(resellers).where(eq(resellers.id, id));
  const { token } = await createPartnerSession(t.app.db, id, 1);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/partner/credits/checkout",
    headers: { origin: PUBLIC_URL, cookie: `${PARTNER_COOKIE}=${token}` },
    payload: { credits, method: "eft" },
  });
  expect(res.statusCode, res.body).toBe(201);
  const order = await orderOf(res.json().order.id);
  const paid = await admin.call({ method: "POST", url: `/api/admin/payments/${order.payment_id}/mark-paid` });
  expect(paid.statusCode, paid.body).toBe(200);
  await eventually(async () => expect((await orderOf(order.id)).status).toBe(expected), 5000);
  return { id, panelId: row.panel_user_id ?? "", order };
}

describe("a partner's credit order refunded by the owner", () => {
  it("takes the credits back with one adjust_credits, in the ledger; a replayed refund, racing processes and the sweep take nothing more", async () => {
    const buyer = await boughtOrder(10);
    expect(panelCredits(buyer.panelId)).toBe(10);

    const res = await refund(buyer.order.payment_id);
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => expect((await orderOf(buyer.order.id)).status).toBe("refunded"), 5000);
    expect(panelCredits(buyer.panelId)).toBe(0);
    expect(fake.credits).toBe(1000);
    const adjusts = adjustsFor(buyer.panelId);
    expect(adjusts.map((c) => c.form.credits)).toEqual(["10", "-10"]);
    const [note] = await t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, buyer.order.payment_id));
    const ledger = await ledgerOf(buyer.id, buyer.order.id);
    expect(ledger).toEqual([
      expect.objectContaining({
        request_key: `${buyer.id}:order-refund:${note.id}`,
        credits: -10,
        status: "done",
        cause: `order-refund:${buyer.order.id}`,
        partner_before: 10,
        partner_after: 0,
      }),
    ]);

    // The refund asked again is refused by billing; the take-back run again, at once and by the sweep, sends nothing.
    expect((await refund(buyer.order.payment_id)).statusCode).toBe(409);
    await Promise.all([
      takeBackRefunds(t.app, buyer.order.payment_id),
      takeBackRefunds(t.app, buyer.order.payment_id),
      takeBackRecentRefunds(t.app),
    ]);
    await deliverOrder(t.app, buyer.order.id);
    // every change those made has reached the watcher, and what it started has finished
    await changesDelivered(t.app);
    await paidOrderWorkSettled(t.app);
    expect(adjustsFor(buyer.panelId)).toHaveLength(2);
    expect(panelCredits(buyer.panelId)).toBe(0);
    expect(await ledgerOf(buyer.id, buyer.order.id)).toHaveLength(1);
  });

  it("a partner who spent some already: what the balance allows is taken back, the rest written as owed, and the owner told once", async () => {
    const buyer = await boughtOrder(10);
    setPanelCredits(buyer.panelId, 4); // six of them sold as lines already
    const res = await refund(buyer.order.payment_id);
    expect(res.statusCode, res.body).toBe(200);
    const [note] = await t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, buyer.order.payment_id));
    await eventually(async () => expect(await ledgerOf(buyer.id, buyer.order.id)).toHaveLength(2), 5000);
    expect(panelCredits(buyer.panelId)).toBe(0);
    expect(adjustsFor(buyer.panelId).map((c) => c.form.credits)).toEqual(["10", "-4"]);
    const ledger = await ledgerOf(buyer.id, buyer.order.id);
    expect(ledger.find((r) => r.status === "done")).toMatchObject({ credits: -4, partner_before: 4, partner_after: 0 });
    const owed = ledger.find((r) => r.status === "owed");
    expect(owed).toMatchObject({
      credits: -6,
      cause: `order-refund-owed:${buyer.order.id}`,
      request_key: `${buyer.id}:order-refund-owed:${note.id}`,
    });
    expect(owed?.note).toContain("took back 4 credits of 10: 6 credits had been spent already and are owed");

    const alerts = await t.app.db
      .select()
      .from(outbox)
      .where(like(outbox.dedupe_key, `owner-alert:partner-refund-owed:${note.id}%`));
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts[0].subject).toContain("owes you 6 credits");

    // Replays: nothing more taken, nothing more written, no second alert; the partner's balance as it was.
    setPanelCredits(buyer.panelId, 3);
    await Promise.all([takeBackRefunds(t.app, buyer.order.payment_id), takeBackRecentRefunds(t.app)]);
    expect(adjustsFor(buyer.panelId)).toHaveLength(2);
    expect(panelCredits(buyer.panelId)).toBe(3);
    expect(await ledgerOf(buyer.id, buyer.order.id)).toHaveLength(2);
    const again = await t.app.db
      .select()
      .from(outbox)
      .where(like(outbox.dedupe_key, `owner-alert:partner-refund-owed:${note.id}%`));
    expect(again).toHaveLength(alerts.length);
  });

  it("a part refund takes back its share, and the rest of the refund the rest", async () => {
    const buyer = await boughtOrder(10); // R300
    expect((await refund(buyer.order.payment_id, { amount: 150 })).statusCode).toBe(200);
    await eventually(async () => expect(panelCredits(buyer.panelId)).toBe(5), 5000);
    expect((await orderOf(buyer.order.id)).status).toBe("delivered");
    expect((await refund(buyer.order.payment_id)).statusCode).toBe(200);
    await eventually(async () => expect((await orderOf(buyer.order.id)).status).toBe("refunded"), 5000);
    expect(panelCredits(buyer.panelId)).toBe(0);
    expect(adjustsFor(buyer.panelId).map((c) => c.form.credits)).toEqual(["10", "-5", "-5"]);
  });

  it("refunded before its credits moved (the owner was short): the order is closed, nothing taken back, and sending it again moves nothing", async () => {
    fake.credits = 5;
    const buyer = await boughtOrder(20, "refused");
    expect((await refund(buyer.order.payment_id)).statusCode).toBe(200);
    await eventually(async () => expect((await orderOf(buyer.order.id)).status).toBe("refunded"), 5000);
    fake.credits = 1000;
    await expect(retryOrder(t.app, buyer.order.id)).rejects.toThrow("Only an order whose credits were refused or not confirmed");
    await deliverOrder(t.app, buyer.order.id);
    expect(adjustsFor(buyer.panelId)).toHaveLength(0);
    expect(panelCredits(buyer.panelId)).toBe(0);
    expect(await ledgerOf(buyer.id, buyer.order.id)).toHaveLength(0);
  });
});
