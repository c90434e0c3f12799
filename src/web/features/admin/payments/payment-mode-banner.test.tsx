// The card mode the shop runs in, from GET /api/payments/methods, in words an owner acts on.
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaymentMethods } from "@/shared/api";
import { paymentProvidersAnswer } from "@/web/testing/payment-providers";
import { cleanup, render, testQueryClient, waitFor } from "@/web/testing/render";
import { renderWithClient, stubApi } from "../catalogue/components/test-helpers";
import { PaymentModeBanner } from "./payment-mode-banner";

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const show = async (methods: PaymentMethods, props: { quietWhenLive?: boolean } = {}) => {
  stubApi({ "/api/payments/methods": { body: { data: methods } }, "/api/payment-providers": paymentProvidersAnswer });
  const { container } = await renderWithClient(<PaymentModeBanner {...props} />);
  return container;
};

describe("PaymentModeBanner", () => {
  it.each([
    [{ card: "ikhokha", eft: true }, "status", "Card payments: iKhokha (live)"],
    [{ card: "sandbox", eft: true }, "alert", "Card payments: TEST checkout (sandbox) — no real money is taken"],
    [
      { card: "off", eft: true },
      "alert",
      "Card payments: off — set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET, or PAYMENTS_SANDBOX=on for a test shop. EFT still works.",
    ],
    [
      {
        card: "off",
        eft: false,
        providers: [
          { id: "payfast", name: "PayFast" },
          { id: "ozow", name: "Ozow" },
        ],
      },
      "alert",
      "Card payments: off — set IKHOKHA_APP_ID / IKHOKHA_APP_SECRET, or PAYMENTS_SANDBOX=on for a test shop. EFT is off. Also on: PayFast, Ozow.",
    ],
  ] as const)("%j reads as a %s: %s", async (methods, role, words) => {
    const container = await show(methods);
    const banner = await waitFor(() => {
      const found = container.querySelector("[data-testid=payment-mode]");
      if (!found) throw new Error("no banner");
      return found;
    });
    expect(banner.getAttribute("role")).toBe(role);
    expect(banner.textContent?.replace(/\s+/g, " ")).toContain(words);
  });

  it("stays out of the way on the overview while card payments are live", async () => {
    stubApi({
      "/api/payments/methods": { body: { data: { card: "ikhokha", eft: true } } },
      "/api/payment-providers": paymentProvidersAnswer,
    });
    const client = testQueryClient();
    const { container } = await render(
      <QueryClientProvider client={client}>
        <PaymentModeBanner quietWhenLive />
      </QueryClientProvider>,
    );
    // both answers are in (the mode and the providers' words), so the banner has decided
    await waitFor(() =>
      expect(
        client
          .getQueryCache()
          .getAll()
          .map((query) => query.state.status),
      ).toEqual(["success", "success"]),
    );
    expect(container.querySelector("[data-testid=payment-mode]")).toBeNull();
  });
});
