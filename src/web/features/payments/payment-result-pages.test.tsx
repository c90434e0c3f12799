import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaymentOutcome, PaymentStatusView } from "@/shared/api";
import { EFT_CARD_ONLY_MESSAGE, SUPPORT_HOURS } from "@/shared/constants";
import { cleanup, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { MESSAGES_POLL_MS, paymentStatusQueryOptions } from "./api/get-payment-status";
import { linePromise, messageText, PaymentCancelPage, PaymentFailurePage, PaymentSuccessPage } from "./payment-result-pages";

const NOTHING_YET: PaymentOutcome = { account: "none", subscription_end: null, suspended: false, sent_to: [], messages: [] };

function payment(status: PaymentStatusView["status"], outcome: Partial<PaymentOutcome> = {}): PaymentStatusView {
  return {
    external_transaction_id: "SD_1763800000_abc123",
    status,
    amount: 1450,
    currency: "ZAR",
    package_name: "3 Months",
    provider: "sandbox",
    created_at: "2026-11-22T10:00:00.000Z",
    paid_at: status === "paid" ? "2026-11-22T10:01:00.000Z" : null,
    outcome: { ...NOTHING_YET, ...outcome },
  };
}

const BRANDING = { company_name: "StreamDesk", whatsapp_number: "27821234567", support_email: "help@streamdesk.co.za" };

async function renderAt(path: string, routes: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch({ "/branding": { body: { data: BRANDING } }, ...routes });
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
    const tryAgain = [...container.querySelectorAll("a")].find((a) => a.textContent === "Try again by card");
    expect(tryAgain?.getAttribute("href")).toBe("/pricing#pricing-packages");
    // the WhatsApp link appears once the business's number has loaded
    await waitFor(() => {
      const chat = [...container.querySelectorAll("a")].find((a) => a.textContent?.includes("WhatsApp us"));
      expect(chat?.getAttribute("href")).toMatch(/^https:\/\/wa\.me\/27821234567\?text=/);
    });
  });

  const EFT = {
    success: true,
    reference: "SD-7Q2KXM",
    amount: 1450,
    package_name: "3 Months",
    bank: {
      bank_name: "FNB",
      account_name: "StreamDesk (Pty) Ltd",
      account_number: "62000000000",
      branch_code: "250655",
      account_type: "",
    },
  };
  const buttonNamed = (container: HTMLElement, name: string) =>
    [...container.querySelectorAll("button")].find((b) => b.textContent?.trim() === name) ?? null;

  it("a failed card with EFT on: card again and EFT side by side; EFT shows the bank details and reference right there", async () => {
    const page = await renderAt("/payment/failure?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("failed") } },
      "/payments/methods": { body: { data: { card: "ikhokha", eft: true } } },
      "/payments/SD_1763800000_abc123/eft": { status: 201, body: EFT },
    });
    const eft = await waitFor(() => {
      const found = buttonNamed(page.container, "Pay by EFT instead");
      if (!found) throw new Error("no EFT button yet");
      return found;
    });
    const actions = eft.parentElement as HTMLElement;
    expect([...actions.querySelectorAll("a")].some((a) => a.textContent === "Try again by card")).toBe(true);
    expect(page.container.textContent).toContain("we show you our bank details and your reference right here");
    expect(page.container.textContent).not.toContain("message us and we'll send our bank details");
    eft.click();
    await waitFor(() => expect(page.container.querySelector('[data-testid="eft-reference"]')?.textContent).toBe("SD-7Q2KXM"));
    expect(page.calls).toContain("/payments/SD_1763800000_abc123/eft");
    const details = page.container.querySelector('[data-testid="eft-details"]') as HTMLElement;
    expect(details.textContent).toContain("62000000000");
    expect(details.textContent).not.toContain("Account type");
  });

  it("a failed card with EFT off: no EFT offered or promised, and the page says card only", async () => {
    const page = await renderAt("/payment/failure?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("failed") } },
      "/payments/methods": { body: { data: { card: "ikhokha", eft: false } } },
    });
    await waitFor(() => expect(page.container.textContent).toContain(EFT_CARD_ONLY_MESSAGE));
    expect(buttonNamed(page.container, "Pay by EFT instead")).toBeNull();
    expect(page.container.textContent).not.toContain("bank details");
    await waitFor(() => expect(page.container.querySelector('a[href^="https://wa.me/"]')).not.toBeNull());
    const chat = page.container.querySelector('a[href^="https://wa.me/"]') as HTMLAnchorElement;
    expect(decodeURIComponent(chat.href)).not.toContain("EFT");
  });

  it("a cancelled card with EFT on offers EFT beside it too", async () => {
    const page = await renderAt("/payment/cancel?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("cancelled") } },
      "/payments/methods": { body: { data: { card: "sandbox", eft: true } } },
    });
    await waitFor(() => expect(buttonNamed(page.container, "Pay by EFT instead")).not.toBeNull());
    expect(page.container.querySelector("h2")?.textContent).toBe("Changed your mind?");
  });

  /** The success page for a paid payment with this outcome, once it has loaded. */
  async function paidPage(outcome: Partial<PaymentOutcome>) {
    const page = await renderAt("/payment/success?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": { body: { data: payment("paid", outcome) } },
    });
    await waitFor(() => expect(page.container.querySelector("[data-payment-status]")?.getAttribute("data-payment-status")).toBe("paid"));
    await waitFor(() => expect(page.container.querySelector('a[href^="https://wa.me/"]')).not.toBeNull());
    return { ...page, h1: () => page.container.querySelector("h1")?.textContent, text: () => page.container.textContent ?? "" };
  }

  const NEVER_PROMISED = ["streaming login", "renewed", "login to", "receipt"];

  it("paid, account created: the account is ready, where its login really is, the term's end and the line to come", async () => {
    const page = await paidPage({
      account: "created",
      subscription_end: "2027-02-22T10:01:00.000Z",
      sent_to: [
        { channel: "whatsapp", hint: "ending 4567" },
        { channel: "email", hint: "j***@gmail.com" },
      ],
      messages: [
        { kind: "receipt", channel: "email", state: "sent" },
        { kind: "welcome", channel: "whatsapp", state: "read" },
        { kind: "welcome", channel: "email", state: "sent" },
      ],
    });
    expect(page.h1()).toBe("Your account is ready");
    expect(page.text()).toContain("Paid");
    expect(page.text()).toContain("22 Nov 2026, 12:01 SAST");
    expect(page.text()).toContain("Your client portal login was delivered to your WhatsApp ending 4567 and read.");
    expect(page.text()).toContain("Your client portal login was sent to your e-mail j***@gmail.com.");
    expect(page.text()).toContain("Your receipt was sent to your e-mail j***@gmail.com.");
    expect(page.text()).toContain("Your subscription runs until 22 Feb 2027.");
    // the shop's login channel is unknown here (no methods answer): with an address, by e-mail
    expect(page.text()).toContain("We'll send your streaming login details to your e-mail j***@gmail.com as soon as your line is set up.");
    expect(page.text()).not.toContain("renewed");
    expect(page.container.querySelector('a[href="/client/login"]')).not.toBeNull();
  });

  it("paid, account created, nothing sent yet: no claim that the login was sent", async () => {
    const page = await paidPage({ account: "created", subscription_end: "2027-02-22T10:01:00.000Z", sent_to: [] });
    expect(page.h1()).toBe("Your account is ready");
    expect(page.text()).not.toContain("We've sent");
    expect(page.text()).toContain("If its login doesn't reach you, please contact us.");
  });

  it("paid, renewed: the new end date, and where the receipt went when it went somewhere", async () => {
    const page = await paidPage({
      account: "renewed",
      subscription_end: "2027-05-22T10:01:00.000Z",
      sent_to: [{ channel: "whatsapp", hint: "ending 4567" }],
      messages: [{ kind: "receipt", channel: "whatsapp", state: "delivered" }],
    });
    expect(page.h1()).toBe("Subscription renewed");
    expect(page.text()).toContain("Your subscription has been renewed until 22 May 2027.");
    expect(page.text()).toContain("Your receipt was delivered to your WhatsApp ending 4567.");
    expect(page.text()).not.toContain("streaming login");
    expect(page.text()).not.toContain("account is ready");
    await cleanup();

    const quiet = await paidPage({ account: "renewed", subscription_end: "2027-05-22T10:01:00.000Z", sent_to: [] });
    expect(quiet.text()).toContain("Your subscription has been renewed until 22 May 2027.");
    expect(quiet.text()).not.toContain("receipt");
  });

  it.each([
    ["queued", "whatsapp", "Your client portal login is queued to your WhatsApp ending 4567."],
    ["owner", "whatsapp", "Your client portal login is waiting to be sent on WhatsApp by StreamDesk."],
    ["queued", "email", "Your client portal login is queued to your e-mail j***@gmail.com."],
    ["sent", "email", "Your client portal login was sent to your e-mail j***@gmail.com."],
    ["failed", "email", "Your client portal login could not be sent to your e-mail j***@gmail.com. Please contact us"],
  ] as const)("the portal login %s on %s: says exactly that", async (state, channel, words) => {
    const page = await paidPage({
      account: "created",
      subscription_end: "2027-02-22T10:01:00.000Z",
      sent_to: [
        { channel: "whatsapp", hint: "ending 4567" },
        { channel: "email", hint: "j***@gmail.com" },
      ],
      messages: [{ kind: "welcome", channel, state }],
    });
    await waitFor(() => expect(page.text()).toContain(words));
    if (state !== "sent") expect(page.text()).not.toMatch(/\b(was sent|were sent|delivered)\b/);
    expect(page.text()).not.toContain("We've sent");
  });

  it("line login details: waiting for the owner on WhatsApp, and the promise only while there is none", async () => {
    const page = await paidPage({
      account: "created",
      sent_to: [{ channel: "whatsapp", hint: "ending 4567" }],
      messages: [
        { kind: "welcome", channel: "whatsapp", state: "owner" },
        { kind: "credentials", channel: "whatsapp", state: "owner" },
      ],
    });
    await waitFor(() => expect(page.text()).toContain("Your streaming login details are waiting to be sent on WhatsApp by StreamDesk."));
    expect(page.text()).not.toContain("as soon as your line is set up");
  });

  it("asks again every 5 s while a message waits for the owner, and says when it has gone", { timeout: 15_000 }, async () => {
    let answers = 0;
    const waiting = payment("paid", {
      account: "renewed",
      subscription_end: "2027-05-22T10:01:00.000Z",
      sent_to: [{ channel: "whatsapp", hint: "ending 4567" }],
      messages: [{ kind: "receipt", channel: "whatsapp", state: "owner" }],
    });
    const gone = { ...waiting, outcome: { ...waiting.outcome, messages: [{ kind: "receipt", channel: "whatsapp", state: "sent" }] } };
    const { container } = await renderAt("/payment/success?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": () => {
        answers += 1;
        return { body: { data: answers < 2 ? waiting : gone } };
      },
    });
    await waitFor(() => expect(container.textContent).toContain("Your receipt is waiting to be sent on WhatsApp by StreamDesk."));
    await waitFor(() => expect(container.textContent).toContain("Your receipt was sent to your WhatsApp ending 4567."), 8000);
    expect(answers).toBe(2);
    // nothing waits now: no more questions (the status query's interval is off for this answer)
    const interval = paymentStatusQueryOptions("SD_1763800000_abc123", Date.now() + 60_000).refetchInterval;
    expect(typeof interval === "function" && interval({ state: { data: gone } } as never)).toBe(false);
    expect(typeof interval === "function" && interval({ state: { data: waiting } } as never)).toBe(MESSAGES_POLL_MS);
    expect(answers).toBe(2);
  });

  it("paid, suspended: payment received, contact us to switch it back on, with the business's WhatsApp and e-mail", async () => {
    const page = await paidPage({ account: "renewed", subscription_end: "2027-05-22T10:01:00.000Z", suspended: true });
    expect(page.text()).toContain("Payment received. Your account is suspended, so please contact us to switch it back on.");
    expect(page.text()).not.toContain("has been renewed");
    expect(page.text()).not.toContain("streaming login");
    expect(page.container.querySelector('a[href^="https://wa.me/27821234567"]')).not.toBeNull();
    expect(page.container.querySelector('a[href="mailto:help@streamdesk.co.za"]')?.textContent).toContain("help@streamdesk.co.za");
  });

  it("paid, nothing to credit: payment received and we'll be in touch; nothing else promised", async () => {
    const page = await paidPage({});
    expect(page.h1()).toBe("Thank you for your payment");
    expect(page.text()).toContain("Payment received. The business will contact you to set up your account.");
    for (const words of NEVER_PROMISED) expect(page.text()).not.toContain(words);
  });

  describe("a partner's credit order (issue 45): credits for their balance, never an account", () => {
    const creditOrder = (status: PaymentStatusView["status"], order: NonNullable<PaymentStatusView["credit_order"]>) => ({
      ...payment(status),
      package_name: "10 credits (partner)",
      credit_order: order,
    });
    async function orderPage(path: string, data: PaymentStatusView) {
      const page = await renderAt(path, {
        "/payments/SD_1763800000_abc123": { body: { data } },
        "/payments/methods": { body: { data: { card: "sandbox", eft: true } } },
      });
      await waitFor(() => expect(page.container.querySelector('a[href^="https://wa.me/"]')).not.toBeNull());
      return { ...page, text: () => page.container.textContent ?? "" };
    }
    const NOT_FOR_A_PARTNER = ["We'll be in touch", "set up your account", "subscription", "streaming login", "/pricing"];

    it("paid and moved: the credits are on their balance, the balance after, and the way back to the partner portal", async () => {
      const page = await orderPage(
        "/payment/success?ref=SD_1763800000_abc123",
        creditOrder("paid", { credits: 10, status: "delivered", balance: 14 }),
      );
      expect(page.container.querySelector("h1")?.textContent).toBe("Payment received");
      expect(page.text()).toContain("Bought10 credits");
      expect(page.text()).toContain("Payment received. 10 credits are on your balance. You now have 14 credits.");
      expect(page.container.querySelector('a[href="/partner"]')?.textContent).toBe("Go to your partner portal");
      for (const words of NOT_FOR_A_PARTNER) expect(page.container.innerHTML).not.toContain(words);
    });

    it("paid, still moving: on their way to the balance, no balance claimed", async () => {
      const page = await orderPage(
        "/payment/success?ref=SD_1763800000_abc123",
        creditOrder("paid", { credits: 1, status: "paid", balance: null }),
      );
      expect(page.text()).toContain("Payment received. 1 credit is on its way to your balance; we e-mail you when it is in.");
      expect(page.text()).not.toContain("You now have");
      expect(page.container.querySelector('a[href="/partner"]')).not.toBeNull();
    });

    it("paid, but the owner's panel refused the move: not on the balance yet, the business told, don't pay again", async () => {
      const page = await orderPage(
        "/payment/success?ref=SD_1763800000_abc123",
        creditOrder("paid", { credits: 20, status: "refused", balance: null }),
      );
      expect(page.text()).toContain(
        "Payment received. 20 credits are not on your balance yet: the business has been told and will move them to you. You don't need to pay again.",
      );
    });

    it("failed: no credits bought, bought again from the partner portal; no package or EFT-instead offered", async () => {
      const page = await orderPage(
        "/payment/failure?ref=SD_1763800000_abc123",
        creditOrder("failed", { credits: 10, status: "pending", balance: null }),
      );
      expect(page.container.querySelector("h1")?.textContent).toBe("Payment failed");
      expect(page.text()).toContain("The payment didn't go through, so no credits were bought.");
      expect(page.container.querySelector('a[href="/partner"]')).not.toBeNull();
      expect(buttonNamed(page.container, "Pay by EFT instead")).toBeNull();
      for (const words of NOT_FOR_A_PARTNER) expect(page.container.innerHTML).not.toContain(words);
    });
  });

  it("asks again while the payment is pending, and shows the change", async () => {
    let answers = 0;
    const { container } = await renderAt("/payment/cancel?ref=SD_1763800000_abc123", {
      "/payments/SD_1763800000_abc123": () => {
        answers += 1;
        return { body: { data: payment(answers < 2 ? "pending" : "cancelled") } };
      },
    });
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Confirming your payment…"));
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Payment cancelled"), 5000);
    expect(answers).toBe(2);
  });

  describe("a change of the card automatic renewals charge (issue 44): nothing charged, no term, the card only", () => {
    const cardChange = (status: PaymentStatusView["status"], change: NonNullable<PaymentStatusView["card_change"]>) => ({
      ...payment(status),
      amount: 0,
      package_name: "New card for automatic renewals (no charge)",
      card_change: change,
    });
    async function changePage(path: string, data: PaymentStatusView) {
      const page = await renderAt(path, {
        "/payments/SD_1763800000_abc123": { body: { data } },
        "/payments/methods": { body: { data: { card: "sandbox", eft: true } } },
      });
      await waitFor(() => expect(page.container.querySelector('a[href="/client"]')).not.toBeNull());
      return { ...page, text: () => page.container.textContent ?? "" };
    }
    const NOT_FOR_A_CARD_CHANGE = ["set up your account", "renewed", "streaming login", "/pricing", "Pay by EFT"];

    it("saved: the new card is kept, nothing charged, the way back to the account", async () => {
      const page = await changePage("/payment/success?ref=SD_1763800000_abc123", cardChange("paid", { status: "done" }));
      expect(page.container.querySelector("h1")?.textContent).toBe("Your new card is saved");
      expect(page.text()).toContain(
        "Nothing was charged. Your next automatic renewal goes on this card; the previous one is no longer used.",
      );
      expect(page.container.querySelector('a[href="/client"]')?.textContent).toBe("Go to your account");
      for (const words of NOT_FOR_A_CARD_CHANGE) expect(page.container.innerHTML).not.toContain(words);
    });

    it("cancelled at the provider: nothing changed, the card they had still renews", async () => {
      const page = await changePage("/payment/cancel?ref=SD_1763800000_abc123", cardChange("cancelled", { status: "pending" }));
      expect(page.container.querySelector("h1")?.textContent).toBe("Your card was not changed");
      expect(page.text()).toContain("Nothing was charged, and your automatic renewals still use the card you had.");
      for (const words of NOT_FOR_A_CARD_CHANGE) expect(page.container.innerHTML).not.toContain(words);
    });
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

describe("the login promised on the channel it will go by (issue 41 item 7)", () => {
  const both = [
    { channel: "whatsapp", hint: "ending 4567" },
    { channel: "email", hint: "j***@gmail.com" },
  ] as const;
  it.each([
    ["whatsapp", both, "We'll send your streaming login details to your WhatsApp ending 4567 as soon as your line is set up."],
    ["email", both, "We'll send your streaming login details to your e-mail j***@gmail.com as soon as your line is set up."],
    [
      "email",
      [both[0]],
      `We'll send your streaming login details on WhatsApp as soon as your line is set up. We send these on WhatsApp during our support hours (${SUPPORT_HOURS}).`,
    ],
  ] as const)("shop channel %s, sent to %j: %s", (shop, sentTo, words) => {
    expect(linePromise(sentTo, shop)).toBe(words);
  });

  it("a WhatsApp message waiting for the owner says when it will go: the support hours", () => {
    expect(messageText({ kind: "credentials", channel: "whatsapp", state: "owner" }, both, "StreamDesk")).toBe(
      `Your streaming login details are waiting to be sent on WhatsApp by StreamDesk. We send these on WhatsApp during our support hours (${SUPPORT_HOURS}).`,
    );
  });
});
