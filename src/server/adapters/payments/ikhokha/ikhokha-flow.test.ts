// The whole card flow with iKhokha configured, pointed at the local fake: our endpoints create
// the pay link over real HTTP, the fake sends signed callbacks to our listening server, and the
// webhook re-checks getStatus before capturing.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IKHOKHA_PAYMENT_PATH } from "@/server/adapters/payments/ikhokha/adapter";
import { type FakeIkhokha, startFakeIkhokha } from "@/server/adapters/payments/ikhokha/fake";
import { ikSignature } from "@/server/adapters/payments/signing";
import { capturedPayments, outbox, packages } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";

const APP_ID = "IKAPP-TEST";
const SECRET = 'ik-secret-\\-"quoted"';
const PUBLIC_URL = "https://shop.example.co.za";

let fake: FakeIkhokha;
let t: TestApp;
let origin: string;
const pkgId: Record<string, string> = {};
let ipCounter = 0;

beforeAll(async () => {
  fake = await startFakeIkhokha({ appId: APP_ID, appSecret: SECRET });
  t = await createTestApp(
    { IKHOKHA_APP_ID: APP_ID, IKHOKHA_APP_SECRET: SECRET, IKHOKHA_API_URL: fake.url, IKHOKHA_ENTITY_ID: "ENT-1", PUBLIC_URL },
    { seed: true },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** The review step's payer: a name, their own WhatsApp number, the s44 consent. */
const payer = () => ({ name: "Card Payer", whatsapp: `0850${String(++ipCounter).padStart(6, "0")}`, immediateStartConsent: true });

async function paylink(packageName: string, email = "card@example.co.za") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: { ...payer(), packageId: pkgId[packageName], email, amount: 5 },
    remoteAddress: `10.2.0.${++ipCounter}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json() as { paylinkUrl: string; externalTransactionID: string };
  const [row] = await t.app.db
    .select()
    .from(capturedPayments)
    .where(eq(capturedPayments.external_transaction_id, body.externalTransactionID));
  return { ...body, row, paylinkID: row.provider_reference as string };
}

const rowOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const receiptsFor = async (ref: string) =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));

describe("card payments with iKhokha (fake)", () => {
  it("creates the pay link at iKhokha with the server's price and our URLs", async () => {
    const { paylinkUrl, externalTransactionID: ref, row, paylinkID } = await paylink("3 Months");
    expect(paylinkUrl).toBe(`${fake.url}/pay/${paylinkID}`);
    expect(row).toMatchObject({ provider: "ikhokha", status: "pending", amount: 1450 });
    const sent = fake.paylinks.get(paylinkID);
    expect(sent?.request).toMatchObject({
      entityID: "ENT-1",
      amount: 145000,
      currency: "ZAR",
      requesterUrl: PUBLIC_URL,
      description: "3 Months IPTV Subscription",
      mode: "live",
      externalTransactionID: ref,
      paymentReference: ref,
      urls: {
        callbackUrl: `${PUBLIC_URL}/api/payments/webhook/ikhokha`,
        successPageUrl: `${PUBLIC_URL}/payment/success?ref=${ref}`,
        failurePageUrl: `${PUBLIC_URL}/payment/failure?ref=${ref}`,
        cancelUrl: `${PUBLIC_URL}/payment/cancel?ref=${ref}`,
      },
    });
    const request = fake.requests.find((r) => r.path === IKHOKHA_PAYMENT_PATH && r.body.includes(ref));
    expect(request?.status).toBe(200);
    expect(request?.signature).toBe(ikSignature(IKHOKHA_PAYMENT_PATH, request?.body ?? "", SECRET));
  });

  it("captures once from signed callbacks over HTTP after getStatus confirms the amount", async () => {
    const { externalTransactionID: ref, paylinkID } = await paylink("3 Months");
    fake.complete(paylinkID, "SUCCESS");
    const statusQueriesBefore = fake.requests.filter((r) => r.method === "GET").length;
    const first = await fake.sendCallback(paylinkID, { origin });
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true });
    expect(fake.requests.filter((r) => r.method === "GET").length).toBe(statusQueriesBefore + 1);
    const row = await rowOf(ref);
    expect(row.status).toBe("paid");
    expect(row.paid_at).not.toBeNull();

    const replays = await Promise.all(Array.from({ length: 5 }, () => fake.sendCallback(paylinkID, { origin })));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await receiptsFor(ref)).toHaveLength(1);
    const status = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(status.json().data).toMatchObject({ status: "paid", provider: "ikhokha", amount: 1450 });
  });

  it("refuses a callback signed with another secret or for another app id", async () => {
    const { externalTransactionID: ref, paylinkID } = await paylink("6 Months");
    fake.complete(paylinkID, "SUCCESS");
    const genuine = fake.callbackFor(paylinkID, { origin });
    const path = new URL(genuine.url).pathname;
    const forgedSign = { ...genuine.headers, "ik-sign": ikSignature(path, genuine.body, "not-the-secret") };
    const forgedApp = { ...genuine.headers, "ik-appid": "OTHER-APP" };
    for (const headers of [forgedSign, forgedApp]) {
      const response = await fetch(genuine.url, { method: "POST", headers, body: genuine.body });
      expect(response.status).toBe(401);
    }
    expect((await rowOf(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("does not capture when getStatus disagrees: still pending, or another amount", async () => {
    const { externalTransactionID: ref, paylinkID } = await paylink("12 Months");
    const early = await fake.sendCallback(paylinkID, { origin, status: "SUCCESS" });
    expect(early.status).toBe(409);
    fake.complete(paylinkID, "SUCCESS");
    const stored = fake.paylinks.get(paylinkID);
    if (stored) stored.amount = 100;
    const mismatch = await fake.sendCallback(paylinkID, { origin });
    expect(mismatch.status).toBe(409);
    expect(JSON.parse(mismatch.body).error.code).toBe("amount_mismatch");
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("provider reported 100 cents, we priced 599900 cents");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("records FAILURE and CANCELLED callbacks", async () => {
    const failed = await paylink("Month to Month");
    fake.complete(failed.paylinkID, "FAILURE");
    expect((await fake.sendCallback(failed.paylinkID, { origin })).status).toBe(200);
    expect((await rowOf(failed.externalTransactionID)).status).toBe("failed");
    const cancelled = await paylink("Month to Month");
    fake.complete(cancelled.paylinkID, "CANCELLED");
    expect((await fake.sendCallback(cancelled.paylinkID, { origin })).status).toBe(200);
    expect((await rowOf(cancelled.externalTransactionID)).status).toBe("cancelled");
  });

  it("captures from the result page's status read when the callback never arrives", async () => {
    const { externalTransactionID: ref, paylinkID } = await paylink("24 Months");
    fake.complete(paylinkID, "SUCCESS");
    const read = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(read.json().data).toMatchObject({ status: "paid", amount: 10999 });
    expect(await receiptsFor(ref)).toHaveLength(1);
    // A late callback is then just a replay.
    expect((await fake.sendCallback(paylinkID, { origin })).status).toBe(200);
    expect(await receiptsFor(ref)).toHaveLength(1);
  });

  it("asks iKhokha at most once per 10 s per payment from status reads", async () => {
    const { externalTransactionID: ref, paylinkID } = await paylink("Month to Month");
    const queries = () => fake.requests.filter((r) => r.method === "GET" && r.path.endsWith(paylinkID)).length;
    expect((await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data.status).toBe("pending");
    expect(queries()).toBe(1);
    fake.complete(paylinkID, "SUCCESS");
    expect((await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data.status).toBe("pending");
    expect(queries()).toBe(1);
  });

  it("answers 502 'Failed to create payment link' when iKhokha refuses, and marks the payment failed", async () => {
    fake.refuseNextCreate("51", "Entity inactive");
    const response = await t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { ...payer(), packageId: pkgId["3 Months"] },
      remoteAddress: "10.2.1.1",
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: { code: "payment_provider", message: "Failed to create payment link" } });
    const [row] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.status, "failed"))
      .then((rows) => rows.filter((r) => r.notes.includes("Entity inactive")));
    expect(row.notes).toContain("responseCode 51");
    expect(row.provider_reference).toBeNull();
  });

  it("offers no sandbox checkout or sandbox webhook while iKhokha is configured", async () => {
    const { externalTransactionID: ref } = await paylink("3 Months");
    expect((await t.app.inject({ method: "GET", url: `/api/payments/sandbox/checkout/${ref}` })).statusCode).toBe(404);
    const webhook = await t.app.inject({ method: "POST", url: "/api/payments/webhook/sandbox", payload: "{}", headers: {} });
    expect(webhook.statusCode).toBe(404);
  });
});
