// Automatic renewals by a kept PayFast card (issue 44), against the fake PayFast over real HTTP
// (its checkout, ITNs and subscriptions API, each signature checked by the fake), with the term
// moved in SQL and the job's clock moved: consent at checkout, the token kept sealed, the notice
// once, the charge once (two runs racing; on PostgreSQL two processes), its ITN settling once,
// a decline, a lost answer looked up (never charged again), and the portal's switch.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePayfast } from "@/server/adapters/payments/payfast/fake";
import { openDatabase } from "@/server/db/client";
import { auditLog, autoRenewals, capturedPayments, clientLifecycleEvents, clients, outbox, renewalCharges } from "@/server/db/schema";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { paymentNotificationsSettled } from "@/server/modules/payments/service";
import { CONFIG, openPayfastShop, type PayfastShop, PUBLIC_URL } from "@/server/test-support/payfast-shop";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { autoRenewConsent } from "@/shared/auto-renew";
import { runAutoRenewals } from "./renewals";

const DAY = 86_400_000;
const HOUR = 3_600_000;

let shop: PayfastShop;
let fake: FakePayfast;
let t: TestApp;
let admin: SignedIn;
let threeMonths: PayfastShop["threeMonths"];
let counter = 0;

beforeAll(async () => {
  shop = await openPayfastShop();
  ({ fake, t, threeMonths } = shop);
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await shop?.close();
});

/** The review step's PayFast pay link (auto-renew ticked or not), then the browser posting our hand-off form to PayFast. */
async function checkout(autoRenew: boolean | undefined) {
  const n = ++counter;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: `Renew Auto ${n}`,
      whatsapp: `0841${String(n).padStart(6, "0")}`,
      email: `renew${n}@example.co.za`,
      immediateStartConsent: true,
      method: "payfast",
      packageId: threeMonths.id,
      ...(autoRenew === undefined ? {} : { autoRenew }),
    },
    remoteAddress: `10.44.0.${n}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  return { ref, fields: await shop.handOff(paylinkUrl) };
}

const itn = (ref: string, options?: Parameters<FakePayfast["sendItn"]>[1]) => shop.itn(ref, options);
const paymentOf = (ref: string) => shop.paymentOf(ref);
const clientOf = (id: string) => shop.clientOf(id);
const chargesOf = async (clientId: string) => t.app.db.select().from(renewalCharges).where(eq(renewalCharges.client_id, clientId));
const messagesOf = async (clientId: string, kind: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, kind)));
const adhocCalls = (token: string) => fake.apiCalls.filter((c) => c === `POST /subscriptions/${token}/adhoc`).length;

/** A client who paid by PayFast with "Renew automatically" ticked, their card kept; their term ending at `end`. */
async function renewingClient(end?: Date) {
  const { ref } = await checkout(true);
  await itn(ref);
  const payment = await paymentOf(ref);
  expect(payment.status).toBe("paid");
  const clientId = payment.client_id as string;
  const token = fake.payments.get(ref)?.token as string;
  if (end) await t.app.db.update(clients).set({ subscription_end: end, status: "active" }).where(eq(clients.id, clientId));
  return { ref, clientId, token };
}

/** The job's pass at `now`, then the charge's ITN (if the fake sent one) processed. */
async function run(now: Date) {
  const result = await runAutoRenewals(t.app, now);
  await fake.adhocItnsSent();
  await paymentNotificationsSettled();
  return result;
}

describe("automatic renewal: consent at checkout", () => {
  it("records the consent sentence with the payment, and the PayFast form carries subscription_type=2 in its signed fields (PayFast accepts it)", async () => {
    const { ref, fields } = await checkout(true);
    expect(fields.subscription_type).toBe("2");
    const payment = await paymentOf(ref);
    // the package's own price (not today's special), what each renewal will charge
    expect(payment.auto_renew_consent).toBe(autoRenewConsent(Math.round(threeMonths.price * 100), 3));
    expect(payment.auto_renew_consent).toMatch(
      /^We'll charge R[\d,]+ to this card every 3 months on the day before your line ends, and tell you 3 days before\. Turn it off any time in your portal\.$/,
    );
    // the fake checked the signature over every field, subscription_type included
    expect(fake.payments.get(ref)?.token).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("off by default: no consent, no subscription_type, no card kept", async () => {
    const { ref, fields } = await checkout(undefined);
    expect(fields.subscription_type).toBeUndefined();
    expect((await paymentOf(ref)).auto_renew_consent).toBeNull();
    await itn(ref);
    const payment = await paymentOf(ref);
    expect(payment.status).toBe("paid");
    expect(
      await t.app.db
        .select()
        .from(autoRenewals)
        .where(eq(autoRenewals.client_id, payment.client_id as string)),
    ).toEqual([]);
  });

  it("bad input: auto-renew asked of a way to pay that keeps no card, or not a yes/no, is a 400 and writes no payment", async () => {
    const before = (await t.app.db.select({ id: capturedPayments.id }).from(capturedPayments)).length;
    for (const payload of [
      { method: "card", autoRenew: true },
      { method: "payfast", autoRenew: "yes" },
    ]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/payments/paylink",
        payload: { name: "Bad Input", whatsapp: "0842000001", immediateStartConsent: true, packageId: threeMonths.id, ...payload },
        remoteAddress: "10.44.9.1",
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.fields).toHaveProperty("autoRenew");
    }
    expect((await t.app.db.select({ id: capturedPayments.id }).from(capturedPayments)).length).toBe(before);
  });

  it("keeps the ITN's token sealed for the client: the row holds no plaintext, the payload and the portal never show it", async () => {
    const { ref, clientId, token } = await renewingClient();
    const [row] = await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
    expect(row).toMatchObject({ enabled: true, provider: "payfast", consent_payment_id: (await paymentOf(ref)).id });
    expect(row.token_sealed).toMatch(/^v1\./);
    expect(row.token_sealed).not.toContain(token);
    expect(JSON.stringify((await paymentOf(ref)).raw_payload)).not.toContain(token);
    const portal = await t.app.inject({
      method: "GET",
      url: "/api/client/auto-renew",
      cookies: (await clientSession(t.app, clientId)).cookie,
    });
    expect(portal.statusCode).toBe(200);
    expect(portal.body).not.toContain(token);
    expect(portal.json().data).toMatchObject({ enabled: true, card: "card via PayFast", ready: true });
  });

  it("bad input: an ITN carrying a card token this payment never asked for captures nothing and is noted", async () => {
    const { ref } = await checkout(false);
    await itn(ref, { extra: [["token", "8b1d0c6e-0000-4000-8000-000000000001"]] });
    const payment = await paymentOf(ref);
    expect(payment.status).toBe("pending");
    expect(payment.notes).toContain("did not ask for");
  });
});

describe("automatic renewal: the notice, then one charge", () => {
  it("tells the customer once, 3 days before the end (not at 5), on their channel and by e-mail", async () => {
    const now = new Date();
    const { clientId } = await renewingClient(new Date(now.getTime() + 5 * DAY));
    expect((await run(now)).noticed).toBe(0);
    const end = new Date(now.getTime() + 3 * DAY - HOUR);
    await t.app.db.update(clients).set({ subscription_end: end }).where(eq(clients.id, clientId));
    expect((await run(now)).noticed).toBe(1);
    expect((await run(new Date(now.getTime() + HOUR))).noticed).toBe(0);
    const notices = await messagesOf(clientId, "auto-renew-notice");
    expect(notices.map((m) => m.channel).sort()).toEqual(["email", "whatsapp"]);
    expect(notices[0].body).toMatch(
      /We'll charge R[\d,]+ to your card on \d+ \w+ \d{4} for another 3 months; turn it off in your portal: https:\/\/shop\.example\.co\.za\/client/,
    );
    const [charge] = await chargesOf(clientId);
    expect(charge).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("charges once the day before the end; its ITN settles once and extends the term once; a replay changes nothing", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 3 * DAY - HOUR);
    const { clientId, token } = await renewingClient(end);
    await run(now);
    expect(adhocCalls(token)).toBe(0);
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    // two passes racing: one claim, one charge
    // (other tests' clients due at this hour are charged too: what counts is this card's charges)
    await Promise.all([run(chargeTime), run(chargeTime)]);
    expect(adhocCalls(token)).toBe(1);
    expect(fake.cards.get(token)?.charges).toHaveLength(1);
    const [charge] = await chargesOf(clientId);
    expect(charge).toMatchObject({ status: "paid", attempts: 1 });
    const payment = (
      await t.app.db
        .select()
        .from(capturedPayments)
        .where(eq(capturedPayments.id, charge.payment_id as string))
    )[0];
    expect(payment).toMatchObject({ status: "paid", provider: "payfast", client_id: clientId });
    const after = await clientOf(clientId);
    expect(after.subscription_end?.getTime()).toBeGreaterThan(end.getTime() + 80 * DAY);
    const events = async () =>
      (await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, clientId))).filter(
        (e) => e.cause === "payment-captured",
      ).length;
    const captures = await events();
    // the charge's ITN again: nothing new
    await itn(payment.external_transaction_id);
    expect(await events()).toBe(captures);
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(after.subscription_end?.getTime());
    // the job again: the new term is months away
    await run(new Date(chargeTime.getTime() + HOUR));
    expect(adhocCalls(token)).toBe(1);
  });

  it("a declined card: no term change, the customer gets the pay link and the reason in plain words, the owner is alerted, one retry the next day", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, token } = await renewingClient(end);
    await run(now);
    fake.adhocMode = "decline";
    fake.declineReason = "Insufficient funds";
    try {
      const chargeTime = new Date(end.getTime() - DAY + HOUR);
      expect((await run(chargeTime)).declined).toBeGreaterThanOrEqual(1);
      expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(end.getTime());
      const [charge] = await chargesOf(clientId);
      expect(charge).toMatchObject({ status: "declined", attempts: 1 });
      expect(
        (
          await t.app.db
            .select()
            .from(capturedPayments)
            .where(eq(capturedPayments.id, charge.payment_id as string))
        )[0].status,
      ).toBe("failed");
      const [message] = await messagesOf(clientId, "auto-renew-declined");
      expect(message.body).toContain("not enough money on the card");
      expect(message.body).toMatch(/pay here before .*: https:\/\/shop\.example\.co\.za\//);
      const alerts = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "owner-alert"))).filter((m) =>
        m.dedupe_key?.startsWith(`renewal-declined:${charge.id}`),
      );
      expect(alerts.length).toBeGreaterThan(0);
      // the same hour again: no second attempt; the next day: the one retry, then no more
      await run(new Date(chargeTime.getTime() + HOUR));
      expect(adhocCalls(token)).toBe(1);
      await run(new Date(chargeTime.getTime() + DAY + HOUR));
      expect(adhocCalls(token)).toBe(2);
      await run(new Date(chargeTime.getTime() + 2 * DAY + 2 * HOUR));
      expect(adhocCalls(token)).toBe(2);
      expect((await chargesOf(clientId))[0]).toMatchObject({ status: "declined", attempts: 2, next_attempt_at: null });
    } finally {
      fake.adhocMode = "ok";
    }
  });

  it("no clear answer (PayFast 5xx): not sent again; the card is looked up instead, and the owner told", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, token } = await renewingClient(end);
    await run(now);
    fake.adhocMode = "down";
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    try {
      expect((await run(chargeTime)).unknown).toBeGreaterThanOrEqual(1);
    } finally {
      fake.adhocMode = "ok";
    }
    expect((await chargesOf(clientId))[0]).toMatchObject({ status: "unknown", attempts: 1 });
    // the token is in PayFast's API path: never in what we keep, log or tell
    expect((await chargesOf(clientId))[0].last_error).toContain("{token}");
    expect((await chargesOf(clientId))[0].last_error).not.toContain(token);
    const unknownCharge = (await chargesOf(clientId))[0];
    const told = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "owner-alert"))).filter((m) =>
      m.dedupe_key?.startsWith(`renewal-unknown:${unknownCharge.id}`),
    );
    expect(told.length).toBeGreaterThan(0);
    await t.app.db
      .update(renewalCharges)
      .set({ updated_at: new Date(chargeTime.getTime() - 2 * HOUR) })
      .where(eq(renewalCharges.client_id, clientId));
    await run(new Date(chargeTime.getTime() + 2 * HOUR));
    await run(new Date(chargeTime.getTime() + DAY));
    expect(adhocCalls(token)).toBe(1);
    expect(fake.apiCalls).toContain(`GET /subscriptions/${token}/fetch`);
    expect((await chargesOf(clientId))[0].last_error).toContain("ACTIVE");
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(end.getTime());
  });
});

describe("automatic renewal: stop, and the owner's view", () => {
  it("the portal turns it off: PayFast is told, and no later charge is made", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, token } = await renewingClient(end);
    await run(now);
    const { cookie } = await clientSession(t.app, clientId);
    const bad = await t.app.inject({
      method: "PUT",
      url: "/api/client/auto-renew",
      cookies: cookie,
      headers: { origin: PUBLIC_URL },
      payload: { enabled: "no" },
    });
    expect(bad.statusCode).toBe(400);
    const on = await t.app.inject({
      method: "PUT",
      url: "/api/client/auto-renew",
      cookies: cookie,
      headers: { origin: PUBLIC_URL },
      payload: { enabled: true },
    });
    expect(on.statusCode).toBe(409);
    const off = await t.app.inject({ method: "DELETE", url: "/api/client/auto-renew", cookies: cookie, headers: { origin: PUBLIC_URL } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, ready: false });
    expect(fake.cards.get(token)?.status).toBe("CANCELLED");
    expect(fake.apiCalls).toContain(`PUT /subscriptions/${token}/cancel`);
    await run(new Date(end.getTime() - DAY + HOUR));
    expect(adhocCalls(token)).toBe(0);
    expect((await chargesOf(clientId))[0].status).toBe("cancelled");
    const [row] = await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
    expect(row.token_sealed).toBeNull();
  });

  it("a suspension turns it off: the job tells PayFast to forget the card, and no charge is made", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, token } = await renewingClient(end);
    await run(now);
    const suspended = await admin.call({ method: "POST", url: `/api/admin/clients/${clientId}/suspend` });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId)))[0]).toMatchObject({
      enabled: false,
      disabled_reason: "the line was suspended",
    });
    const ran = await admin.call({ method: "POST", url: "/api/admin/renewals/run" });
    expect(ran.statusCode).toBe(200);
    expect(fake.cards.get(token)?.status).toBe("CANCELLED");
    await run(new Date(end.getTime() - DAY + HOUR));
    expect(adhocCalls(token)).toBe(0);
  });

  it("a refund of the client's last payment turns it off, and drops the term's unsent charge", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { ref, clientId, token } = await renewingClient(end);
    await run(now);
    const payment = await paymentOf(ref);
    const refunded = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 10, reason: "Goodwill for a bad evening", term: "keep", by_hand: true },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId)))[0].enabled).toBe(false);
    expect((await chargesOf(clientId))[0].status).toBe("cancelled");
    await run(new Date(end.getTime() - DAY + HOUR));
    expect(adhocCalls(token)).toBe(0);
  });

  it("the owner sees how many renew by card and the charges due; 'run now' is audited and safe to repeat", async () => {
    const now = new Date();
    const { clientId } = await renewingClient(new Date(now.getTime() + 4 * DAY));
    const overview = await admin.call({ method: "GET", url: "/api/admin/renewals" });
    expect(overview.statusCode, overview.body).toBe(200);
    const data = overview.json().data;
    expect(data.autoRenewing).toBeGreaterThanOrEqual(1);
    expect(data.due.map((d: { clientId: string }) => d.clientId)).toContain(clientId);
    expect(JSON.stringify(data)).not.toContain("v1.");
    const first = await admin.call({ method: "POST", url: "/api/admin/renewals/run" });
    const second = await admin.call({ method: "POST", url: "/api/admin/renewals/run" });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().data).toMatchObject({ charged: 0 });
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, "renewals"));
    expect(audits.length).toBeGreaterThanOrEqual(2);
    const client = await t.app.inject({ method: "POST", url: "/api/admin/renewals/run" });
    expect(client.statusCode).toBe(401);
  });

  it.runIf(onPostgres())(
    "PostgreSQL: two processes running the job at the charge hour charge the card once",
    { timeout: 30_000 },
    async () => {
      const now = new Date();
      const end = new Date(now.getTime() + 2 * DAY);
      const { clientId, token } = await renewingClient(end);
      await run(now);
      const secondDatabase = await openDatabase({ databaseUrl: t.database.url as string, poolSize: 5 });
      const second = await createTestApp(
        { ...CONFIG, PAYFAST_URL: fake.url, PAYFAST_API_URL: fake.url },
        { database: secondDatabase, seed: false },
      );
      try {
        const chargeTime = new Date(end.getTime() - DAY + HOUR);
        const results = await Promise.all([
          runAutoRenewals(t.app, chargeTime),
          runAutoRenewals(second.app, chargeTime),
          runAutoRenewals(t.app, chargeTime),
        ]);
        await fake.adhocItnsSent();
        await paymentNotificationsSettled();
        expect(results.reduce((sum, r) => sum + r.charged, 0)).toBeGreaterThanOrEqual(1);
        expect(adhocCalls(token)).toBe(1);
        expect((await chargesOf(clientId))[0]).toMatchObject({ status: "paid", attempts: 1 });
      } finally {
        await second.close();
      }
    },
  );
});
