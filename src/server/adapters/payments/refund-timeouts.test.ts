// A refund whose answer never comes in time (the adapter's own timeout, not a cut connection): the
// adapter reports it as unknown, never as refused, and the lookup then finds what the provider did.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formBody } from "./form-encoding";
import { createOzowProvider } from "./ozow/adapter";
import { type FakeOzow, startFakeOzow } from "./ozow/fake";
import { createPayfastProvider } from "./payfast/adapter";
import { type FakePayfast, startFakePayfast } from "./payfast/fake";
import { PaymentProviderError, type ProviderRefundRequest, RefundOutcomeUnknown } from "./provider";

const MERCHANT = { merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn" };
const SITE = { siteCode: "STR-STR-001", privateKey: "ozow-Private-KEY", apiKey: "ozow-api-key" };
let payfast: FakePayfast;
let ozow: FakeOzow;

beforeAll(async () => {
  payfast = await startFakePayfast(MERCHANT);
  ozow = await startFakeOzow(SITE);
});
afterAll(async () => {
  await payfast?.close();
  await ozow?.close();
});

/** A payment the fake PayFast holds as paid (R100), by its checkout form. */
async function payfastPaid(reference: string) {
  const provider = createPayfastProvider({ url: payfast.url, apiUrl: payfast.url, ...MERCHANT, timeoutMs: 300 });
  const checkout = await provider.startCheckout({
    amountCents: 10000,
    description: "1 Month",
    reference,
    urls: { notifyUrl: "http://127.0.0.1:9/itn", successUrl: "http://x/s", cancelUrl: "http://x/c", failureUrl: "http://x/f" },
  });
  if (checkout.kind !== "form") throw new Error("expected a form");
  await fetch(checkout.action, {
    method: "POST",
    body: formBody(checkout.fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const payment = payfast.payments.get(reference);
  if (!payment) throw new Error("not posted");
  payment.status = "COMPLETE";
  const request: ProviderRefundRequest = {
    refundId: `rf-${reference}`,
    payment: { reference, providerReference: null, providerPaymentId: payment.pfPaymentId, amountCents: 10000 },
    amountCents: 2500,
    reason: "Two days off",
  };
  return { provider, request, pfId: payment.pfPaymentId };
}

describe("refund answers that time out", () => {
  it("PayFast: a refund answered after our timeout is unknown, and the lookup finds it made", async () => {
    const { provider, request, pfId } = await payfastPaid("STRMDSK_T_slow1");
    const { mark } = (await provider.prepareRefund?.(request)) ?? { mark: null };
    expect(mark).toBe("10000:card");
    payfast.refundMode = "slow";
    payfast.refundDelayMs = 1500;
    try {
      await expect(provider.refund?.(request, mark)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    } finally {
      payfast.refundMode = "ok";
    }
    expect(payfast.refunds.get(pfId)).toEqual([{ amountCents: 2500, reason: "Two days off" }]);
    expect(await provider.findRefund?.(request, { mark, sentAt: new Date(), known: [] })).toEqual({
      reference: request.refundId,
      route: "card",
    });
  });

  it("PayFast: down (503) before the refund is sent is a plain refusal; a 503 to the refund itself is unknown", async () => {
    const { provider, request } = await payfastPaid("STRMDSK_T_down1");
    payfast.queryDown = true;
    try {
      const refused = provider.prepareRefund?.(request);
      await expect(refused).rejects.toBeInstanceOf(PaymentProviderError);
      await expect(refused).rejects.not.toBeInstanceOf(RefundOutcomeUnknown);
    } finally {
      payfast.queryDown = false;
    }
    payfast.refundMode = "down";
    try {
      await expect(provider.refund?.(request, "10000:card")).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    } finally {
      payfast.refundMode = "ok";
    }
    // not made: the amount PayFast has left did not fall
    expect(await provider.findRefund?.(request, { mark: "10000:card", sentAt: new Date(), known: [] })).toBeNull();
  });

  it("Ozow: a submit whose connection is cut is unknown; the lookup finds the refund by our reference and amount, not one already known", async () => {
    const provider = createOzowProvider({ payUrl: ozow.url, apiUrl: ozow.url, ...SITE, timeoutMs: 300 });
    const checkout = await provider.startCheckout({
      amountCents: 10000,
      description: "1 Month",
      reference: "STRMDSK_T_ozow1",
      urls: { notifyUrl: "http://127.0.0.1:9/n", successUrl: "http://x/s", cancelUrl: "http://x/c", failureUrl: "http://x/f" },
    });
    if (checkout.kind !== "form") throw new Error("expected a form");
    await fetch(`${ozow.url}/`, {
      method: "POST",
      body: formBody(checkout.fields),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    ozow.complete("STRMDSK_T_ozow1", "Complete");
    const transactionId = ozow.transactions.get("STRMDSK_T_ozow1")?.transactionId ?? "";
    const request: ProviderRefundRequest = {
      refundId: "ours-1",
      payment: { reference: "STRMDSK_T_ozow1", providerReference: null, providerPaymentId: transactionId, amountCents: 10000 },
      amountCents: 2500,
      reason: "Two days off",
    };
    await provider.prepareRefund?.(request);
    ozow.refundMode = "lost";
    try {
      await expect(provider.refund?.(request, null)).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    } finally {
      ozow.refundMode = "ok";
    }
    const [made] = ozow.refunds;
    expect(await provider.findRefund?.(request, { mark: null, sentAt: new Date(), known: [] })).toEqual({
      reference: made.id,
      route: "bank-account",
    });
    // the same refund already recorded is not taken for a new one
    expect(await provider.findRefund?.(request, { mark: null, sentAt: new Date(), known: [made.id] })).toBeNull();
  });
});
