// The renew panel offers only the ways to pay the shop has on: EFT waits for real bank details
// (GET /api/payments/methods says eft:false until then), and a shop with neither says so.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaymentMethods } from "@/shared/api";
import type { ClientProfile } from "@/shared/client-schemas";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import { paymentProvidersAnswer } from "@/web/testing/payment-providers";
import { RenewPanel } from "./renew-panel";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const PROFILE = {
  id: "c1",
  username: "thandi",
  full_name: "Thandi Nkosi",
  status: "active",
  subscription: {
    status: "active",
    package: "Month to Month",
    package_id: "00000000-0000-4000-8000-000000000001",
    start: null,
    end: null,
    days_left: 20,
  },
} as unknown as ClientProfile;

const PLAN = {
  packageId: "00000000-0000-4000-8000-000000000001",
  packageName: "Month to Month",
  period: "Month to Month",
  duration: "1 Month",
  price: 650,
  popular: false,
  hasSpecial: false,
  features: [],
  description: "",
  isCurrent: true,
};

/** The renew requests the panel made, by body. */
const renewals: unknown[] = [];

function renderWith(methods: PaymentMethods) {
  renewals.length = 0;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    if (path.endsWith("/client/renew")) {
      renewals.push(JSON.parse(String(init?.body)));
      const answer = { success: true, method: "payfast", paylinkUrl: "http://x/api/payments/checkout/SD_9", externalTransactionID: "SD_9" };
      return new Response(JSON.stringify(answer), { status: 201, headers: { "content-type": "application/json" } });
    }
    const body = path.endsWith("/payments/methods")
      ? { data: methods }
      : path.endsWith("/payment-providers")
        ? paymentProvidersAnswer.body
        : { data: { specials: [], plans: [PLAN] } };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RenewPanel profile={PROFILE} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("RenewPanel's ways to pay", () => {
  it("leaves EFT out while the shop's bank details are not filled in, and says card only", async () => {
    renderWith({ card: "sandbox", eft: false });
    expect(await screen.findByRole("button", { name: "Pay R650 by card" })).toBeTruthy();
    expect(screen.queryByRole("radio", { name: /EFT/ })).toBeNull();
    expect(screen.getByTestId("card-only-note").textContent).toBe(EFT_CARD_ONLY_MESSAGE);
  });

  it("offers card and EFT side by side when both are on, with no card-only note", async () => {
    renderWith({ card: "ikhokha", eft: true });
    expect(await screen.findByRole("radio", { name: /Card/ })).toBeTruthy();
    expect(screen.getByRole("radio", { name: /EFT/ })).toBeTruthy();
    expect(screen.queryByTestId("card-only-note")).toBeNull();
  });

  it("goes straight to EFT when card payments are off", async () => {
    renderWith({ card: "off", eft: true });
    expect(await screen.findByRole("button", { name: "Get EFT details" })).toBeTruthy();
    expect(screen.queryByRole("radio", { name: /Card/ })).toBeNull();
  });

  it("says to contact the business when neither is on, and cannot be submitted", async () => {
    renderWith({ card: "off", eft: false });
    expect(await screen.findByText(/Paying online isn't available just now/)).toBeTruthy();
    expect((screen.getByRole("button", { name: /Pay|Get EFT/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers the providers the owner turned on by name beside card and EFT, and renews through the one chosen", async () => {
    vi.stubGlobal("location", { ...window.location, assign: vi.fn(), href: "http://localhost/client" });
    renderWith({
      card: "sandbox",
      eft: true,
      providers: [
        { id: "payfast", name: "PayFast" },
        { id: "yoco", name: "Yoco" },
      ],
    });
    expect(await screen.findByRole("button", { name: "Pay R650 by card" })).toBeTruthy();
    const names = screen.getAllByRole("radio").map((r) => r.closest("label")?.querySelector(".font-semibold")?.textContent);
    expect(names).toEqual(["Card", "PayFast", "Yoco", "EFT"]);
    expect((screen.getByRole("radio", { name: /^Card/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: /^PayFast/ }));
    const pay = await screen.findByRole("button", { name: "Pay R650 with PayFast" });
    fireEvent.click(pay);
    await waitFor(() => expect(renewals).toEqual([{ packageId: PLAN.packageId, method: "payfast" }]));
  });

  it("shows each way to pay with its own mark, drawn inline and hidden from screen readers; the radio is named by the name alone", async () => {
    renderWith({
      card: "sandbox",
      eft: true,
      providers: [
        { id: "payfast", name: "PayFast" },
        { id: "ozow", name: "Ozow" },
        { id: "yoco", name: "Yoco" },
      ],
    });
    await screen.findByRole("radio", { name: /^Ozow/ });
    const marks = screen.getAllByRole("radio").map((r) => {
      const mark = r.closest("label")?.querySelector("[data-mark]");
      return { mark: mark?.getAttribute("data-mark"), hidden: mark?.getAttribute("aria-hidden"), tag: mark?.tagName.toLowerCase() };
    });
    expect(marks).toEqual(["card", "payfast", "ozow", "yoco", "eft"].map((mark) => ({ mark, hidden: "true", tag: "svg" })));
    // our own drawing: no image file, nothing fetched
    expect(document.querySelector("#renew img")).toBeNull();
    for (const name of ["PayFast", "Ozow", "Yoco"]) {
      expect(screen.getByRole("radio", { name: new RegExp(`^${name} `) })).toBeTruthy();
    }
  });
});
