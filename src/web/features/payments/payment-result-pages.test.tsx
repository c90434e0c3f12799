import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaymentStatusView } from "@/shared/api";
import { cleanup, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { PaymentCancelPage, PaymentFailurePage, PaymentSuccessPage } from "./payment-result-pages";

function payment(status: PaymentStatusView["status"]): PaymentStatusView {
  return {
    external_transaction_id: "SD_1763800000_abc123",
    status,
    amount: 1450,
    currency: "ZAR",
    package_name: "3 Months",
    provider: "sandbox",
    created_at: "2026-11-22T10:00:00.000Z",
    paid_at: status === "paid" ? "2026-11-22T10:01:00.000Z" : null,
  };
}

async function renderAt(path: string, routes: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch({ "/branding": { body: { data: { company_name: "StreamDesk", whatsapp_number: "27821234567" } } }, ...routes });
  vi.stubGlobal("fetch", stub.fetch);
  const { rendered } = renderRoutes(
    [
      { path: "/payment/success", element: <PaymentSuccessPage /> },
      { path: "/payment/failure", element: <PaymentFailurePage /> },
      { path: "/payment/cancel", element: <PaymentCancelPage /> },
    ],
    path,
  );
  return { ...(await rendered), calls: stub.calls };
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("payment result pages", () => {
  it("show the real status from the API, whatever page the provider sent the customer to", async () => {
    const { container } = await renderAt("/payment/success?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("failed") } },
    });
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Payment failed"));
    expect(container.querySelector("[data-payment-status]")?.getAttribute("data-payment-status")).toBe("failed");
    expect(container.textContent).toContain("Failed");
    expect(container.textContent).toContain("R1,450");
    expect(container.textContent).toContain("3 Months");
    const tryAgain = [...container.querySelectorAll("a")].find((a) => a.textContent === "Try again");
    expect(tryAgain?.getAttribute("href")).toBe("/pricing#pricing-packages");
    const eft = [...container.querySelectorAll("a")].find((a) => a.textContent?.includes("Pay by EFT instead"));
    expect(eft?.getAttribute("href")).toMatch(/^https:\/\/wa\.me\/27821234567\?text=/);
  });

  it("a paid payment shows Paid, the amount, the time in SAST and what happens next", async () => {
    const { container } = await renderAt("/payment/success?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("paid") } },
    });
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Payment received"));
    expect(container.textContent).toContain("Paid");
    expect(container.textContent).toContain("22 Nov 2026, 12:01 SAST");
    expect(container.textContent).toContain("What happens next");
  });

  it("asks again while the payment is pending, and shows the change", async () => {
    let answers = 0;
    const { container } = await renderAt("/payment/cancel?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": () => {
        answers += 1;
        return { body: { data: payment(answers < 2 ? "pending" : "cancelled") } };
      },
    });
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("We're confirming your payment"));
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Payment cancelled"), 5000);
    expect(answers).toBe(2);
  });

  it("without a reference, or with an unknown one, explain plainly instead of failing", async () => {
    const none = await renderAt("/payment/success", {});
    expect(none.container.querySelector("h1")?.textContent).toBe("We couldn't tell which payment this is");
    expect(none.calls.some((c) => c.startsWith("/payments"))).toBe(false);
    await cleanup();
    const unknown = await renderAt("/payment/failure?ref=NOPE", {});
    await waitFor(() => expect(unknown.container.querySelector("h1")?.textContent).toBe("We couldn't find that payment"));
    expect(unknown.container.textContent).toContain("NOPE");
  });
});
