// PayFast beside the card provider, against the local fake over real HTTP: the pay link leads to
// our hand-off page, whose signed form PayFast accepts; the fake's ITNs reach our listening server,
// which answers 200 at once and captures through the one capture path only when the signature,
// the amount, PayFast's validate (VALID) and COMPLETE all hold, from an address of PayFast's (its
// hosts through an injected resolver, or PAYFAST_VALID_IPS; behind the trusted proxy, the client's).
// Replays capture nothing. Refunds go through the fake's refund API; a lost answer is looked up.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formBody, parseFormPairs } from "@/server/adapters/payments/form-encoding";
import { type FakePayfast, startFakePayfast } from "@/server/adapters/payments/payfast/fake";
import { ConfigError, loadConfig } from "@/server/config";
import { capturedPayments, clientLifecycleEvents, creditNotes, invoices, outbox, packages, refundAttempts } from "@/server/db/schema";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { paymentNotificationsSettled } from "@/server/modules/payments/service";
import { createTestApp, type TestApp } from "@/server/testing";

const MERCHANT = { merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn a~b" };
const PUBLIC_URL = "https://shop.example.co.za";

let fake: FakePayfast;
let t: TestApp;
let origin: string;
const pkgId: Record<string, string> = {};
let counter = 0;
let admin: SignedIn;
/** what our injected resolver says www.payfast.co.za is */
const PAYFAST_ADDRESS = "144.126.193.139";

beforeAll(async () => {
  fake = await startFakePayfast(MERCHANT);
  t = await createTestApp(
    {
      PAYFAST_MERCHANT_ID: MERCHANT.merchantId,
      PAYFAST_MERCHANT_KEY: MERCHANT.merchantKey,
      PAYFAST_PASSPHRASE: MERCHANT.passphrase,
      PAYFAST_URL: fake.url,
      PAYFAST_API_URL: fake.url,
      // the fake posts ITNs from here; the proxy in front of us (also here) names the client
      PAYFAST_VALID_IPS: "127.0.0.1",
      TRUST_PROXY: "127.0.0.1",
      PUBLIC_URL,
    },
    { seed: true, resolveHost: async (host) => (host === "www.payfast.co.za" ? [PAYFAST_ADDRESS] : []) },
  );
  admin = await signInAdmin(t.app);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await paymentNotificationsSettled();
  await t?.close();
  await fake?.close();
});

/** A PayFast pay link from the review step, then the customer's browser posting our hand-off form to PayFast. */
async function payfastPayment(packageName = "3 Months") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: "Pay Fast",
      whatsapp: `0840${String(++counter).padStart(6, "0")}`,
      immediateStartConsent: true,
      method: "payfast",
      packageId: pkgId[packageName],
      email: "pf@example.co.za",
      amount: 1,
    },
    remoteAddress: `10.3.0.${++counter}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  const page = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
  expect(page.statusCode, page.body).toBe(200);
  const fields = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
    ([, k, v]) =>
      [
        k,
        v.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">"),
      ] as [string, string],
  );
  const posted = await fetch(`${fake.url}/eng/process`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: formBody(fields),
  });
  expect(posted.status, await posted.clone().text()).toBe(200);
  return { ref, paylinkUrl, page, fields };
}

const rowOf = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];
const receiptsFor = async (ref: string) =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));
const invoicesFor = async (paymentId: string) => t.app.db.select().from(invoices).where(eq(invoices.payment_id, paymentId));

/** Sends the fake's ITN to our server and waits until what the answer left running is done. */
async function itn(ref: string, options: Parameters<FakePayfast["sendItn"]>[1] = {}) {
  const answer = await fake.sendItn(ref, { origin, ...options });
  await paymentNotificationsSettled();
  return answer;
}

describe("PayFast (fake)", () => {
  it("lists PayFast among the ways to pay, beside the card mode and EFT", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/payments/methods" });
    expect(response.json().data).toEqual({
      card: "off",
      eft: false,
      providers: [{ id: "payfast", name: "PayFast" }],
      loginChannel: "email",
    });
  });

  it("the pay link opens our hand-off page: PayFast's fields, signed, posted only to PayFast; PayFast accepts them", async () => {
    const { ref, paylinkUrl, page, fields } = await payfastPayment();
    expect(paylinkUrl).toBe(`${PUBLIC_URL}/api/payments/checkout/${ref}`);
    expect(page.body).toContain(`action="${fake.url}/eng/process"`);
    expect(page.headers["content-security-policy"]).toContain(`form-action ${fake.url}`);
    expect(Object.fromEntries(fields)).toMatchObject({
      merchant_id: MERCHANT.merchantId,
      merchant_key: MERCHANT.merchantKey,
      m_payment_id: ref,
      amount: "1450.00",
      item_name: "3 Months IPTV Subscription",
      return_url: `${PUBLIC_URL}/payment/success?ref=${ref}`,
      cancel_url: `${PUBLIC_URL}/payment/cancel?ref=${ref}`,
      notify_url: `${PUBLIC_URL}/api/payments/payfast/itn`,
    });
    expect(fake.payments.get(ref)?.fields.amount).toBe("1450.00");
    expect(await rowOf(ref)).toMatchObject({ provider: "payfast", status: "pending", amount: 1450 });
  });

  it("a valid ITN is answered 200 at once and captures once: paid, invoice, receipt, the term; PayFast's id kept", async () => {
    const { ref } = await payfastPayment();
    fake.validateDelayMs = 1500;
    const validationsBefore = fake.validations;
    try {
      const answer = await fake.sendItn(ref, { origin });
      expect(answer.status).toBe(200);
      // Answered before PayFast's validate (held 1.5 s) was answered: nothing is captured yet.
      expect(await rowOf(ref)).toMatchObject({ status: "pending", paid_at: null });
      await paymentNotificationsSettled();
    } finally {
      fake.validateDelayMs = 0;
    }
    expect(fake.validations).toBe(validationsBefore + 1);
    const row = await rowOf(ref);
    expect(row).toMatchObject({ status: "paid", provider_payment_id: fake.payments.get(ref)?.pfPaymentId });
    expect(row.paid_at).not.toBeNull();
    expect(await invoicesFor(row.id)).toHaveLength(1);
    expect(await receiptsFor(ref)).toHaveLength(1);
    const events = await t.app.db
      .select()
      .from(clientLifecycleEvents)
      .where(eq(clientLifecycleEvents.cause_key, `payment:${row.id}`));
    expect(events).toHaveLength(1);
    const status = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(status.json().data).toMatchObject({ status: "paid", provider: "payfast", amount: 1450 });
  });

  it("a replayed ITN (the same pf_payment_id) is answered 200 and captures nothing new", async () => {
    const { ref } = await payfastPayment("6 Months");
    expect((await itn(ref)).status).toBe(200);
    const first = await rowOf(ref);
    expect(first.status).toBe("paid");
    const replays = await Promise.all(Array.from({ length: 4 }, () => fake.sendItn(ref, { origin })));
    await paymentNotificationsSettled();
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const after = await rowOf(ref);
    expect(after.paid_at?.toISOString()).toBe(first.paid_at?.toISOString());
    expect(await receiptsFor(ref)).toHaveLength(1);
    expect(await invoicesFor(first.id)).toHaveLength(1);
  });

  it("one PayFast payment id never captures a second payment of ours", async () => {
    const paid = await payfastPayment();
    expect((await itn(paid.ref)).status).toBe(200);
    const pfId = (await rowOf(paid.ref)).provider_payment_id as string;
    const other = await payfastPayment();
    expect((await itn(other.ref, { pfPaymentId: pfId })).status).toBe(200);
    const row = await rowOf(other.ref);
    expect(row.status).toBe("pending");
    expect(row.provider_payment_id).toBeNull();
    expect(row.notes).toContain(`Not captured: the provider's payment ${pfId} already paid another of our payments`);
    expect(await receiptsFor(other.ref)).toHaveLength(0);
  });

  it("a wrong signature is answered 200, not captured, not validated, and noted for the owner", async () => {
    const { ref } = await payfastPayment();
    const before = fake.validations;
    expect((await itn(ref, { signature: "0".repeat(32) })).status).toBe(200);
    expect(fake.validations).toBe(before);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain(
      "Not captured: a notification from PayFast for this payment was refused (The ITN's signature does not match.)",
    );
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("a wrong amount (signed by PayFast) is not captured, and the note says both amounts", async () => {
    const { ref } = await payfastPayment();
    expect((await itn(ref, { amountGross: "1449.99" })).status).toBe(200);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("Not captured: PayFast reported 144999 cents, we priced 145000 cents.");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("validate answering INVALID, or PayFast down, captures nothing and tells the owner why", async () => {
    const invalid = await payfastPayment();
    const down = await payfastPayment();
    try {
      fake.validate = "INVALID";
      expect((await itn(invalid.ref)).status).toBe(200);
      fake.validate = "down";
      expect((await itn(down.ref)).status).toBe(200);
    } finally {
      fake.validate = "check";
    }
    const invalidRow = await rowOf(invalid.ref);
    expect(invalidRow.status).toBe("pending");
    expect(invalidRow.notes).toContain("PayFast's validate answered INVALID, not VALID");
    const downRow = await rowOf(down.ref);
    expect(downRow.status).toBe("pending");
    expect(downRow.notes).toContain("PayFast's validate answered 503");
    expect(downRow.notes).toContain("mark it paid if the money arrived");
    expect([...(await receiptsFor(invalid.ref)), ...(await receiptsFor(down.ref))]).toHaveLength(0);
  });

  it("an ITN that PayFast did not send (validate knows nothing of it) is not captured", async () => {
    const { ref } = await payfastPayment();
    // Signed with our passphrase, as a leaked passphrase would allow, but never sent by PayFast.
    const forged = fake.itnFor(ref);
    const tampered = formBody((parseFormPairs(forged.body) ?? []).filter(([k]) => k !== "signature"));
    const { payfastSignature } = await import("@/server/adapters/payments/payfast/adapter");
    const pairs = parseFormPairs(tampered) ?? [];
    const changed = pairs.map(([k, v]) => [k, k === "name_first" ? "Mallory" : v] as [string, string]);
    const body = formBody([...changed, ["signature", payfastSignature(changed, MERCHANT.passphrase)]]);
    const response = await fetch(`${origin}/api/payments/payfast/itn`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    await paymentNotificationsSettled();
    expect(response.status).toBe(200);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("INVALID");
  });

  it("FAILED and CANCELLED ITNs mark the payment so, with nothing captured", async () => {
    const failed = await payfastPayment();
    expect((await itn(failed.ref, { status: "FAILED" })).status).toBe(200);
    expect((await rowOf(failed.ref)).status).toBe("failed");
    const cancelled = await payfastPayment();
    expect((await itn(cancelled.ref, { status: "CANCELLED" })).status).toBe(200);
    expect((await rowOf(cancelled.ref)).status).toBe("cancelled");
  });

  it("missing fields, wrong types or another currency: 400 by field, nothing captured", async () => {
    const { ref } = await payfastPayment();
    const genuine = parseFormPairs(fake.itnFor(ref).body) ?? [];
    const post = (pairs: [string, string][]) =>
      t.app.inject({
        method: "POST",
        url: "/api/payments/payfast/itn",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: formBody(pairs),
      });
    const missing = await post(genuine.filter(([k]) => k !== "amount_gross" && k !== "m_payment_id"));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ amount_gross: "is required", m_payment_id: "is required" });
    const wrongType = await post(genuine.map(([k, v]) => [k, k === "amount_gross" ? "one thousand" : v] as [string, string]));
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.fields).toHaveProperty("amount_gross");
    const dollars = await post([...genuine, ["currency", "USD"]]);
    expect(dollars.statusCode).toBe(400);
    expect(dollars.json().error.fields).toEqual({ currency: "must be ZAR" });
    const json = await t.app.inject({ method: "POST", url: "/api/payments/payfast/itn", payload: { m_payment_id: ref } });
    expect(json.statusCode).toBe(400);
    await paymentNotificationsSettled();
    expect((await rowOf(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("the hand-off page of a paid payment goes to its result page; a provider not turned on is a 400 on method", async () => {
    const { ref, paylinkUrl } = await payfastPayment();
    await itn(ref);
    const page = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/payment/success?ref=${ref}`);
    const ozow = await t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { name: "No Ozow", whatsapp: "0849999999", immediateStartConsent: true, method: "ozow", packageId: pkgId["3 Months"] },
      remoteAddress: "10.3.9.9",
    });
    expect(ozow.statusCode).toBe(400);
    expect(ozow.json().error.fields).toEqual({ method: "Choose one of the ways to pay on offer" });
  });

  it("a client renews from the portal through PayFast: a pay link to the hand-off page, captured onto their own account", async () => {
    const first = await payfastPayment();
    await itn(first.ref);
    const clientId = (await rowOf(first.ref)).client_id as string;
    const { cookie } = await clientSession(t.app, clientId);
    const renew = await t.app.inject({
      method: "POST",
      url: "/api/client/renew",
      cookies: cookie,
      headers: { origin: PUBLIC_URL },
      payload: { method: "payfast", packageId: pkgId["Month to Month"] },
    });
    expect(renew.statusCode, renew.body).toBe(201);
    const body = renew.json() as { method: string; paylinkUrl: string; externalTransactionID: string };
    expect(body).toMatchObject({ method: "payfast", paylinkUrl: `${PUBLIC_URL}/api/payments/checkout/${body.externalTransactionID}` });
    const page = await t.app.inject({ method: "GET", url: new URL(body.paylinkUrl).pathname });
    const fields = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, k, v]) => [k, v] as [string, string],
    );
    await fetch(`${fake.url}/eng/process`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: formBody(fields.map(([k, v]) => [k, v.replaceAll("&amp;", "&")] as [string, string])),
    });
    expect((await itn(body.externalTransactionID)).status).toBe(200);
    expect(await rowOf(body.externalTransactionID)).toMatchObject({
      status: "paid",
      client_id: clientId,
      provider: "payfast",
      amount: 650,
    });
  });

  it("start-up stops when a PayFast key is missing, naming the variable", () => {
    expect(() => loadConfig({ PAYFAST_MERCHANT_ID: "1", PAYFAST_MERCHANT_KEY: "k" })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYFAST_MERCHANT_ID: "1", PAYFAST_MERCHANT_KEY: "k" })).toThrow(
      /PAYFAST_PASSPHRASE: is required when PAYFAST_MERCHANT_ID and PAYFAST_MERCHANT_KEY are set/,
    );
  });
});

describe("PayFast ITN source check", () => {
  /** The fake's ITN, posted as if through our proxy from `client`. */
  async function itnFrom(ref: string, client: string) {
    const { body } = fake.itnFor(ref);
    const response = await fetch(`${origin}/api/payments/payfast/itn`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": client },
      body,
    });
    await paymentNotificationsSettled();
    return response;
  }

  it("an ITN from an address that is not PayFast's is answered 200 but not captured, not validated, and noted", async () => {
    const { ref } = await payfastPayment();
    const before = fake.validations;
    const response = await itnFrom(ref, "203.0.113.7");
    expect(response.status).toBe(200);
    expect(fake.validations).toBe(before);
    const row = await rowOf(ref);
    expect(row.status).toBe("pending");
    expect(row.notes).toContain("came from 203.0.113.7, which is not one of PayFast's");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("an ITN from PayFast's host (as resolved) behind our proxy is captured", async () => {
    const { ref } = await payfastPayment();
    expect((await itnFrom(ref, PAYFAST_ADDRESS)).status).toBe(200);
    expect((await rowOf(ref)).status).toBe("paid");
    expect(await receiptsFor(ref)).toHaveLength(1);
  });
});

describe("PayFast refunds through its API", () => {
  async function paid(packageName = "3 Months") {
    const { ref } = await payfastPayment(packageName);
    await itn(ref);
    const row = await rowOf(ref);
    expect(row.status).toBe("paid");
    return row;
  }
  const refund = (id: string, payload: Record<string, unknown>) =>
    admin.call({ method: "POST", url: `/api/admin/payments/${id}/refund`, payload });
  const notesOf = async (paymentId: string) => t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, paymentId));
  const attemptsOf = async (paymentId: string) => t.app.db.select().from(refundAttempts).where(eq(refundAttempts.payment_id, paymentId));
  const refundMessages = async (creditNote: string) =>
    (await t.app.db.select().from(outbox).where(eq(outbox.kind, "refund-issued"))).filter((m) => m.body.includes(creditNote));
  const withMode = async <T>(mode: FakePayfast["refundMode"], work: () => Promise<T>) => {
    fake.refundMode = mode;
    try {
      return await work();
    } finally {
      fake.refundMode = "ok";
    }
  };

  it("a refund goes to PayFast's API (signed, in cents), gets its credit note, and the message says it goes back to the card", async () => {
    const payment = await paid();
    const pfId = payment.provider_payment_id as string;
    const response = await refund(payment.id, { amount: 200, reason: "Two days off air" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 200, payment_status: "paid", refunded_amount: 200 });
    expect(fake.refunds.get(pfId)).toEqual([{ amountCents: 20000, reason: "Two days off air" }]);
    expect(fake.apiCalls.filter((c) => c.includes(pfId))).toEqual([`GET /refunds/query/${pfId}`, `POST /refunds/${pfId}`]);
    const [note] = await notesOf(payment.id);
    expect(note).toMatchObject({ method: "provider", incl_cents: 20000 });
    const [attempt] = await attemptsOf(payment.id);
    expect(attempt).toMatchObject({ state: "done", credit_note_id: note.id, route: "card", amount_cents: 20000 });
    // the fake's payment was by credit card, which PayFast refunds to its source
    const [message] = (await refundMessages(note.number)).filter((m) => m.channel === "email");
    expect(message.body).toContain("It goes back to the card you paid with");
    expect(message.body).not.toContain("We pay it back to you directly");
  });

  it("PayFast refusing the refund records nothing and releases the amount; PayFast down likewise", async () => {
    const payment = await paid();
    const refused = await withMode("refuse", () => refund(payment.id, { reason: "Cancelled" }));
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error.message).toContain("PayFast did not accept the refund");
    const down = await withMode("down", () => refund(payment.id, { reason: "Cancelled" }));
    expect(down.statusCode).toBe(502);
    expect(await notesOf(payment.id)).toHaveLength(0);
    expect(await rowOf(payment.external_transaction_id)).toMatchObject({ status: "paid", refunded_amount: 0 });
    expect((await attemptsOf(payment.id)).map((a) => a.state)).toEqual(["failed", "failed"]);
    expect(fake.refunds.get(payment.provider_payment_id as string)).toBeUndefined();
  });

  it("a payment PayFast can give back only by bank payout is refused before anything is sent, saying why", async () => {
    const payment = await paid();
    fake.payoutOnly = true;
    try {
      const response = await refund(payment.id, { reason: "Cancelled" });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.message).toContain("only as a bank payout");
    } finally {
      fake.payoutOnly = false;
    }
    expect(fake.apiCalls).not.toContain(`POST /refunds/${payment.provider_payment_id}`);
    expect(await rowOf(payment.external_transaction_id)).toMatchObject({ refunded_amount: 0 });
  });

  it("a payout-only payment the owner paid back themselves is recorded by hand: PayFast is not asked, the message says so", async () => {
    const payment = await paid();
    fake.payoutOnly = true;
    const callsBefore = fake.apiCalls.length;
    try {
      const response = await refund(payment.id, { reason: "Cancelled", by_hand: true });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ method: "manual", payment_status: "refunded" });
    } finally {
      fake.payoutOnly = false;
    }
    expect(fake.apiCalls.slice(callsBefore)).toEqual([]);
    expect(await attemptsOf(payment.id)).toHaveLength(0);
    const [note] = await notesOf(payment.id);
    expect(note).toMatchObject({ method: "manual" });
    const [message] = (await refundMessages(note.number)).filter((m) => m.channel === "email");
    expect(message.body).toContain("We pay it back to you directly");
    expect(message.body).not.toContain("PayFast pays it back");
  });

  it("a lost answer is looked up at once: PayFast made it, so it is recorded once and never sent again", async () => {
    const payment = await paid("6 Months");
    const pfId = payment.provider_payment_id as string;
    const response = await withMode("lost", () => refund(payment.id, { reason: "Moved away" }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", payment_status: "refunded" });
    expect(fake.refunds.get(pfId)).toHaveLength(1);
    expect(fake.apiCalls.filter((c) => c === `POST /refunds/${pfId}`)).toHaveLength(1);
    expect(await notesOf(payment.id)).toHaveLength(1);
    const again = await refund(payment.id, { reason: "Moved away" });
    expect(again.statusCode).toBe(409);
    expect(fake.refunds.get(pfId)).toHaveLength(1);
  });

  it("a lost answer PayFast cannot be asked about is held on the payment; the next refund looks it up first and records it", async () => {
    const payment = await paid();
    const pfId = payment.provider_payment_id as string;
    // Made at PayFast, the answer cut, and the lookup refused: nothing can tell.
    const first = await withMode("lost", async () => {
      const originalFetch = globalThis.fetch;
      let queries = 0;
      globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        if (String(input).includes("/refunds/query/") && ++queries > 1) throw new Error("connect ECONNREFUSED");
        return originalFetch(input, init);
      }) as typeof fetch;
      try {
        return await refund(payment.id, { amount: 300, reason: "Three days off air", term: "keep" });
      } finally {
        globalThis.fetch = originalFetch;
      }
    });
    expect(first.statusCode).toBe(502);
    expect(first.json().error).toMatchObject({ code: "refund_unconfirmed" });
    expect(first.json().error.message).toContain("R300 stays held on this payment so it is never refunded twice");
    const held = await rowOf(payment.external_transaction_id);
    expect(held).toMatchObject({ status: "paid", refunded_amount: 300 });
    expect(held.notes).toContain("no answer, and PayFast could not be asked");
    expect(await notesOf(payment.id)).toHaveLength(0);
    const [open] = await attemptsOf(payment.id);
    expect(open.state).toBe("pending");

    // At once, a second refund is refused while the first may still be in flight.
    const busy = await refund(payment.id, { amount: 100, reason: "Another" });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.message).toContain("with the payment provider right now");

    // A minute on, the next refund asks PayFast first: it was made, so its credit note is issued, and nothing more is sent.
    await t.app.db
      .update(refundAttempts)
      .set({ created_at: new Date(Date.now() - 120_000) })
      .where(eq(refundAttempts.id, open.id));
    const next = await refund(payment.id, { amount: 100, reason: "Another" });
    expect(next.statusCode).toBe(409);
    expect(next.json().error.message).toMatch(/The earlier refund of R300 went through at PayFast after all: credit note CN-\d+ is issued/);
    expect(fake.refunds.get(pfId)).toEqual([{ amountCents: 30000, reason: "Three days off air" }]);
    const notes = await notesOf(payment.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ incl_cents: 30000, reason: "Three days off air", method: "provider" });
    expect((await attemptsOf(payment.id))[0]).toMatchObject({ state: "done", credit_note_id: notes[0].id });
    expect((await refundMessages(notes[0].number)).map((m) => m.channel).sort()).toEqual(["email", "whatsapp"]);
    expect(await rowOf(payment.external_transaction_id)).toMatchObject({ refunded_amount: 300 });
  });

  it("an open refund PayFast shows was not made is released by the next refund, which then goes through", async () => {
    const payment = await paid();
    const pfId = payment.provider_payment_id as string;
    // As if the process died after sending: PayFast's balance read, the refund never arriving.
    const [attempt] = await t.app.db
      .insert(refundAttempts)
      .values({
        payment_id: payment.id,
        provider: "payfast",
        amount_cents: 145000,
        mark: "145000:card",
        sent_at: new Date(Date.now() - 120_000),
        created_at: new Date(Date.now() - 120_000),
        request: { reason: "Lost in a crash" },
      })
      .returning();
    await t.app.db.update(capturedPayments).set({ refunded_amount: 1450 }).where(eq(capturedPayments.id, payment.id));
    const response = await refund(payment.id, { amount: 50, reason: "Half a week", term: "keep" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ method: "provider", amount: 50, refunded_amount: 50 });
    expect((await t.app.db.select().from(refundAttempts).where(eq(refundAttempts.id, attempt.id)))[0].state).toBe("failed");
    expect(fake.refunds.get(pfId)).toEqual([{ amountCents: 5000, reason: "Half a week" }]);
    expect((await rowOf(payment.external_transaction_id)).notes).toContain("PayFast shows no refund of R1,450.00: the hold is released.");
  });
});
