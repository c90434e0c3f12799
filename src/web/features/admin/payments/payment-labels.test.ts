// How a payment's refunds read in the dashboard: a refund sent to the provider and not yet
// confirmed is counted in refunded_amount (the amount is reserved) but is not called refunded.
import { describe, expect, it } from "vitest";
import { confirmedRefund, paymentStatus } from "./payment-labels";

describe("a payment's refunds as the owner reads them", () => {
  it("counts only confirmed refunds as refunded", () => {
    expect(confirmedRefund({ refunded_amount: 0 })).toBe(0);
    expect(confirmedRefund({ refunded_amount: 650 })).toBe(650);
    expect(confirmedRefund({ refunded_amount: 1450, refund_held: 1450 })).toBe(0);
    expect(confirmedRefund({ refunded_amount: 250.5, refund_held: 100.25 })).toBe(150.25);
  });

  it("says 'refund held' while the only refund is unconfirmed, 'partly refunded' once money went back", () => {
    expect(paymentStatus({ status: "paid", refunded_amount: 0 })).toBe("paid");
    expect(paymentStatus({ status: "paid", refunded_amount: 1450, refund_held: 1450 })).toBe("refund held");
    expect(paymentStatus({ status: "paid", refunded_amount: 300, refund_held: 100 })).toBe("partly refunded");
    expect(paymentStatus({ status: "paid", refunded_amount: 200 })).toBe("partly refunded");
    expect(paymentStatus({ status: "refunded", refunded_amount: 650 })).toBe("refunded");
    expect(paymentStatus({ status: "pending", refunded_amount: 0 })).toBe("pending");
  });

  it("says 'held for you' for a paid payment held for a suspended client, until a refund is under way or made", () => {
    const held = { status: "paid", refunded_amount: 0, held_for_client_id: "c1" };
    expect(paymentStatus(held)).toBe("held for you");
    expect(paymentStatus({ ...held, refunded_amount: 650, refund_held: 650 })).toBe("refund held");
    expect(paymentStatus({ ...held, status: "refunded", refunded_amount: 650 })).toBe("refunded");
  });
});
