// Paystack beside the card provider (issue 43 item 4), end to end against our fake Paystack over
// real HTTP: the pay link starts a checkout by transaction/initialize and sends the customer to
// Paystack's page; the webhook reaches our listening server, which captures through the one capture
// path only when x-paystack-signature holds and transaction/verify confirms success, our amount and
// ZAR. Replays, forgeries, short amounts and events we do not act on change nothing; refunds go
// through Paystack's refund API. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, invoices, outbox, packages } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { formatRand } from "@/shared/money";
import { type FakePaystack, startFakePaystack } from "./fake";

const SECRET = "sk_test_paystack_flow";
const PUBLIC_URL = "https://shop.example.co.za";

let fake: FakePaystack;
let t: TestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};
let counter = 0;

beforeAll(async () => {
  fake = await startFakePaystack({ secretKey: SECRET });
  t = await createTestApp({ PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_API_URL: fake.url, PUBLIC_URL }, { seed: true });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  fake.webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/paystack/webhook`;
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const payLink = (packageName: string, email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: "Paystack Payer",
      whatsapp: `0821${String(++counter).padStart(6, "0")}`,
      immediateStartConsent: true,
      method: "paystack",
      packageId: pkgId[packageName],
      email,
    },
    remoteAddress: `10.43.0.${++counter}`,
  });

async function paystackPayment(packageName = "3 Months") {
  const response = await payLink(packageName, "paystack.payer@example.co.za");
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  return { ref, paylinkUrl };
}

const rowOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const receiptsFor = async (ref: string) =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));

describe("Paystack (fake)", () => {
  it("lists Paystack among the ways to pay, by its name", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/payments/methods" });
    expect(response.json().data.providers).toEqual([{ id: "paystack", name: "Paystack" }]);
  });

  it("starts the checkout at Paystack in cents, ZAR, with our reference and the buyer's e-mail, and sends the customer to its page", async () => {
    const { ref, paylinkUrl } = await paystackPayment();
    const tx = fake.transactions.get(ref);
    const row = await rowOf(ref);
    expect(tx).toMatchObject({
      reference: ref,
      amount: Math.round(Number(row.amount) * 100),
      currency: "ZAR",
      email: "paystack.payer@example.co.za",
    });
    expect(tx?.callback_url).toBe(`${PUBLIC_URL}/payment/success?ref=${ref}`);
    expect(paylinkUrl).toContain(tx?.access_code as string);
    expect(await rowOf(ref)).toMatchObject({ provider: "paystack", status: "pending" });
  });

  it("a customer who comes back to the hand-off page (twice, and twice at once) is sent to the first checkout: one initialize", async () => {
    const { ref, paylinkUrl } = await paystackPayment();
    const initializes = () => fake.calls.filter((call) => call === "POST /transaction/initialize").length;
    const before = initializes();
    const visit = () => t.app.inject({ method: "GET", url: `/api/payments/checkout/${ref}` });
    const answers = [await visit(), ...(await Promise.all([visit(), visit()]))];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(paylinkUrl);
    }
    expect(initializes()).toBe(before);
    expect((await rowOf(ref)).provider_reference).toBe(paylinkUrl);
  });

  it("without an e-mail address the pay link is refused at the e-mail field (400) and no payment is written", async () => {
    const before = (await t.app.db.select().from(capturedPayments)).length;
    const response = await payLink("Month to Month", "");
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.email).toBe(
      "Paystack needs your e-mail address for its receipt. Add it, or choose another way to pay.",
    );
    expect((await t.app.db.select().from(capturedPayments)).length).toBe(before);
  });

  it("a signed charge.success that verify confirms captures once; replays capture nothing more", async () => {
    const { ref } = await paystackPayment();
    fake.pay(ref);
    const delivery = fake.webhookFor(ref);
    const answer = await fake.send(delivery);
    expect(answer.status, answer.body).toBe(200);
    const row = await rowOf(ref);
    expect(row).toMatchObject({ status: "paid", provider_payment_id: String(fake.transactions.get(ref)?.id) });
    expect(await t.app.db.select().from(invoices).where(eq(invoices.payment_id, row.id))).toHaveLength(1);
    expect(await receiptsFor(ref)).toHaveLength(1);
    const again = await Promise.all([fake.send(delivery), fake.send(delivery)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(await receiptsFor(ref)).toHaveLength(1);
    expect((await rowOf(ref)).paid_at?.toISOString()).toBe(row.paid_at?.toISOString());
  });

  it("a webhook with a bad or missing signature is a 401 and captures nothing", async () => {
    const { ref } = await paystackPayment();
    fake.pay(ref);
    const forged = await fake.send(fake.webhookFor(ref, { secretKey: "sk_test_someone_else" }));
    expect(forged.status).toBe(401);
    const genuine = fake.webhookFor(ref);
    const unsigned = await fetch(genuine.url, { method: "POST", headers: { "content-type": "application/json" }, body: genuine.body });
    expect(unsigned.status).toBe(401);
    expect((await rowOf(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toEqual([]);
  });

  it("a charge Paystack's verify shows for another amount is not paid; the owner sees why on the payment and is alerted once", async () => {
    const { ref } = await paystackPayment();
    fake.pay(ref);
    const tx = fake.transactions.get(ref);
    if (tx) tx.amount -= 100;
    await fake.send(fake.webhookFor(ref));
    await fake.send(fake.webhookFor(ref));
    const row = await rowOf(ref);
    expect(row.status).not.toBe("paid");
    expect(row.notes).toMatch(/Paystack reported (\d+) cents, we priced (?!\1)\d+ cents/);
    expect(await receiptsFor(ref)).toEqual([]);
    const alerts = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "owner-alert"))).filter((m) => m.subject.includes(ref));
    expect(alerts.map((a) => a.channel)).toEqual(["email"]);
    expect(alerts[0].subject).toBe(
      `Payment ${ref} not captured: Paystack reported ${formatRand(Number(row.amount) - 1)}, we priced ${formatRand(Number(row.amount))}`,
    );
    expect(alerts[0].body).toContain("nothing was set up for the customer");
  });

  it("a signed event the shop does not act on is acknowledged (200) and changes nothing", async () => {
    const { ref } = await paystackPayment();
    const answer = await fake.send(fake.webhookFor(ref, { event: "refund.processed" }));
    expect(answer.status).toBe(200);
    expect(await rowOf(ref)).toMatchObject({ status: "pending" });
  });

  it("refunds go back through Paystack's refund API, recorded as the provider's", async () => {
    const { ref } = await paystackPayment("Month to Month");
    fake.pay(ref);
    expect((await fake.send(fake.webhookFor(ref))).status).toBe(200);
    const payment = await rowOf(ref);
    const response = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 100, reason: "A day off air" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 100 });
    expect(fake.refunds.filter((r) => r.transaction_reference === ref).map((r) => r.amount)).toEqual([10000]);
  });
});
