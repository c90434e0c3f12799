// The refund dialog: for a payment a provider took, the owner may say they paid it back
// themselves (a payout-only PayFast payment, a refund made in the provider's portal); the request
// then carries by_hand and the toast says it was recorded, not refunded through the provider.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminPayment } from "@/shared/business-schemas";
import { paymentProvidersAnswer } from "@/web/testing/payment-providers";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { renderWithClient, stubApi, typeInto } from "../catalogue/components/test-helpers";
import { RefundDialog } from "./refund-dialog";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock("@/web/lib/toast", () => ({ toast }));

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const payment = (provider: string): AdminPayment => ({
  id: "pay-1",
  provider,
  external_transaction_id: "SD-1001",
  provider_reference: null,
  amount: 650,
  currency: "ZAR",
  package_id: null,
  package_name: "Month to Month",
  description: "",
  client_id: null,
  lead_id: null,
  client_email: "thandi@example.co.za",
  status: "paid",
  paid_at: "2026-11-20T10:00:00Z",
  notes: "",
  refunded_amount: 0,
  created_at: "2026-11-20T10:00:00Z",
  updated_at: "2026-11-20T10:00:00Z",
  client_username: null,
  client_full_name: "Thandi Mokoena",
});

const theDialog = () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!found) throw new Error("no dialog");
    return found;
  });
const byHandBox = () => document.querySelector<HTMLInputElement>('input[type="checkbox"][name="by_hand"]');

describe("RefundDialog", () => {
  it("a PayFast payment the owner paid back themselves: by_hand is sent and the toast says it was recorded", async () => {
    const posted: unknown[] = [];
    stubApi({
      "/api/payment-providers": paymentProvidersAnswer,
      "POST /api/admin/payments/pay-1/refund": (body) => {
        posted.push(body);
        return {
          body: {
            data: {
              credit_note: "CN-0001",
              amount: 650,
              method: "manual",
              payment_status: "refunded",
              refunded_amount: 650,
              term_change: "",
            },
          },
        };
      },
    });
    await renderWithClient(<RefundDialog payment={payment("payfast")} onClose={() => {}} />);
    const dialog = await theDialog();
    expect(dialog.textContent).toContain("I paid it back myself (in PayFast's portal or by bank transfer)");
    await typeInto(dialog.querySelector("textarea") as HTMLTextAreaElement, "Paid twice by mistake");
    await click(byHandBox() as HTMLInputElement);
    await click(getByRoleName(dialog, "button", "Refund and issue credit note"));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ by_hand: true, reason: "Paid twice by mistake", amount: 650 });
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(toast.success.mock.calls[0]?.[1]).toEqual({ description: "R650 recorded as paid back by hand." });
  });

  it("calls a refund the provider has not confirmed held, not refunded", async () => {
    stubApi({ "/api/payment-providers": paymentProvidersAnswer });
    await renderWithClient(<RefundDialog payment={{ ...payment("ozow"), refunded_amount: 400, refund_held: 250 }} onClose={() => {}} />);
    const dialog = await theDialog();
    expect(dialog.textContent).toContain("R150 refunded already · R250 held: an earlier refund not yet confirmed.");
  });

  it("names the provider itself, not the payment method's label, in its sentences", async () => {
    stubApi({ "/api/payment-providers": paymentProvidersAnswer });
    await renderWithClient(<RefundDialog payment={payment("ozow")} onClose={() => {}} />);
    const dialog = await theDialog();
    expect(dialog.textContent).toContain("I paid it back myself (in Ozow's portal or by bank transfer)");
    expect(dialog.textContent).toContain("Recorded as paid back by hand: Ozow is not asked to refund it.");
    expect(dialog.textContent).not.toContain("(instant EFT)");
  });

  it("offers no such choice for an EFT payment, which is always paid back by hand", async () => {
    stubApi({ "/api/payment-providers": paymentProvidersAnswer });
    await renderWithClient(<RefundDialog payment={payment("eft")} onClose={() => {}} />);
    await theDialog();
    expect(byHandBox()).toBeNull();
  });
});
