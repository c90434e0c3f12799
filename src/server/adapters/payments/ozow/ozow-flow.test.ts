// Ozow beside the card provider, against the local fake over real HTTP: the hand-off page's form
// (HashCheck) is accepted by the fake's payment page; the fake's hashed notifications reach our
// listening server, which captures through the one capture path only when the Hash matches and
// Ozow's status API shows that transaction, paid, for our amount. Replays capture nothing.
// Refunds go through the fake's refund API (token, submit with HashCheck); a lost answer is looked
// up in Ozow's refund list before anything is sent again.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formBody, parseFormPairs } from "@/server/adapters/payments/form-encoding";
import { type FakeOzow, startFakeOzow } from "@/server/adapters/payments/ozow/fake";
import { ConfigError, loadConfig } from "@/server/config";
import { capturedPayments, creditNotes, invoices, outbox, packages, refundAttempts } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";

const SITE = { siteCode: "STR-STR-001", privateKey: "ozow-Private-KEY", apiKey: "ozow-api-key" };
const PUBLIC_URL = "https://shop.example.co.za";

let fake: FakeOzow;
let t: TestApp;
let origin: string;
const pkgId: Record<string, string> = {};
let counter = 0;
let admin: SignedIn;

beforeAll(async () => {
  fake = await startFakeOzow(SITE);
  t = await createTestApp(
    {
      OZOW_SITE_CODE: SITE.siteCode,
      OZOW_PRIVATE_KEY: SITE.privateKey,
      OZOW_API_KEY: SITE.apiKey,
      OZOW_URL: fake.url,
      OZOW_API_URL: fake.url,
      PUBLIC_URL,
    },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** An Ozow pay link from the review step, then the browser posting our hand-off form to Ozow. */
async function ozowPayment(packageName = "3 Months") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: "Ozow Payer",
      whatsapp: `0830${String(++counter).padStart(6, "0")}`,
      immediateStartConsent: true,
      method: "ozow",
      packageId: pkgId[packageName],
      email: "oz@example.co.za",
    },
    remoteAddress: `10.4.0.${++counter}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  const page = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
  expect(page.statusCode, page.body).toBe(200);
  const fields = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
    ([, k, v]) => [k, v.replaceAll("&amp;", "&")] as [string, string],
  );
  const posted = await fetch(`${fake.url}/`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: formBody(fields),
  });
  expect(posted.status).toBe(200);
  return { ref, page, fields };
}

const rowOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const receiptsFor = async (ref: string) =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));
const notify = (ref: string, options: Parameters<FakeOzow["sendNotification"]>[1] = {}) =>
  fake.sendNotification(ref, { origin, ...options });

describe("Ozow (fake)", () => {
  it("lists Ozow among the ways to pay", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/payments/methods" });
    expect(response.json().data.providers).toEqual([{ id: "ozow", name: "Ozow" }]);
  });

  it("the hand-off page posts Ozow's fields in order with HashCheck; Ozow's page accepts them", async () => {
    const { ref, page, fields } = await ozowPayment();
    expect(page.body).toContain(`action="${fake.url}"`);
    expect(fields.map(([k]) => k)).toEqual([
      "SiteCode",
      "CountryCode",
      "CurrencyCode",
      "Amount",
      "TransactionReference",
      "BankReference",
      "CancelUrl",
      "ErrorUrl",
      "SuccessUrl",
      "NotifyUrl",
      "IsTest",
      "HashCheck",
    ]);
    expect(Object.fromEntries(fields)).toMatchObject({
      SiteCode: SITE.siteCode,
      CurrencyCode: "ZAR",
      Amount: "1450.00",
      TransactionReference: ref,
      NotifyUrl: `${PUBLIC_URL}/api/payments/ozow/notify`,
      IsTest: "false",
    });
    expect(fake.transactions.get(ref)?.status).toBe("Pending");
  });

  it("a Complete notification the status API backs captures once: paid, invoice, receipt; Ozow's TransactionId kept", async () => {
    const { ref } = await ozowPayment();
    fake.complete(ref, "Complete");
    const queries = fake.statusQueries;
    const answer = await notify(ref);
    expect(answer.status, answer.body).toBe(200);
    expect(fake.statusQueries).toBe(queries + 1);
    const row = await rowOf(ref);
    expect(row).toMatchObject({ status: "paid", provider: "ozow", provider_payment_id: fake.transactions.get(ref)?.transactionId });
    expect(await t.app.db.select().from(invoices).where(eq(invoices.payment_id, row.id))).toHaveLength(1);
    expect(await receiptsFor(ref)).toHaveLength(1);

    // Ozow may notify twice: nothing new.
    const replays = await Promise.all([notify(ref), notify(ref), notify(ref)]);
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await receiptsFor(ref)).toHaveLength(1);
    expect((await rowOf(ref)).paid_at?.toISOString()).toBe(row.paid_at?.toISOString());
  });

  it("a wrong Hash is a 401, not captured, noted for the owner", async () => {
    const { ref } = await ozowPayment();
    fake.complete(ref, "Complete");
    const answer = await notify(ref, { hash: "a".repeat(128) });
    expect(answer.status).toBe(401);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain(
      "Not captured: a notification from Ozow for this payment was refused (The notification's Hash does not match.)",
    );
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("a wrong amount in the notification, or in Ozow's status, captures nothing and says so", async () => {
    const notified = await ozowPayment();
    fake.complete(notified.ref, "Complete");
    expect((await notify(notified.ref, { amount: "1.00" })).status).toBe(200);
    expect((await rowOf(notified.ref)).notes).toContain("Not captured: Ozow reported 100 cents, we priced 145000 cents.");

    const reported = await ozowPayment();
    fake.complete(reported.ref, "Complete");
    const stored = fake.transactions.get(reported.ref);
    if (stored) stored.amount = 1;
    expect((await notify(reported.ref)).status).toBe(200);
    const row = await rowOf(reported.ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("Not captured: the provider reported 100 cents, we priced 145000 cents.");
    expect([...(await receiptsFor(notified.ref)), ...(await receiptsFor(reported.ref))]).toHaveLength(0);
  });

  it("a Complete notification Ozow's status API does not back up (still pending) captures nothing", async () => {
    const { ref } = await ozowPayment();
    expect((await notify(ref, { status: "Complete" })).status).toBe(200);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("Not captured: Ozow's own status for it is not paid.");
  });

  it("Ozow's status API down: 502 so Ozow notifies again, nothing captured, the owner told; the retry captures", async () => {
    const { ref } = await ozowPayment();
    fake.complete(ref, "Complete");
    fake.apiDown = true;
    try {
      expect((await notify(ref)).status).toBe(502);
    } finally {
      fake.apiDown = false;
    }
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("Ozow's status API answered 503");
    expect((await notify(ref)).status).toBe(200);
    expect((await rowOf(ref)).status).toBe("paid");
    expect(await receiptsFor(ref)).toHaveLength(1);
  });

  it("maps Cancelled, Abandoned and Error onto ours; PendingInvestigation and a test transaction stay pending with a note", async () => {
    const cases = [
      ["Cancelled", "cancelled"],
      ["Abandoned", "cancelled"],
      ["Error", "failed"],
      ["PendingInvestigation", "pending"],
    ] as const;
    for (const [status, ours] of cases) {
      const { ref } = await ozowPayment("Month to Month");
      fake.complete(ref, status);
      expect((await notify(ref)).status).toBe(200);
      expect((await rowOf(ref)).status).toBe(ours);
    }
    const investigated = await ozowPayment("Month to Month");
    expect((await notify(investigated.ref, { status: "PendingInvestigation" })).status).toBe(200);
    expect((await rowOf(investigated.ref)).notes).toContain("Ozow reports PendingInvestigation: not paid yet.");
    const test = await ozowPayment("Month to Month");
    fake.complete(test.ref, "Complete");
    expect((await notify(test.ref, { isTest: true })).status).toBe(200);
    const row = await rowOf(test.ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("Ozow reports Complete (a test transaction): not paid yet.");
  });

  it("missing fields, wrong types or another currency: 400 by field, nothing captured", async () => {
    const { ref } = await ozowPayment();
    fake.complete(ref, "Complete");
    const genuine = parseFormPairs(fake.notificationFor(ref).body) ?? [];
    const post = (pairs: [string, string][]) =>
      t.app.inject({
        method: "POST",
        url: "/api/payments/ozow/notify",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: formBody(pairs),
      });
    const missing = await post(genuine.filter(([k]) => k !== "TransactionId"));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ TransactionId: "is required" });
    const wrongType = await post(genuine.map(([k, v]) => [k, k === "Amount" ? "lots" : v] as [string, string]));
    expect(wrongType.json().error.fields).toEqual({ Amount: "must be an amount in rand, like 1450.00" });
    const dollars = await post(parseFormPairs(fake.notificationFor(ref, { currency: "USD" }).body) ?? []);
    expect(dollars.statusCode).toBe(400);
    expect(dollars.json().error.fields).toEqual({ CurrencyCode: "must be ZAR" });
    expect((await rowOf(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("the result page's status read captures a paid Ozow payment whose notification never came", async () => {
    const { ref } = await ozowPayment("24 Months");
    fake.complete(ref, "Complete");
    const read = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(read.json().data).toMatchObject({ status: "paid", provider: "ozow" });
    expect((await rowOf(ref)).provider_payment_id).toBe(fake.transactions.get(ref)?.transactionId);
    expect((await notify(ref)).status).toBe(200);
    expect(await receiptsFor(ref)).toHaveLength(1);
  });

  it("start-up stops when an Ozow key is missing, naming the variable", () => {
    expect(() => loadConfig({ OZOW_SITE_CODE: "S", OZOW_PRIVATE_KEY: "k" })).toThrow(ConfigError);
    expect(() => loadConfig({ OZOW_SITE_CODE: "S", OZOW_PRIVATE_KEY: "k" })).toThrow(
      /OZOW_API_KEY: is required when OZOW_SITE_CODE and OZOW_PRIVATE_KEY are set/,
    );
  });
});

describe("Ozow refunds through its API", () => {
  async function paid() {
    const { ref } = await ozowPayment();
    fake.complete(ref, "Complete");
    expect((await notify(ref)).status).toBe(200);
    const row = await rowOf(ref);
    expect(row.status).toBe("paid");
    return row;
  }
  const refund = (id: string, payload: Record<string, unknown>) =>
    admin.call({ method: "POST", url: `/api/admin/payments/${id}/refund`, payload });
  const notesOf = async (paymentId: string) => t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, paymentId));
  const attemptsOf = async (paymentId: string) => t.app.db.select().from(refundAttempts).where(eq(refundAttempts.payment_id, paymentId));
  /** The payments the owner's Refund filter (and digest) shows as held. */
  const heldList = async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/payments?refund=held" });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.map((p: { id: string }) => p.id);
  };
  /** The payment as the payments list shows it: what is refunded, and what of that is only held. */
  const listed = async (reference: string) => {
    const response = await admin.call({ method: "GET", url: `/api/admin/payments?q=${reference}` });
    const [row] = response.json().data as { refunded_amount: number; refund_held: number }[];
    return { refunded_amount: row.refunded_amount, refund_held: row.refund_held };
  };
  const withMode = async <T>(mode: FakeOzow["refundMode"], work: () => Promise<T>) => {
    fake.refundMode = mode;
    try {
      return await work();
    } finally {
      fake.refundMode = "ok";
    }
  };

  it("a refund is submitted to Ozow (token, HashCheck, rand), its refund id kept, and the message says Ozow pays the bank account", async () => {
    const payment = await paid();
    const response = await refund(payment.id, { amount: 450, reason: "Downgraded" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 450, payment_status: "paid" });
    const made = fake.refunds.filter((r) => r.transactionReference === payment.external_transaction_id);
    expect(made).toMatchObject([{ amount: 450, reason: "Downgraded", transactionId: payment.provider_payment_id }]);
    const [note] = await notesOf(payment.id);
    expect(note).toMatchObject({ method: "provider", provider_reference: made[0].id, incl_cents: 45000 });
    expect((await attemptsOf(payment.id))[0]).toMatchObject({ state: "done", route: "bank-account" });
    const [message] = (await t.app.db.select().from(outbox).where(eq(outbox.kind, "refund-issued"))).filter(
      (m) => m.channel === "email" && m.body.includes(note.number),
    );
    expect(message.body).toContain("Ozow pays it back into the bank account you paid from");
    expect(message.body).not.toContain("card");
  });

  it("Ozow refusing (its errors) or down records nothing and releases the amount", async () => {
    const payment = await paid();
    const refused = await withMode("refuse", () => refund(payment.id, { reason: "Cancelled" }));
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error.message).toContain("Insufficient refund float balance");
    const down = await withMode("down", () => refund(payment.id, { reason: "Cancelled" }));
    expect(down.statusCode).toBe(502);
    expect(await notesOf(payment.id)).toHaveLength(0);
    expect(await rowOf(payment.external_transaction_id)).toMatchObject({ status: "paid", refunded_amount: 0 });
    expect(fake.refunds.filter((r) => r.transactionId === payment.provider_payment_id)).toHaveLength(0);
  });

  it("a lost answer is found in Ozow's refund list: recorded once with Ozow's id, nothing sent twice", async () => {
    const payment = await paid();
    const submits = fake.refundCalls.filter((c) => c.endsWith("/submit")).length;
    const response = await withMode("lost", () => refund(payment.id, { reason: "Moved away" }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", payment_status: "refunded" });
    const made = fake.refunds.filter((r) => r.transactionId === payment.provider_payment_id);
    expect(made).toHaveLength(1);
    expect(fake.refundCalls.filter((c) => c.endsWith("/submit")).length).toBe(submits + 1);
    expect((await notesOf(payment.id))[0]).toMatchObject({ provider_reference: made[0].id });
  });

  it("a lost answer with the refund list down is held; once the list answers, the next refund records the one made", async () => {
    const payment = await paid();
    fake.refundListDown = true;
    let first: Awaited<ReturnType<typeof refund>>;
    try {
      first = await withMode("lost", () => refund(payment.id, { amount: 100, reason: "A day off air", term: "keep" }));
    } finally {
      fake.refundListDown = false;
    }
    expect(first.statusCode).toBe(502);
    expect(first.json().error).toMatchObject({ code: "refund_unconfirmed" });
    expect(await rowOf(payment.external_transaction_id)).toMatchObject({ refunded_amount: 100 });
    expect(await heldList()).toEqual([payment.id]);
    // the R100 is reserved, not refunded: the list says which
    expect(await listed(payment.external_transaction_id)).toEqual({ refunded_amount: 100, refund_held: 100 });
    const [open] = await attemptsOf(payment.id);
    await t.app.db
      .update(refundAttempts)
      .set({ created_at: new Date(Date.now() - 120_000) })
      .where(eq(refundAttempts.id, open.id));
    const next = await refund(payment.id, { amount: 50, reason: "Another" });
    expect(next.statusCode).toBe(409);
    expect(next.json().error.message).toContain("The earlier refund of R100 went through at Ozow after all");
    expect(fake.refunds.filter((r) => r.transactionId === payment.provider_payment_id)).toHaveLength(1);
    expect(await notesOf(payment.id)).toMatchObject([{ incl_cents: 10000, reason: "A day off air" }]);
    // confirmed: no longer on the owner's list of held refunds, and refunded for real
    expect(await heldList()).toEqual([]);
    expect(await listed(payment.external_transaction_id)).toEqual({ refunded_amount: 100, refund_held: 0 });
  });
});
