import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PayLinkView } from "@/shared/pay-link-schemas";
import { paymentProvidersAnswer } from "@/web/testing/payment-providers";
import { cleanup, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { PayLinkPage } from "./pay-link-page";

const TOKEN = "A".repeat(71);
const BRANDING = { company_name: "StreamDesk", whatsapp_number: "27821234567", support_email: "help@streamdesk.co.za" };
const VIEW: PayLinkView = {
  business: "StreamDesk",
  firstName: "Naledi",
  packageName: "3 Months",
  price: 1450,
  listPrice: 1650,
  methods: { card: "sandbox", eft: true, providers: [{ id: "payfast", name: "PayFast" }] },
  expiresAt: "2026-12-10T10:00:00.000Z",
  term: { running: false, endsAt: "2026-11-20T10:00:00.000Z", newEnd: "2027-03-01T10:00:00.000Z" },
};
const BANK = {
  bank_name: "FNB",
  account_name: "Test Streams",
  account_number: "62000000001",
  branch_code: "250655",
  account_type: "Cheque",
};

async function renderAt(routes: Parameters<typeof stubFetch>[0]) {
  const posted: unknown[] = [];
  const stub = stubFetch({ "/branding": { body: { data: BRANDING } }, "/payment-providers": paymentProvidersAnswer, ...routes });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "POST") posted.push(JSON.parse(String(init.body)));
    return stub.fetch(input, init);
  });
  const { rendered } = renderRoutes([{ path: "/pay/:token", element: <PayLinkPage /> }], `/pay/${TOKEN}`);
  return { ...(await rendered), calls: stub.calls, posted };
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the pay link page", () => {
  it("says what is paid and to whom, and offers a button per way to pay", async () => {
    await renderAt({ [`/pay-links/${TOKEN}`]: { body: { data: VIEW } } });
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading.textContent).toBe("Pay R1,450 for 3 Months");
    expect(screen.getByText(/Hi Naledi, this is your payment to StreamDesk/)).toBeTruthy();
    expect(screen.getByText("R1,650")).toBeTruthy();
    const buttons = within(screen.getByRole("region", { name: "How would you like to pay?" }))
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(buttons).toEqual(["Pay by card (test checkout)", "Pay with PayFast", "Pay by EFT"]);
    expect(screen.getByText(/No sign-in needed/).textContent).toContain("works until 10 Dec 2026");
  });

  it("for a line still running it says the payment adds time (ends 3 Dec → 3 Mar), not that the line switches on", async () => {
    const running = { ...VIEW, term: { running: true, endsAt: "2026-12-03T10:00:00.000Z", newEnd: "2027-03-03T10:00:00.000Z" } };
    await renderAt({ [`/pay-links/${TOKEN}`]: { body: { data: running } } });
    const said = await screen.findByTestId("pay-link-term");
    expect(said.textContent).toContain("your line keeps running: it ends 3 Dec 2026 → 3 Mar 2027 once your payment is confirmed.");
    expect(said.textContent).not.toContain("switches on");
  });

  it("for a lapsed line it says the line switches on when the payment is confirmed", async () => {
    await renderAt({ [`/pay-links/${TOKEN}`]: { body: { data: VIEW } } });
    const said = await screen.findByTestId("pay-link-term");
    expect(said.textContent).toContain("your line switches on as soon as your payment is confirmed.");
  });

  it("a tap starts the payment and goes to the checkout it answers", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const { posted } = await renderAt({
      [`/pay-links/${TOKEN}`]: { body: { data: VIEW } },
      [`/pay-links/${TOKEN}/pay`]: {
        status: 201,
        body: {
          success: true,
          method: "card",
          paylinkUrl: "http://localhost:8080/api/payments/sandbox/checkout/STRMDSK_1",
          externalTransactionID: "STRMDSK_1",
        },
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay by card (test checkout)" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://localhost:8080/api/payments/sandbox/checkout/STRMDSK_1"));
    expect(posted).toEqual([{ method: "card" }]);
    // while it leaves, no second tap can be sent
    expect(screen.getByRole("button", { name: "Taking you to the payment page..." })).toHaveProperty("disabled", true);
  });

  it("EFT shows the reference and the bank details on the page", async () => {
    const { posted } = await renderAt({
      [`/pay-links/${TOKEN}`]: { body: { data: VIEW } },
      [`/pay-links/${TOKEN}/pay`]: {
        status: 201,
        body: { success: true, method: "eft", reference: "SD-ABC123", amount: 1450, package_name: "3 Months", bank: BANK },
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay by EFT" }));
    expect((await screen.findByTestId("eft-reference")).textContent).toBe("SD-ABC123");
    expect(screen.getByTestId("pay-link-eft").textContent).toContain("62000000001");
    expect(posted).toEqual([{ method: "eft" }]);
  });

  it("shows the server's refusal of a tap in its words, and lets them try again", async () => {
    await renderAt({
      [`/pay-links/${TOKEN}`]: { body: { data: VIEW } },
      [`/pay-links/${TOKEN}/pay`]: { status: 502, body: { error: { code: "payment_provider", message: "Failed to create payment link" } } },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay by card (test checkout)" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to create payment link");
    expect(screen.getByRole("button", { name: "Pay by card (test checkout)" })).toHaveProperty("disabled", false);
  });

  it("an expired link says so in the server's words, with a way to sign in and pay and a person to reach", async () => {
    const message = "This pay link has expired. Sign in to your client portal to pay, or contact us for a new link.";
    await renderAt({ [`/pay-links/${TOKEN}`]: { status: 410, body: { error: { code: "expired", message } } } });
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("Pay link expired");
    expect(screen.getByTestId("pay-link-refusal").textContent).toBe(message);
    expect(screen.getByRole("link", { name: "Sign in to pay" }).getAttribute("href")).toBe("/client?renew=1");
    await waitFor(() =>
      expect(screen.getByRole("link", { name: "WhatsApp us" }).getAttribute("href")).toMatch(/^https:\/\/wa\.me\/27821234567/),
    );
    expect(screen.queryByRole("button", { name: /Pay by/ })).toBeNull();
  });

  it("an altered link is not valid: no payment buttons, no sign-in offered for someone else's link", async () => {
    const message = "This pay link is not valid. Please use the link in your latest message from us, or contact us.";
    await renderAt({ [`/pay-links/${TOKEN}`]: { status: 400, body: { error: { code: "invalid_link", message } } } });
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("We can't open this pay link");
    expect(screen.getByTestId("pay-link-refusal").textContent).toBe(message);
    expect(screen.queryByRole("link", { name: "Sign in to pay" })).toBeNull();
  });
});
