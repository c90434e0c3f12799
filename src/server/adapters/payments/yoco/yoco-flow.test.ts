// Yoco Checkout beside the card provider, against the local fake over real HTTP: the checkout is
// made with our reference as its Idempotency-Key; webhooks signed as Standard Webhooks reach our
// listening server, which captures through the one capture path only when the signature and its
// timestamp hold and Yoco's own checkout shows it completed for our amount. Refunds go through
// Yoco's refund API.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yocoSignature } from "@/server/adapters/payments/yoco/adapter";
import { type FakeYoco, startFakeYoco } from "@/server/adapters/payments/yoco/fake";
import { ConfigError, loadConfig } from "@/server/config";
import { capturedPayments, creditNotes, invoices, outbox, packages } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";

const KEYS = {
  secretKey: "sk_test_fake_secret",
  webhookSecret: `whsec_${Buffer.from("yoco-webhook-signing-key-32-bytes").toString("base64")}`,
};
const PUBLIC_URL = "https://shop.example.co.za";

let fake: FakeYoco;
let t: TestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};
let counter = 0;

beforeAll(async () => {
  fake = await startFakeYoco(KEYS);
  t = await createTestApp(
    { YOCO_SECRET_KEY: KEYS.secretKey, YOCO_WEBHOOK_SECRET: KEYS.webhookSecret, YOCO_API_URL: fake.url, PUBLIC_URL },
    { seed: true },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  fake.webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/yoco/webhook`;
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function yocoPayment(packageName = "3 Months") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: "Yoco Payer",
      whatsapp: `0820${String(++counter).padStart(6, "0")}`,
      immediateStartConsent: true,
      method: "yoco",
      packageId: pkgId[packageName],
      email: "yoco@example.co.za",
    },
    remoteAddress: `10.5.0.${++counter}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  const row = await rowOf(ref);
  return { ref, paylinkUrl, checkoutId: row.provider_reference as string };
}

const rowOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const receiptsFor = async (ref: string) =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));

describe("Yoco Checkout (fake)", () => {
  it("lists Yoco among the ways to pay", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/payments/methods" });
    expect(response.json().data.providers).toEqual([{ id: "yoco", name: "Yoco" }]);
  });

  it("makes the checkout at Yoco in cents with our reference as the Idempotency-Key, and sends the customer to it", async () => {
    const { ref, paylinkUrl, checkoutId } = await yocoPayment();
    const checkout = fake.checkouts.get(checkoutId);
    expect(paylinkUrl).toBe(`${fake.url}/pay/${checkoutId}`);
    expect(checkout?.idempotencyKey).toBe(ref);
    expect(checkout?.request).toMatchObject({
      amount: 145000,
      currency: "ZAR",
      successUrl: `${PUBLIC_URL}/payment/success?ref=${ref}`,
      cancelUrl: `${PUBLIC_URL}/payment/cancel?ref=${ref}`,
      failureUrl: `${PUBLIC_URL}/payment/failure?ref=${ref}`,
      externalId: ref,
    });
    expect(await rowOf(ref)).toMatchObject({ provider: "yoco", status: "pending", amount: 1450 });
  });

  it("a signed payment.succeeded that Yoco's checkout backs captures once; replays (and the same payment again) capture nothing", async () => {
    const { ref, checkoutId } = await yocoPayment();
    const paid = fake.complete(checkoutId);
    const answer = await fake.sendWebhook(checkoutId);
    expect(answer.status, answer.body).toBe(200);
    const row = await rowOf(ref);
    expect(row).toMatchObject({ status: "paid", provider_payment_id: paid.paymentId });
    expect(await t.app.db.select().from(invoices).where(eq(invoices.payment_id, row.id))).toHaveLength(1);
    expect(await receiptsFor(ref)).toHaveLength(1);
    const again = await Promise.all([fake.sendWebhook(checkoutId), fake.sendWebhook(checkoutId)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(await receiptsFor(ref)).toHaveLength(1);
    expect((await rowOf(ref)).paid_at?.toISOString()).toBe(row.paid_at?.toISOString());
  });

  it("a wrong signature, or a delivery signed more than 3 minutes ago, is a 401: not captured, noted for the owner", async () => {
    const { ref, checkoutId } = await yocoPayment();
    fake.complete(checkoutId);
    const forged = await fake.sendWebhook(checkoutId, { secret: `whsec_${Buffer.from("another-key").toString("base64")}` });
    expect(forged.status).toBe(401);
    const stale = await fake.sendWebhook(checkoutId, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(401);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain(
      "Not captured: a notification from Yoco for this payment was refused (The webhook's signature does not match.)",
    );
    expect(row.notes).toContain("The webhook's timestamp is more than 3 minutes off.");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("another amount, in the webhook or at Yoco, or a checkout Yoco does not show completed, captures nothing", async () => {
    const webhook = await yocoPayment();
    fake.complete(webhook.checkoutId);
    expect((await fake.sendWebhook(webhook.checkoutId, { amount: 100 })).status).toBe(200);
    expect((await rowOf(webhook.ref)).notes).toContain("Not captured: Yoco reported 100 cents, we priced 145000 cents.");

    const atYoco = await yocoPayment();
    const checkout = fake.complete(atYoco.checkoutId);
    checkout.amount = 100;
    expect((await fake.sendWebhook(atYoco.checkoutId, { amount: 145000 })).status).toBe(200);
    expect((await rowOf(atYoco.ref)).notes).toContain("Not captured: the provider reported 100 cents, we priced 145000 cents.");

    const unpaid = await yocoPayment();
    expect((await fake.sendWebhook(unpaid.checkoutId)).status).toBe(200);
    expect((await rowOf(unpaid.ref)).notes).toContain("Not captured: Yoco's own status for it is not paid.");
    for (const { ref } of [webhook, atYoco, unpaid]) {
      expect((await rowOf(ref)).status).toBe("pending");
      expect(await receiptsFor(ref)).toHaveLength(0);
    }
  });

  it("Yoco down: 502 so Yoco delivers again, nothing captured, the owner told; the retry captures", async () => {
    const { ref, checkoutId } = await yocoPayment();
    fake.complete(checkoutId);
    fake.down = true;
    try {
      expect((await fake.sendWebhook(checkoutId)).status).toBe(502);
    } finally {
      fake.down = false;
    }
    expect((await rowOf(ref)).notes).toContain("Yoco answered 503");
    expect((await rowOf(ref)).status).toBe("pending");
    expect((await fake.sendWebhook(checkoutId)).status).toBe(200);
    expect((await rowOf(ref)).status).toBe("paid");
  });

  it("payment.failed marks it failed; missing headers, not JSON, wrong types or another currency: 400, nothing captured", async () => {
    const failed = await yocoPayment();
    expect((await fake.sendWebhook(failed.checkoutId, { type: "payment.failed" })).status).toBe(200);
    expect((await rowOf(failed.ref)).status).toBe("failed");

    const { ref, checkoutId } = await yocoPayment();
    fake.complete(checkoutId);
    const post = (body: string, headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: "/api/payments/yoco/webhook", headers, payload: body });
    const genuine = fake.webhookFor(checkoutId);
    const noHeaders = await post(genuine.body, { "content-type": "application/json" });
    expect(noHeaders.statusCode).toBe(400);
    expect(noHeaders.json().error.fields).toEqual({
      "webhook-id": "is required",
      "webhook-timestamp": "must be seconds since 1970",
      "webhook-signature": "is required",
    });
    const signed = (body: string) => {
      const { headers } = fake.webhookFor(checkoutId);
      const id = headers["webhook-id"];
      const ts = headers["webhook-timestamp"];
      return { ...headers, "webhook-signature": signWith(id, ts, body) };
    };
    const notJson = await post("{not json", signed("{not json"));
    expect(notJson.statusCode).toBe(400);
    const event = JSON.parse(genuine.body);
    const wrongType = JSON.stringify({ ...event, payload: { ...event.payload, amount: "145000" } });
    expect((await post(wrongType, signed(wrongType))).json().error.fields).toEqual({ "payload.amount": "must be whole cents" });
    const dollars = fake.webhookFor(checkoutId, { currency: "USD" });
    const refused = await post(dollars.body, dollars.headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ "payload.currency": "must be ZAR" });
    expect((await rowOf(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("the result page's status read captures a completed checkout whose webhook never came", async () => {
    const { ref, checkoutId } = await yocoPayment("24 Months");
    const paid = fake.complete(checkoutId);
    const read = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(read.json().data).toMatchObject({ status: "paid", provider: "yoco" });
    expect((await rowOf(ref)).provider_payment_id).toBe(paid.paymentId);
    expect((await fake.sendWebhook(checkoutId)).status).toBe(200);
    expect(await receiptsFor(ref)).toHaveLength(1);
  });

  it("refunds go back through Yoco's refund API, recorded as the provider's", async () => {
    const { ref, checkoutId } = await yocoPayment("Month to Month");
    fake.complete(checkoutId);
    expect((await fake.sendWebhook(checkoutId)).status).toBe(200);
    const payment = await rowOf(ref);
    const response = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 100, reason: "A day off air" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 100 });
    expect(fake.checkouts.get(checkoutId)?.refunds).toEqual([{ refundId: expect.stringMatching(/^rf_/), amount: 10000 }]);
  });

  it("a refund whose answer is lost is asked again with the same Idempotency-Key: one refund at Yoco, one credit note", async () => {
    const { ref, checkoutId } = await yocoPayment("Month to Month");
    fake.complete(checkoutId);
    expect((await fake.sendWebhook(checkoutId)).status).toBe(200);
    const payment = await rowOf(ref);
    fake.refundAnswerLost = true;
    let response: Awaited<ReturnType<SignedIn["call"]>>;
    try {
      response = await admin.call({
        method: "POST",
        url: `/api/admin/payments/${payment.id}/refund`,
        payload: { amount: 50, reason: "Half a month" },
      });
    } finally {
      fake.refundAnswerLost = false;
    }
    expect(response.statusCode, response.body).toBe(200);
    const refunds = fake.checkouts.get(checkoutId)?.refunds ?? [];
    expect(refunds).toEqual([{ refundId: expect.stringMatching(/^rf_/), amount: 5000 }]);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 50 });
    const notes = await t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, payment.id));
    expect(notes).toMatchObject([{ provider_reference: refunds[0].refundId, method: "provider" }]);
  });

  it("start-up stops when a Yoco key is missing or the webhook secret is not whsec_, naming the variable", () => {
    expect(() => loadConfig({ YOCO_SECRET_KEY: "sk_live_x" })).toThrow(/YOCO_WEBHOOK_SECRET: is required when YOCO_SECRET_KEY is set/);
    expect(() => loadConfig({ YOCO_SECRET_KEY: "sk_live_x", YOCO_WEBHOOK_SECRET: "plain" })).toThrow(ConfigError);
    expect(() => loadConfig({ YOCO_SECRET_KEY: "sk_live_x", YOCO_WEBHOOK_SECRET: "plain" })).toThrow(/YOCO_WEBHOOK_SECRET: must be/);
  });
});

/** A Standard Webhooks signature with our test secret over any body (for bodies the fake would not send). */
const signWith = (id: string, timestamp: string, body: string) => yocoSignature(KEYS.webhookSecret, id, timestamp, body);
