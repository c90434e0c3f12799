// Partners buy credits from the shop (issue 45 items 4 and 5), against the fake reseller panel
// on PGlite and (with TEST_DATABASE_URL) PostgreSQL: the owner's price list refuses bad input in
// words with nothing saved; a partner's order paid by EFT (the owner marks it paid) or by the
// sandbox card moves its credits with exactly one adjust_credits, read back from the panel, and
// a replayed settle, a replayed card notification or deliveries racing move nothing more; the
// owner's network view sums a seeded month per partner.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { createPartnerSession, PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import {
  capturedPayments,
  invoices,
  outbox,
  partnerCreditOrders,
  resellerCreditTransfers,
  resellerLines,
  resellers,
  siteSettings,
} from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { loadRules } from "@/server/lib/lifecycle";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { settlePayment } from "@/server/modules/payments/settle";
import { changesDelivered } from "@/server/test-support/change-feed";
import { deliverSandboxAgain } from "@/server/test-support/sandbox-payments";
import { createTestApp, eventually, fillBankDetails, type TestApp } from "@/server/testing";
import { deliverOrder, NO_PRICE_MESSAGE, paidOrderWorkSettled } from "./credit-orders";
import { MEMBER_GROUP_SETTING } from "./service";

const PUBLIC_URL = "http://localhost:8080";
const SANDBOX_SECRET = "partner-credits-sandbox-secret";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel({ existing: { m3u: 0, mag: 0, enigma2: 0 }, credits: 1000 });
  t = await createTestApp(
    { PUBLIC_URL, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 500, SANDBOX_SECRET },
    { seed: true },
  );
  await t.app.db.insert(siteSettings).values({ key: MEMBER_GROUP_SETTING, value: "4", is_active: false });
  await fillBankDetails(t.app);
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.credits = 1000;
});

async function partner() {
  const made = await admin.call({
    method: "POST",
    url: "/api/admin/resellers",
    payload: { name: `Buyer ${++n} Dlamini`, email: `buyer${n}@example.co.za` },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json() as { id: string };
  const { token } = await createPartnerSession(t.app.db, id, 1);
  const [row] = await t.app.db.select().from(resellers).where(eq(resellers.id, id));
  return { id, panelId: row.panel_user_id ?? "", email: row.email, cookie: `${PARTNER_COOKIE}=${token}` };
}

const asPartner = (cookie: string, method: "GET" | "POST", url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { origin: PUBLIC_URL, cookie }, ...(payload ? { payload } : {}) });
const setPricing = (payload: Record<string, unknown>) => admin.call({ method: "PUT", url: "/api/admin/resellers/pricing", payload });
const panelCredits = (panelId: string) => fake.users.get(panelId)?.credits;
const adjustsFor = (panelId: string) => fake.callsOf("adjust_credits").filter((c) => c.form.id === panelId);
const orderOf = async (id: string) => (await t.app.db.select().from(partnerCreditOrders).where(eq(partnerCreditOrders.id, id)))[0];

describe("the owner's price for credits (item 4)", () => {
  it("refuses a bad price list with a 400 in words, saving nothing, and keeps a good one with its tiers in order", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "Enter a price per credit in rand above R0, e.g. 30 or 27.50"],
      [{ price_per_credit: 0 }, "Enter a price per credit in rand above R0, e.g. 30 or 27.50"],
      [{ price_per_credit: -5 }, "Enter a price per credit in rand above R0, e.g. 30 or 27.50"],
      [{ price_per_credit: 30.123 }, "Prices have at most 2 decimals (cents)"],
      [
        { price_per_credit: 30, tiers: [{ min_credits: 1, price_per_credit: 25 }] },
        "A tier starts at 2 credits or more (1 credit is the base price)",
      ],
      [{ price_per_credit: 30, tiers: [{ min_credits: 50.5, price_per_credit: 25 }] }, "A tier starts at a whole number of credits"],
      [{ price_per_credit: 30, tiers: [{ min_credits: 50, price_per_credit: 0 }] }, "Enter the tier's price per credit in rand above R0"],
      [
        {
          price_per_credit: 30,
          tiers: [
            { min_credits: 50, price_per_credit: 25 },
            { min_credits: 50, price_per_credit: 20 },
          ],
        },
        "Two tiers start at 50 credits: give each tier its own starting number",
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await setPricing(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body, JSON.stringify(payload)).toContain(message);
    }
    expect((await admin.call({ method: "GET", url: "/api/admin/resellers/settings" })).json().pricing).toBeNull();

    const buyer = await partner();
    const early = await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 5, method: "eft" });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(NO_PRICE_MESSAGE);
    expect(await t.app.db.select().from(partnerCreditOrders)).toHaveLength(0);

    const ok = await setPricing({
      price_per_credit: 30,
      tiers: [
        { min_credits: 100, price_per_credit: 22.5 },
        { min_credits: 50, price_per_credit: 25 },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const settings = (await admin.call({ method: "GET", url: "/api/admin/resellers/settings" })).json();
    expect(settings).toEqual({
      member_group_id: "4",
      pricing: {
        price_per_credit: 30,
        tiers: [
          { min_credits: 50, price_per_credit: 25 },
          { min_credits: 100, price_per_credit: 22.5 },
        ],
      },
    });
    const offer = (await asPartner(buyer.cookie, "GET", "/api/partner/credits/offer")).json();
    expect(offer.methods.map((m: { id: string }) => m.id)).toEqual(["eft", "card"]);

    for (const [payload, message] of [
      [{ credits: 0, method: "eft" }, "Buy at least 1 credit"],
      [{ credits: 2.5, method: "eft" }, "Credits are whole numbers"],
      [{ credits: 10, method: "bitcoin" }, "Choose how to pay: EFT or one of the ways on offer."],
    ] as const) {
      const res = await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    // The refused method wrote a payment row for nothing? No: nothing is written before the method is known.
    expect(await t.app.db.select().from(partnerCreditOrders)).toHaveLength(0);
  });
});

describe("a partner buys credits (item 4)", () => {
  it("by EFT: priced at the tier, the bank details and reference given, and once the owner marks it paid one adjust_credits moves them, with an invoice, the owner's notice and the partner's e-mails", async () => {
    const buyer = await partner();
    const res = await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 50, method: "eft" });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.order).toMatchObject({ credits: 50, unit_price: 25, amount: 1250, status: "pending", method: "eft" });
    expect(answer.bank.account_number).toBeTruthy();
    expect(answer.pay_url).toBeNull();
    expect(panelCredits(buyer.panelId)).toBe(0);

    const order = await orderOf(answer.order.id);
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, order.payment_id));
    expect(payment).toMatchObject({ provider: "eft", status: "pending", amount: 1250, external_transaction_id: answer.order.reference });
    // Written by insertPayment, the one place a payment row is made: no package, client or lead; the partner as buyer.
    expect(payment).toMatchObject({
      package_id: null,
      client_id: null,
      lead_id: null,
      currency: "ZAR",
      package_name: "50 credits (partner)",
      description: expect.stringContaining("50 credits for partner Buyer"),
      buyer_company: expect.stringContaining("Buyer"),
      client_email: buyer.email,
      notes: expect.stringContaining("EFT details given to partner"),
    });
    const [alert] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `owner-alert:eft-order:${payment.id}`));
    expect(alert.subject).toContain(answer.order.reference);

    const paid = await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/mark-paid` });
    expect(paid.statusCode, paid.body).toBe(200);
    await eventually(async () => expect((await orderOf(order.id)).status).toBe("delivered"), 5000);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(adjustsFor(buyer.panelId)[0].form.credits).toBe("50");
    expect(panelCredits(buyer.panelId)).toBe(50);
    expect(fake.credits).toBe(950);
    const me = await asPartner(buyer.cookie, "GET", "/api/partner/me");
    expect(me.json().credits).toBe(50);

    const [transfer] = await t.app.db
      .select()
      .from(resellerCreditTransfers)
      .where(eq(resellerCreditTransfers.request_key, `${buyer.id}:order:${order.id}`));
    expect(transfer).toMatchObject({ credits: 50, status: "done", cause: `order:${order.id}`, partner_before: 0, partner_after: 50 });
    const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.payment_id, payment.id));
    expect(invoice.incl_cents).toBe(125_000);
    const mails = await t.app.db.select().from(outbox).where(eq(outbox.recipient, buyer.email));
    expect(
      mails
        .map((m) => m.kind)
        .filter((kind) => kind !== "partner-invite")
        .sort(),
    ).toEqual(["eft-details", "partner-credits", "receipt"]);
    expect(mails.find((m) => m.kind === "receipt")?.attachment).toBe(`invoice:${invoice.number}`);
    expect(mails.find((m) => m.kind === "partner-credits")?.body).toContain("you now have 50 credits");
    const notices = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `payment-received:${payment.id}`));
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toContain("50 credits");

    // The same settle again (a second capture path reaching it), the feed's delivery again, and the owner's mark-paid again: nothing moves twice.
    const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, payment.id));
    const context = { business: await loadBusiness(t.app), rules: await loadRules(t.app) };
    await t.app.db.transaction((tx) => settlePayment(tx, context, row, new Date()));
    await deliverOrder(t.app, order.id);
    expect((await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/mark-paid` })).statusCode).toBe(409);
    // every change those made has reached the watcher, and what it started has finished
    await changesDelivered(t.app);
    await paidOrderWorkSettled(t.app);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(panelCredits(buyer.panelId)).toBe(50);
    expect(await t.app.db.select().from(invoices).where(eq(invoices.payment_id, payment.id))).toHaveLength(1);
    expect((await orderOf(order.id)).status).toBe("delivered");
    expect(
      await t.app.db
        .select()
        .from(resellerCreditTransfers)
        .where(like(resellerCreditTransfers.cause, `order:${order.id}%`)),
    ).toHaveLength(1);
  });

  it("deliveries racing for one paid order (two processes hearing it) send one adjust_credits", async () => {
    const buyer = await partner();
    const answer = (await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 3, method: "eft" })).json();
    const order = await orderOf(answer.order.id);
    expect(order).toMatchObject({ unit_price: 30, amount: 90 });
    const paid = await admin.call({ method: "POST", url: `/api/admin/payments/${order.payment_id}/mark-paid` });
    expect(paid.statusCode, paid.body).toBe(200);
    await Promise.all([deliverOrder(t.app, order.id), deliverOrder(t.app, order.id), deliverOrder(t.app, order.id)]);
    await eventually(async () => expect((await orderOf(order.id)).status).toBe("delivered"), 5000);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(panelCredits(buyer.panelId)).toBe(3);
  });

  it("by the sandbox card: paying moves the credits once, and the provider's notification delivered again moves nothing more", async () => {
    const buyer = await partner();
    const res = await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 10, method: "card" });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.order).toMatchObject({ credits: 10, amount: 300, method: "sandbox" });
    expect(answer.pay_url).toContain(`/api/payments/sandbox/checkout/${encodeURIComponent(answer.order.reference)}`);
    const pressed = await t.app.inject({
      method: "POST",
      url: `/api/payments/sandbox/checkout/${answer.order.reference}/pay`,
      headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(pressed.statusCode).toBe(303);
    const order = await orderOf(answer.order.id);
    await eventually(async () => expect((await orderOf(order.id)).status).toBe("delivered"), 5000);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(panelCredits(buyer.panelId)).toBe(10);

    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, order.payment_id));
    expect(payment.status).toBe("paid");
    const again = await deliverSandboxAgain(t.app, payment, SANDBOX_SECRET);
    expect(again.statusCode, again.body).toBe(200);
    const orders = await asPartner(buyer.cookie, "GET", "/api/partner/credits/orders");
    expect(orders.json().data).toEqual([expect.objectContaining({ id: order.id, status: "delivered", credits: 10 })]);
    // every change those made has reached the watcher, and what it started has finished
    await changesDelivered(t.app);
    await paidOrderWorkSettled(t.app);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(panelCredits(buyer.panelId)).toBe(10);
  });

  it("the shop's result page (GET /api/payments/:ref) of a credit order says its credits, where they stand and the balance after; a shop payment has none", async () => {
    const buyer = await partner();
    const onPanel = fake.users.get(buyer.panelId);
    if (onPanel) onPanel.credits = 4;
    const answer = (await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 10, method: "eft" })).json();
    const statusOf = async () => {
      const res = await t.app.inject({ method: "GET", url: `/api/payments/${encodeURIComponent(answer.order.reference)}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect((await statusOf()).credit_order).toEqual({ credits: 10, status: "pending", balance: null });
    const order = await orderOf(answer.order.id);
    expect((await admin.call({ method: "POST", url: `/api/admin/payments/${order.payment_id}/mark-paid` })).statusCode).toBe(200);
    await eventually(async () => expect((await orderOf(order.id)).status).toBe("delivered"), 5000);
    const paid = await statusOf();
    expect(paid).toMatchObject({ status: "paid", outcome: { account: "none" } });
    expect(paid.credit_order).toEqual({ credits: 10, status: "delivered", balance: 14 });

    const ref = `SD-SHOP-${n}`;
    await t.app.db
      .insert(capturedPayments)
      .values({ provider: "eft", external_transaction_id: ref, amount: 100, currency: "ZAR", package_name: "1 Month", status: "pending" });
    const shop = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(shop.json().data).not.toHaveProperty("credit_order");
  });

  it("an owner short of credits: the order waits as refused with nothing moved, the owner is told, and sending it again once topped up moves them once", async () => {
    const buyer = await partner();
    const answer = (await asPartner(buyer.cookie, "POST", "/api/partner/credits/checkout", { credits: 20, method: "eft" })).json();
    const order = await orderOf(answer.order.id);
    fake.credits = 5;
    expect((await admin.call({ method: "POST", url: `/api/admin/payments/${order.payment_id}/mark-paid` })).statusCode).toBe(200);
    await eventually(async () => expect((await orderOf(order.id)).status).toBe("refused"), 5000);
    expect(panelCredits(buyer.panelId)).toBe(0);
    // The owner's alert is queued just after the order's status is written.
    await eventually(async () => {
      const alerts = await t.app.db
        .select()
        .from(outbox)
        .where(like(outbox.dedupe_key, `owner-alert:partner-order:${order.id}%`));
      expect(alerts.length).toBeGreaterThan(0);
    }, 5000);

    fake.credits = 1000;
    const retried = await admin.call({ method: "POST", url: `/api/admin/resellers/orders/${order.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ status: "delivered" });
    const again = await admin.call({ method: "POST", url: `/api/admin/resellers/orders/${order.id}/retry` });
    expect(again.statusCode).toBe(409);
    expect(adjustsFor(buyer.panelId)).toHaveLength(1);
    expect(panelCredits(buyer.panelId)).toBe(20);
  });
});

describe("the owner's network view (item 5)", () => {
  it("sums a seeded month per partner: credits sold, given and spent, lines made; and the runway counts partner demand", async () => {
    const seller = await partner();
    const other = await partner();
    const inMarch = (day: number) => new Date(`2026-03-${String(day).padStart(2, "0")}T10:00:00+02:00`);
    const transfer = (resellerId: string, credits: number, cause: string, day: number, status = "done") => ({
      reseller_id: resellerId,
      request_key: `${resellerId}:seed:${cause}:${day}:${credits}`,
      credits,
      cause,
      actor: "seed",
      status,
      created_at: inMarch(day),
    });
    await t.app.db.insert(resellerCreditTransfers).values([
      transfer(seller.id, 50, "order:a", 2),
      transfer(seller.id, 25, "order:b", 20),
      transfer(seller.id, 5, "owner-give", 3),
      transfer(seller.id, -3, "line:x", 4),
      transfer(seller.id, -3, "line:y", 5),
      transfer(seller.id, 3, "line-refund:y", 5),
      transfer(seller.id, -6, "line:z", 31),
      transfer(seller.id, 40, "order:c", 6, "refused"),
      transfer(other.id, 10, "order:d", 15),
      // the last day of February in South Africa, not March
      { ...transfer(other.id, 7, "order:e", 1), created_at: new Date("2026-02-28T23:00:00+02:00") },
    ]);
    const line = (resellerId: string, day: number, status = "done") => ({
      reseller_id: resellerId,
      request_key: `${resellerId}:seed-line:${day}:${status}`,
      name: "Seeded Customer",
      status,
      cost: 3,
      created_at: inMarch(day),
    });
    await t.app.db.insert(resellerLines).values([line(seller.id, 4), line(seller.id, 31), line(seller.id, 5, "failed")]);

    const bad = await admin.call({ method: "GET", url: "/api/admin/resellers/network?to=2026-13" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Give the last month as YYYY-MM, e.g. 2026-03");

    const res = await admin.call({ method: "GET", url: "/api/admin/resellers/network?to=2026-03&months=2" });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.months.map((m: { month: string }) => m.month)).toEqual(["2026-02", "2026-03"]);
    const march = view.months[1].partners;
    expect(march.find((p: { id: string }) => p.id === seller.id)).toMatchObject({ sold: 75, given: 5, spent: 9, lines: 2 });
    expect(march.find((p: { id: string }) => p.id === other.id)).toMatchObject({ sold: 10, given: 0, spent: 0, lines: 0 });
    expect(view.months[0].partners.find((p: { id: string }) => p.id === other.id)).toMatchObject({ sold: 7 });

    // The runway: the owner's balance read from the panel, and partners' demand from the last 90 days of orders delivered.
    const recent = await t.app.db
      .select({ credits: resellerCreditTransfers.credits })
      .from(resellerCreditTransfers)
      .where(and(eq(resellerCreditTransfers.status, "done"), like(resellerCreditTransfers.cause, "order:%")));
    const recentSum = recent.reduce((sum, r) => sum + r.credits, 0) - 50 - 25 - 10 - 7; // the seeded ones are older than 90 days
    expect(view.runway).toMatchObject({ owner_credits: fake.credits, partner_demand_30d: Math.ceil(recentSum / 3) });
    expect(view.runway.credits_needed_30d).toBe((view.runway.renewal_credits_30d ?? 0) + view.runway.partner_demand_30d);
  });
});
