// Automatic renewals by a kept Paystack card (issue 44 item 7), against the fake Paystack over real
// HTTP: the reusable authorization_code of a consented payment kept sealed (and none kept from a
// payment that did not ask), the charge by POST /transaction/charge_authorization once (two runs
// racing; on PostgreSQL two processes), its charge.success webhook settling once through the one
// capture path, a decline, and a lost answer looked up by its reference (verify) before anything is
// sent again. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakePaystack, startFakePaystack } from "@/server/adapters/payments/paystack/fake";
import { openDatabase } from "@/server/db/client";
import { autoRenewals, capturedPayments, clientLifecycleEvents, clients, outbox, packages, renewalCharges } from "@/server/db/schema";
import { digestAlert, digestFacts } from "@/server/jobs/owner-digest";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { paymentNotificationsSettled } from "@/server/modules/payments/service";
import { startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { runAutoRenewals } from "./renewals";

const SECRET = "sk_test_paystack_renewals";
const PUBLIC_URL = "https://shop.example.co.za";
const CONFIG = { PAYSTACK_SECRET_KEY: SECRET, PUBLIC_URL };
const DAY = 86_400_000;
const HOUR = 3_600_000;

let fake: FakePaystack;
let t: TestApp;
let webhookUrl: string;
let admin: SignedIn;
let threeMonths: { id: string; price: number };
let counter = 0;

beforeAll(async () => {
  fake = await startFakePaystack({ secretKey: SECRET });
  t = await createTestApp({ ...CONFIG, PAYSTACK_API_URL: fake.url }, { seed: true });
  admin = await signInAdmin(t.app); // the owner, whom alerts reach
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/paystack/webhook`;
  fake.webhookUrl = webhookUrl;
  const [pkg] = await t.app.db.select().from(packages).where(eq(packages.name, "3 Months"));
  threeMonths = { id: pkg.id, price: pkg.price };
});
afterAll(async () => {
  await fake?.webhooksSent();
  await paymentNotificationsSettled();
  await t?.close();
  await fake?.close();
});

/** A Paystack checkout (auto-renew ticked or not), paid on Paystack's page, its charge.success delivered. */
async function paidCheckout(autoRenew: boolean) {
  const n = ++counter;
  const email = `stack${n}@example.co.za`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: `Stack Renew ${n}`,
      whatsapp: `0843${String(n).padStart(6, "0")}`,
      email,
      immediateStartConsent: true,
      method: "paystack",
      packageId: threeMonths.id,
      autoRenew,
    },
    remoteAddress: `10.45.0.${n}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const ref = (response.json() as { externalTransactionID: string }).externalTransactionID;
  fake.pay(ref);
  expect((await fake.send(fake.webhookFor(ref))).status).toBe(200);
  await paymentNotificationsSettled();
  const payment = await paymentOf(ref);
  expect(payment.status).toBe("paid");
  return {
    ref,
    email,
    clientId: payment.client_id as string,
    code: fake.transactions.get(ref)?.authorization?.authorization_code as string,
  };
}

const paymentOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const clientOf = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];
const chargesOf = async (clientId: string) => t.app.db.select().from(renewalCharges).where(eq(renewalCharges.client_id, clientId));
/** The saved-card charges Paystack holds for this card. */
const chargesAt = (code: string) => [...fake.transactions.values()].filter((x) => x.authorization?.authorization_code === code).slice(1);

async function renewingClient(end: Date) {
  const paid = await paidCheckout(true);
  await t.app.db.update(clients).set({ subscription_end: end, status: "active" }).where(eq(clients.id, paid.clientId));
  return paid;
}

async function run(now: Date, app = t.app) {
  const result = await runAutoRenewals(app, now);
  await fake.webhooksSent();
  await paymentNotificationsSettled();
  return result;
}

const captures = async (clientId: string) =>
  (await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, clientId))).filter(
    (e) => e.cause === "payment-captured",
  ).length;

describe("automatic renewal by a kept Paystack card", () => {
  it("keeps the consented payment's reusable authorization sealed, named by its card; a payment that did not ask keeps none and is still captured", async () => {
    const { clientId, code } = await paidCheckout(true);
    const [row] = await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
    expect(row).toMatchObject({ enabled: true, provider: "paystack", card_label: "Visa ending 4081 (expires 12/2030)" });
    expect(row.token_sealed).toMatch(/^v1\./);
    expect(row.token_sealed).not.toContain(code);
    const portal = await t.app.inject({
      method: "GET",
      url: "/api/client/auto-renew",
      cookies: (await clientSession(t.app, clientId)).cookie,
    });
    expect(portal.body).not.toContain(code);
    expect(portal.json().data).toMatchObject({ enabled: true, card: "Visa ending 4081 (expires 12/2030) via Paystack", ready: true });

    // the owner's client page reads the same line (GET /api/admin/clients/:id/auto-renew); a client may not
    const owner = await admin.call({ method: "GET", url: `/api/admin/clients/${clientId}/auto-renew` });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.body).not.toContain(code);
    expect(owner.json().data).toMatchObject({ enabled: true, ready: true, card: "Visa ending 4081 (expires 12/2030) via Paystack" });
    expect((await admin.call({ method: "GET", url: "/api/admin/clients/not-an-id/auto-renew" })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: `/api/admin/clients/${clientId}/auto-renew` })).statusCode).toBe(401);

    const plain = await paidCheckout(false);
    expect(await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, plain.clientId))).toEqual([]);
  });

  it("charges the card once the day before the end (charge_authorization: its e-mail, cents, our reference); the webhook settles once; a replay changes nothing", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code, email } = await renewingClient(end);
    await run(now);
    expect(chargesAt(code)).toHaveLength(0);
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    await Promise.all([run(chargeTime), run(chargeTime)]);
    const made = chargesAt(code);
    expect(made).toHaveLength(1);
    const [charge] = await chargesOf(clientId);
    expect(charge).toMatchObject({ status: "paid", attempts: 1 });
    const payment = (
      await t.app.db
        .select()
        .from(capturedPayments)
        .where(eq(capturedPayments.id, charge.payment_id as string))
    )[0];
    expect(made[0]).toMatchObject({
      reference: payment.external_transaction_id,
      email,
      amount: Math.round(threeMonths.price * 100),
      status: "success",
    });
    expect(payment).toMatchObject({ status: "paid", provider: "paystack", client_id: clientId });
    const extended = (await clientOf(clientId)).subscription_end?.getTime() as number;
    expect(extended).toBeGreaterThan(end.getTime() + 80 * DAY);
    const settled = await captures(clientId);
    expect((await fake.send(fake.webhookFor(payment.external_transaction_id))).status).toBe(200);
    await paymentNotificationsSettled();
    expect(await captures(clientId)).toBe(settled);
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(extended);
    await run(new Date(chargeTime.getTime() + HOUR));
    expect(chargesAt(code)).toHaveLength(1);
  });

  it("a declined card: no term change, the customer is told why in plain words, the owner alerted", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code } = await renewingClient(end);
    await run(now);
    fake.decline(code, "Insufficient Funds");
    await run(new Date(end.getTime() - DAY + HOUR));
    const [charge] = await chargesOf(clientId);
    expect(charge).toMatchObject({ status: "declined", attempts: 1, last_error: "Insufficient Funds" });
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(end.getTime());
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "auto-renew-declined")));
    expect(told[0].body).toContain("not enough money on the card");
    const alerts = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "owner-alert"))).filter((m) =>
      m.dedupe_key?.startsWith(`renewal-declined:${charge.id}`),
    );
    expect(alerts.length).toBeGreaterThan(0);
  });

  it("the owner's daily digest the next day has a line for the failed renewals, with the page that lists them", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { code } = await renewingClient(end);
    await run(now);
    fake.decline(code, "Do Not Honour");
    await run(new Date(end.getTime() - DAY + HOUR));
    const facts = await digestFacts(t.app.db, new Date(Date.now() + DAY));
    expect(facts.renewalsFailed).toBeGreaterThanOrEqual(1);
    expect(digestAlert(PUBLIC_URL, facts).body).toContain(
      `- Automatic renewals by card that failed: ${facts.renewalsFailed} (declined or no clear answer; the customers have the pay link): ${PUBLIC_URL}/admin/payments`,
    );
    expect(digestAlert(PUBLIC_URL, { ...facts, renewalsFailed: 0 }).body).not.toContain("Automatic renewals");
  });

  it("a lost answer is not sent again: the charge is verified by its reference and, made, settles once through the capture path", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code } = await renewingClient(end);
    await run(now);
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    fake.webhookUrl = ""; // the charge's webhook lost too: only the lookup can tell
    fake.fail("charge_authorization", "lost");
    try {
      await run(chargeTime);
    } finally {
      fake.webhookUrl = webhookUrl;
    }
    expect(chargesAt(code)).toHaveLength(1);
    expect((await chargesOf(clientId))[0]).toMatchObject({ status: "unknown", attempts: 1 });
    await run(new Date(chargeTime.getTime() + 30 * 60_000)); // too soon to look up; never resent
    expect(chargesAt(code)).toHaveLength(1);
    await t.app.db
      .update(renewalCharges)
      .set({ updated_at: new Date(chargeTime.getTime() - 2 * HOUR) })
      .where(eq(renewalCharges.client_id, clientId));
    await run(new Date(chargeTime.getTime() + 2 * HOUR));
    const [charge] = await chargesOf(clientId);
    expect(fake.calls).toContain(`GET /transaction/verify/${chargesAt(code)[0].reference}`);
    expect(charge.status).toBe("paid");
    expect(chargesAt(code)).toHaveLength(1);
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBeGreaterThan(end.getTime() + 80 * DAY);
  });

  it("a lost answer whose charge was made and declined: the lookup tells the customer the decline once, as a first answer would, and the owner once", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code } = await renewingClient(end);
    await run(now);
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    fake.decline(code, "Insufficient Funds");
    fake.fail("charge_authorization", "lost");
    await run(chargeTime);
    expect((await chargesOf(clientId))[0]).toMatchObject({ status: "unknown", attempts: 1 });
    await t.app.db
      .update(renewalCharges)
      .set({ updated_at: new Date(chargeTime.getTime() - 2 * HOUR) })
      .where(eq(renewalCharges.client_id, clientId));
    await run(new Date(chargeTime.getTime() + 2 * HOUR)); // looked up: declined
    await run(new Date(chargeTime.getTime() + 2 * HOUR + 60_000)); // again: nothing new
    const [charge] = await chargesOf(clientId);
    expect(charge).toMatchObject({ status: "declined", attempts: 1 });
    expect(charge.last_error).toContain("looked up: Insufficient Funds");
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "auto-renew-declined")));
    expect(told.length).toBeGreaterThan(0);
    expect(told.filter((m) => m.channel === "whatsapp")).toHaveLength(1);
    expect(told.filter((m) => m.channel === "email")).toHaveLength(1);
    expect(told[0].body).toContain("not enough money on the card");
    expect(told[0].body).toContain("We'll try the card once more tomorrow.");
    const alerts = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "owner-alert"))).filter(
      (m) => m.dedupe_key === `renewal-declined:${charge.id}:1`,
    );
    expect(alerts).toHaveLength(1);
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(end.getTime());
  });

  it("an answer that never came from a charge Paystack never made (503): verified as not made, then sent once more with a new reference", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code } = await renewingClient(end);
    await run(now);
    const chargeTime = new Date(end.getTime() - DAY + HOUR);
    fake.fail("charge_authorization", "down");
    await run(chargeTime);
    const [lost] = await chargesOf(clientId);
    expect(lost.status).toBe("unknown");
    const firstRef = (
      await t.app.db
        .select()
        .from(capturedPayments)
        .where(eq(capturedPayments.id, lost.payment_id as string))
    )[0].external_transaction_id;
    await t.app.db
      .update(renewalCharges)
      .set({ updated_at: new Date(chargeTime.getTime() - 2 * HOUR) })
      .where(eq(renewalCharges.client_id, clientId));
    await run(new Date(chargeTime.getTime() + 2 * HOUR)); // looked up: none
    await run(new Date(chargeTime.getTime() + 3 * HOUR)); // sent again
    expect(fake.calls).toContain(`GET /transaction/verify/${firstRef}`);
    const made = chargesAt(code);
    expect(made).toHaveLength(1);
    expect(made[0].reference).not.toBe(firstRef);
    expect((await chargesOf(clientId))[0]).toMatchObject({ status: "paid" });
    expect((await paymentOf(firstRef)).status).toBe("failed");
  });

  it("the portal turns it off: Paystack deactivates the authorization, and no charge is made", async () => {
    const now = new Date();
    const end = new Date(now.getTime() + 2 * DAY);
    const { clientId, code } = await renewingClient(end);
    await run(now);
    const off = await t.app.inject({
      method: "DELETE",
      url: "/api/client/auto-renew",
      cookies: (await clientSession(t.app, clientId)).cookie,
      headers: { origin: PUBLIC_URL },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(fake.deactivated.has(code)).toBe(true);
    await run(new Date(end.getTime() - DAY + HOUR));
    expect(chargesAt(code)).toHaveLength(0);
    expect((await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId)))[0].token_sealed).toBeNull();
  });

  it.runIf(onPostgres())(
    "PostgreSQL: two processes running the job at the charge hour charge the card once",
    { timeout: 30_000 },
    async () => {
      const now = new Date();
      const end = new Date(now.getTime() + 2 * DAY);
      const { clientId, code } = await renewingClient(end);
      await run(now);
      const url = t.database.url as string;
      const second = await createTestApp(
        { ...CONFIG, PAYSTACK_API_URL: fake.url },
        { database: await openDatabase({ databaseUrl: url, poolSize: 5 }), seed: false },
      );
      try {
        const chargeTime = new Date(end.getTime() - DAY + HOUR);
        // both claim the same row: held by a lock until both wait on it, then let go together
        await startTogether(url, "LOCK TABLE renewal_charges IN EXCLUSIVE MODE", 2, () =>
          Promise.all([runAutoRenewals(t.app, chargeTime), runAutoRenewals(second.app, chargeTime)]),
        );
        await fake.webhooksSent();
        await paymentNotificationsSettled();
        expect(chargesAt(code)).toHaveLength(1);
        expect((await chargesOf(clientId))[0]).toMatchObject({ status: "paid", attempts: 1 });
      } finally {
        await second.close();
      }
    },
  );
});
