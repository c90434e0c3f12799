// The Paystack adapter against its fake (fake.ts, written from Paystack's documentation and sharing
// no code with the adapter), and its webhook signature against a worked example fixed here.
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NotificationRefused,
  PaymentProviderError,
  type ProviderNotification,
  type ProviderRefundRequest,
  RefundOutcomeUnknown,
} from "../provider";
import { ChargeOutcomeUnknown, createPaystackProvider, PAYSTACK_PAID_EVENT, type PaystackProvider, paystackSignature } from "./adapter";
import { type FakePaystack, startFakePaystack } from "./fake";

const SECRET = "sk_test_0f1e2d3c4b5a69788796a5b4c3d2e1f0aabbccdd";
const URLS = {
  notifyUrl: "https://shop.example/api/payments/paystack/webhook",
  successUrl: "https://shop.example/pay/result?ref=",
  cancelUrl: "https://shop.example/pay/cancelled",
  failureUrl: "https://shop.example/pay/failed",
};
let fake: FakePaystack;
let paystack: PaystackProvider;

beforeAll(async () => {
  fake = await startFakePaystack({ secretKey: SECRET });
  paystack = createPaystackProvider({ apiUrl: fake.url, secretKey: SECRET, timeoutMs: 400 });
});
afterAll(async () => {
  await fake?.close();
});

let counter = 0;
/** A checkout of R100 started with the fake; returns its reference. */
async function started(amountCents = 10000): Promise<string> {
  counter += 1;
  const reference = `STRMDSK_PS_${counter}_${Date.now().toString(36)}`;
  await paystack.startCheckout({ amountCents, description: "1 Month", reference, urls: URLS, email: "thandi@example.co.za" });
  return reference;
}

describe("Paystack checkout (POST /transaction/initialize)", () => {
  it("sends the buyer to Paystack's authorization_url, having sent cents, ZAR, our reference, the callback and the cancel action", async () => {
    const checkout = await paystack.startCheckout({
      amountCents: 14950,
      description: "3 Months",
      reference: "STRMDSK_PS_init",
      urls: URLS,
      email: "thandi@example.co.za",
    });
    const held = fake.transactions.get("STRMDSK_PS_init");
    expect(held).toMatchObject({
      amount: 14950,
      currency: "ZAR",
      email: "thandi@example.co.za",
      callback_url: URLS.successUrl,
      metadata: { cancel_action: URLS.cancelUrl },
      status: "abandoned",
    });
    const url = `${fake.url}/checkout/${held?.access_code}`;
    expect(checkout).toEqual({ kind: "redirect", url, providerReference: url });
    // the customer who comes back is sent to this checkout, never a second initialize
    expect(paystack.resumeCheckout?.(url)).toEqual({ kind: "redirect", url, providerReference: url });
    const page = await fetch(checkout.kind === "redirect" ? checkout.url : "");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("R149.50");
  });

  it("a second initialize under the same reference is refused by Paystack, and says so (the first checkout stands)", async () => {
    const reference = await started();
    const first = fake.transactions.get(reference);
    const again = paystack.startCheckout({
      amountCents: 10000,
      description: "1 Month",
      reference,
      urls: URLS,
      email: "thandi@example.co.za",
    });
    await expect(again).rejects.toThrow("Duplicate Transaction Reference");
    expect(fake.transactions.get(reference)).toBe(first);
  });

  it("refuses a checkout without the buyer's e-mail before anything is sent to Paystack", async () => {
    const attempt = paystack.startCheckout({ amountCents: 10000, description: "1 Month", reference: "STRMDSK_PS_noemail", urls: URLS });
    await expect(attempt).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(attempt).rejects.toThrow("Paystack needs the buyer's e-mail address to start a checkout.");
    expect(fake.transactions.has("STRMDSK_PS_noemail")).toBe(false);
  });

  it("reports Paystack's 401 'Invalid key' when the secret key is wrong", async () => {
    const wrong = createPaystackProvider({ apiUrl: fake.url, secretKey: "sk_test_wrong" });
    const attempt = wrong.startCheckout({
      amountCents: 10000,
      description: "1 Month",
      reference: "STRMDSK_PS_key",
      urls: URLS,
      email: "a@b.co",
    });
    await expect(attempt).rejects.toMatchObject({
      name: "PaymentProviderError",
      status: 401,
      message: expect.stringContaining("Invalid key"),
    });
    expect(fake.transactions.has("STRMDSK_PS_key")).toBe(false);
  });
});

describe("Paystack webhook signature (x-paystack-signature)", () => {
  // A charge.success in the shape of Paystack's webhook guide, and a fixed key. The hex below was
  // worked out once, outside the adapter (node:crypto here; `openssl dgst -sha512 -hmac` gives the
  // same): HMAC-SHA512 of the raw body keyed with the secret key. A change to the adapter's
  // algorithm, key handling or encoding fails this test.
  const key = "sk_test_paystack_docs_example_key";
  const body = JSON.stringify({
    event: "charge.success",
    data: {
      id: 302961,
      domain: "live",
      status: "success",
      reference: "STRMDSK_1_PsDoc",
      amount: 10000,
      message: null,
      gateway_response: "Approved",
      paid_at: "2026-11-28T10:00:00.000Z",
      created_at: "2026-11-28T09:59:00.000Z",
      channel: "card",
      currency: "ZAR",
      ip_address: "41.1.25.1",
      metadata: 0,
      log: null,
      fees: null,
      customer: {
        id: 68324,
        first_name: "Thandi",
        last_name: "Nkosi",
        email: "thandi@example.co.za",
        customer_code: "CUS_qo38as2hpsgk2r0",
        phone: null,
        metadata: null,
        risk_action: "default",
      },
      authorization: {
        authorization_code: "AUTH_f5rnfq9p",
        bin: "539999",
        last4: "8877",
        exp_month: "08",
        exp_year: "2028",
        card_type: "mastercard DEBIT",
        bank: "TEST BANK",
        country_code: "ZA",
        brand: "mastercard",
        reusable: true,
        signature: "SIG_idyuhgd87dUYSHO92D",
      },
      plan: {},
    },
  });
  const EXPECTED =
    "2fcf267b5307c0ddbc595e66c89311fc303675bd19d91daa564751d04283abf702d50184e3388fb81dd7a6f7ece689d93b93e4ed115470b4b6919cfd3204e56d";

  it("is the hex HMAC-SHA512 of the raw body with the secret key (worked example)", () => {
    expect(createHmac("sha512", key).update(body).digest("hex")).toBe(EXPECTED);
    expect(paystackSignature(key, body)).toBe(EXPECTED);
  });

  it("accepts the worked example and reads it: paid, our reference, Paystack's id, cents, and the reusable card kept apart from the payload", () => {
    const provider = createPaystackProvider({ apiUrl: "https://api.paystack.co", secretKey: key });
    const n = provider.readNotification({ rawBody: body, headers: { "x-paystack-signature": EXPECTED } });
    expect(n).toMatchObject({
      reference: "STRMDSK_1_PsDoc",
      providerPaymentId: "302961",
      status: "paid",
      amountCents: 10000,
      providerStatus: "charge.success",
      savedCard: { token: "AUTH_f5rnfq9p", label: "Mastercard DEBIT ending 8877 (expires 08/2028)" },
    });
    expect(JSON.stringify(n.payload)).not.toContain("AUTH_f5rnfq9p");
  });

  it("refuses a missing signature, one made with another key, and a body changed after signing", () => {
    const provider = createPaystackProvider({ apiUrl: "https://api.paystack.co", secretKey: key });
    const read = (rawBody: string, headers: Record<string, string>) => {
      try {
        provider.readNotification({ rawBody, headers });
        return "accepted";
      } catch (error) {
        if (!(error instanceof NotificationRefused)) throw error;
        return `${error.kind}: ${error.message} (${error.reference})`;
      }
    };
    expect(read(body, {})).toBe("bad_signature: The webhook carries no x-paystack-signature. (STRMDSK_1_PsDoc)");
    const forged = createHmac("sha512", "sk_test_someone_else").update(body).digest("hex");
    expect(read(body, { "x-paystack-signature": forged })).toBe(
      "bad_signature: The webhook's x-paystack-signature does not match. (STRMDSK_1_PsDoc)",
    );
    expect(read(body.replace('"amount":10000', '"amount":100'), { "x-paystack-signature": EXPECTED })).toMatch(/^bad_signature: /);
    expect(read(body, { "x-paystack-signature": EXPECTED.slice(0, 64) })).toMatch(/^bad_signature: /);
  });

  it("reads another event as pending, named by its event, for the caller to answer 200 and ignore", () => {
    const provider = createPaystackProvider({ apiUrl: "https://api.paystack.co", secretKey: key });
    const other = JSON.stringify({ event: "refund.processed", data: { id: 1234, amount: 10000, currency: "ZAR", status: "processed" } });
    const n = provider.readNotification({ rawBody: other, headers: { "x-paystack-signature": paystackSignature(key, other) } });
    expect(n.status).toBe("pending");
    expect(n.providerStatus).toBe("refund.processed");
    expect(n.providerStatus).not.toBe(PAYSTACK_PAID_EVENT);
    expect(n.savedCard).toBeUndefined();
  });

  it("refuses a signed charge.success that is not in ZAR or names no reference as bad input", () => {
    const provider = createPaystackProvider({ apiUrl: "https://api.paystack.co", secretKey: key });
    const ngn = body.replace('"currency":"ZAR"', '"currency":"NGN"');
    expect(() => provider.readNotification({ rawBody: ngn, headers: { "x-paystack-signature": paystackSignature(key, ngn) } })).toThrow(
      "The webhook's data.currency must be ZAR.",
    );
    const noRef = body.replace('"reference":"STRMDSK_1_PsDoc",', "");
    expect(() => provider.readNotification({ rawBody: noRef, headers: { "x-paystack-signature": paystackSignature(key, noRef) } })).toThrow(
      "The webhook's data.reference must be our reference.",
    );
  });
});

describe("Paystack's deliveries from the fake", () => {
  let receiver: Server;
  let receiverUrl = "";
  const received: (ProviderNotification | string)[] = [];

  beforeAll(async () => {
    // A webhook endpoint that does what ours must: read the raw body, verify, 401 on a bad signature.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        try {
          received.push(paystack.readNotification({ rawBody: Buffer.concat(chunks).toString("utf8"), headers: req.headers }));
          res.writeHead(200).end();
        } catch (error) {
          received.push(error instanceof NotificationRefused ? error.kind : String(error));
          res.writeHead(error instanceof NotificationRefused && error.kind === "bad_signature" ? 401 : 400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/paystack/webhook`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("accepts a paid charge.success and its replay alike (same transaction id, the dedupe key), and refuses one signed with another key", async () => {
    received.length = 0;
    const reference = await started();
    const paid = fake.pay(reference);
    const delivery = fake.webhookFor(reference, { url: receiverUrl });
    expect(await fake.send(delivery)).toMatchObject({ status: 200 });
    expect(await fake.send(delivery)).toMatchObject({ status: 200 });
    expect(await fake.send(fake.webhookFor(reference, { url: receiverUrl, secretKey: "sk_test_forger" }))).toMatchObject({ status: 401 });
    const [first, replay, forged] = received;
    expect(first).toMatchObject({ reference, providerPaymentId: String(paid.id), status: "paid", amountCents: 10000 });
    expect(replay).toEqual(first);
    expect(forged).toBe("bad_signature");
    expect((first as ProviderNotification).savedCard?.token).toBe(paid.authorization?.authorization_code);
  });

  it("the checkout page's Pay button pays, sends the signed webhook, and returns the customer to our callback with the reference", async () => {
    received.length = 0;
    fake.webhookUrl = receiverUrl;
    try {
      const reference = await started();
      const access = fake.transactions.get(reference)?.access_code;
      const back = await fetch(`${fake.url}/checkout/${access}/pay`, { method: "POST", redirect: "manual" });
      expect(back.status).toBe(302);
      expect(back.headers.get("location")).toBe(`${URLS.successUrl}&trxref=${reference}&reference=${reference}`);
      expect(received).toEqual([expect.objectContaining({ reference, status: "paid" })]);
    } finally {
      fake.webhookUrl = "";
    }
  });
});

describe("Paystack verify (GET /transaction/verify/:reference)", () => {
  const notified = (reference: string, id: string): ProviderNotification => ({
    reference,
    providerPaymentId: id,
    status: "paid",
    amountCents: 10000,
    providerStatus: "charge.success",
    payload: {},
  });

  it("is pending until paid, then paid with Paystack's amount and transaction id", async () => {
    const reference = await started();
    const id = String(fake.transactions.get(reference)?.id);
    expect(await paystack.getStatus?.({ reference, providerReference: reference })).toMatchObject({
      status: "pending",
      amountCents: 10000,
    });
    expect(await paystack.confirm(notified(reference, id), { reference, providerReference: reference })).toMatchObject({
      status: "pending",
      providerStatus: "abandoned",
    });
    fake.pay(reference);
    expect(await paystack.confirm(notified(reference, id), { reference, providerReference: reference })).toMatchObject({
      status: "paid",
      amountCents: 10000,
      currency: "ZAR",
      providerPaymentId: id,
    });
  });

  it("reports the amount Paystack holds when it differs from ours, for the caller to refuse", async () => {
    const reference = await started();
    const held = fake.pay(reference);
    held.amount = 9000;
    const truth = await paystack.confirm(notified(reference, String(held.id)), { reference, providerReference: reference });
    expect(truth).toMatchObject({ status: "paid", amountCents: 9000 });
  });

  it("never confirms a transaction in another currency, and the result page reads it as failed", async () => {
    const reference = await started();
    const held = fake.pay(reference);
    held.currency = "NGN";
    await expect(paystack.confirm(notified(reference, String(held.id)), { reference, providerReference: reference })).rejects.toThrow(
      `Paystack's transaction ${reference} is in NGN, not ZAR`,
    );
    expect(await paystack.getStatus?.({ reference, providerReference: reference })).toMatchObject({ status: "failed" });
  });

  it("refuses to confirm by a transaction other than the notified one", async () => {
    const reference = await started();
    fake.pay(reference);
    await expect(paystack.confirm(notified(reference, "999"), { reference, providerReference: reference })).rejects.toThrow(
      /not the notified 999/,
    );
  });

  it("a reference Paystack does not know: pending for the result page, an error for confirm", async () => {
    expect(await paystack.getStatus?.({ reference: "STRMDSK_PS_unknown", providerReference: null })).toEqual({
      status: "pending",
      amountCents: 0,
    });
    await expect(
      paystack.confirm(notified("STRMDSK_PS_unknown", "1"), { reference: "STRMDSK_PS_unknown", providerReference: null }),
    ).rejects.toThrow("Transaction reference not found");
  });
});

describe("Paystack refunds (POST /refund, GET /refund)", () => {
  async function paidRequest(refundCents = 2500): Promise<ProviderRefundRequest> {
    const reference = await started();
    const held = fake.pay(reference);
    return {
      refundId: `rf-${reference}`,
      payment: { reference, providerReference: reference, providerPaymentId: String(held.id), amountCents: 10000 },
      amountCents: refundCents,
      reason: "Two days off",
    };
  }

  it("refunds part of a paid transaction to the card, and refuses more than is left", async () => {
    const request = await paidRequest(2500);
    const made = await paystack.refund?.(request, null);
    const [held] = fake.refunds.filter((r) => r.transaction_reference === request.payment.reference);
    expect(made).toEqual({ reference: String(held.id), route: "card" });
    expect(held).toMatchObject({ amount: 2500, merchant_note: "Two days off", status: "pending" });
    const tooMuch = paystack.refund?.({ ...request, amountCents: 8000 }, null);
    await expect(tooMuch).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(tooMuch).rejects.not.toBeInstanceOf(RefundOutcomeUnknown);
    expect(fake.refunds.filter((r) => r.transaction_reference === request.payment.reference)).toHaveLength(1);
  });

  it("a refund whose answer is lost is unknown; the lookup then finds it, and not once it is recorded", async () => {
    const request = await paidRequest(2500);
    const sentAt = new Date();
    fake.fail("refund", "lost");
    await expect(paystack.refund?.(request, null)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    const [made] = fake.refunds.filter((r) => r.transaction_reference === request.payment.reference);
    expect(made).toMatchObject({ amount: 2500 });
    expect(await paystack.findRefund?.(request, { mark: null, sentAt, known: [] })).toEqual({ reference: String(made.id), route: "card" });
    expect(await paystack.findRefund?.(request, { mark: null, sentAt, known: [String(made.id)] })).toBeNull();
  });

  it("a refund answered after our timeout is unknown and found; one refused with a 503 is unknown and found not made", async () => {
    const slow = await paidRequest(1000);
    fake.fail("refund", "slow");
    fake.slowMs = 1000;
    await expect(paystack.refund?.(slow, null)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    expect(await paystack.findRefund?.(slow, { mark: null, sentAt: new Date(), known: [] })).toMatchObject({ route: "card" });

    const down = await paidRequest(1000);
    fake.fail("refund", "down");
    await expect(paystack.refund?.(down, null)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    expect(await paystack.findRefund?.(down, { mark: null, sentAt: new Date(), known: [] })).toBeNull();
  });

  it("a refund answered with something that is not JSON is unknown, and found made", async () => {
    const request = await paidRequest(1500);
    fake.fail("refund", "garbled");
    await expect(paystack.refund?.(request, null)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    expect(await paystack.findRefund?.(request, { mark: null, sentAt: new Date(), known: [] })).toMatchObject({ route: "card" });
  });

  it("the lookup that cannot be made says so instead of answering 'not made'", async () => {
    const request = await paidRequest(1000);
    fake.fail("list_refunds", "down");
    const lookup = paystack.findRefund?.(request, { mark: null, sentAt: new Date(), known: [] });
    await expect(lookup).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe("Paystack saved-card charges (POST /transaction/charge_authorization)", () => {
  async function savedCard(reusable = true) {
    const reference = await started();
    const held = fake.pay(reference, { reusable });
    return { code: held.authorization?.authorization_code ?? "", email: held.email };
  }

  it("charges a reusable card again by its authorization code: paid, in ZAR, under our reference", async () => {
    const card = await savedCard();
    const result = await paystack.chargeAuthorization({
      authorizationCode: card.code,
      email: card.email,
      amountCents: 10000,
      reference: "STRMDSK_PS_renew1",
    });
    expect(result).toMatchObject({
      status: "paid",
      amountCents: 10000,
      currency: "ZAR",
      reference: "STRMDSK_PS_renew1",
      providerStatus: "success",
    });
    expect(fake.transactions.get("STRMDSK_PS_renew1")).toMatchObject({ status: "success", amount: 10000 });
  });

  it("a decline is an answer: failed, with the bank's words, nothing paid", async () => {
    const card = await savedCard();
    fake.decline(card.code, "Insufficient Funds");
    const result = await paystack.chargeAuthorization({
      authorizationCode: card.code,
      email: card.email,
      amountCents: 10000,
      reference: "STRMDSK_PS_renew2",
    });
    expect(result).toMatchObject({ status: "failed", gatewayResponse: "Insufficient Funds" });
  });

  it("a second charge under the same reference is refused by Paystack, so a resend cannot charge twice", async () => {
    const card = await savedCard();
    const input = { authorizationCode: card.code, email: card.email, amountCents: 5000, reference: "STRMDSK_PS_renew3" };
    await paystack.chargeAuthorization(input);
    const again = paystack.chargeAuthorization(input);
    await expect(again).rejects.toThrow("Duplicate Transaction Reference");
    await expect(again).rejects.not.toBeInstanceOf(ChargeOutcomeUnknown);
  });

  it("a charge whose answer is lost is unknown; verifying its reference tells what happened", async () => {
    const card = await savedCard();
    fake.fail("charge_authorization", "lost");
    await expect(
      paystack.chargeAuthorization({ authorizationCode: card.code, email: card.email, amountCents: 10000, reference: "STRMDSK_PS_renew4" }),
    ).rejects.toBeInstanceOf(ChargeOutcomeUnknown);
    expect(await paystack.verify("STRMDSK_PS_renew4")).toMatchObject({ status: "paid", amountCents: 10000 });
  });

  it("a card Paystack did not mark reusable is not offered to keep, and cannot be charged", async () => {
    const reference = await started();
    fake.pay(reference, { reusable: false });
    const truth = await paystack.verify(reference);
    expect(truth.status).toBe("paid");
    expect(truth.savedCard).toBeUndefined();
    const code = fake.transactions.get(reference)?.authorization?.authorization_code ?? "";
    await expect(
      paystack.chargeAuthorization({
        authorizationCode: code,
        email: "thandi@example.co.za",
        amountCents: 100,
        reference: "STRMDSK_PS_renew5",
      }),
    ).rejects.toThrow("Invalid authorization code");
  });
});
