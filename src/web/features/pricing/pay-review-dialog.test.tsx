import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PaymentMethods } from "@/shared/api";
import { EFT_CARD_ONLY_MESSAGE, SUPPORT_HOURS } from "@/shared/constants";
import { MAC_MESSAGE } from "@/shared/device-lines";
import type { PlanViewModel } from "@/shared/pricing";
import { IMMEDIATE_START_CONSENT_MESSAGE, identifyMessage } from "@/shared/schemas";
import { SEND_CODE_ON_WHATSAPP } from "@/web/components/send-code-on-whatsapp";
import { paymentProvidersAnswer } from "@/web/testing/payment-providers";
import { cleanup, click, renderRoutes, stubFetch, typeInto, waitFor } from "@/web/testing/render";
import { PayReviewDialog } from "./pay-review-dialog";
import { PAY_REVIEW_MESSAGES } from "./pay-review-model";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

const PLAN: PlanViewModel & { packageId: string } = {
  period: "3 Months",
  duration: "3 Months",
  price: 1450,
  originalPrice: 1650,
  note: "Save R200",
  popular: true,
  hasSpecial: true,
  features: [],
  description: "",
  packageName: "3 Months",
  packageId: "00000000-0000-4000-8000-000000000002",
};

const PAYLINK = { success: true, paylinkUrl: "http://x/api/payments/sandbox/checkout/SD_1", externalTransactionID: "SD_1" };
const EFT = {
  success: true,
  reference: "SD-3M-7Q2K",
  amount: 1450,
  package_name: "3 Months",
  bank: {
    bank_name: "FNB",
    account_name: "StreamDesk (Pty) Ltd",
    account_number: "62000000000",
    branch_code: "250655",
    account_type: "Cheque",
  },
};

type Answer = { status?: number; body: unknown };

/** identify's answer on a shop whose WhatsApp codes go out: it names the number typed, whoever it belongs to. */
const IDENTIFIED = { message: identifyMessage(["WhatsApp ending 4567"], false), sentTo: "WhatsApp ending 4567" };

/** The identify requests of the last stubApi, in order. */
const identified: { path: string; body: unknown }[] = [];

/** The API as the review step sees it, recording every POST's path and JSON body. */
function stubApi(card: PaymentMethods["card"], routes: Record<string, Answer | (() => Answer)> = {}, eft = card === "off") {
  const stub = stubFetch({
    "/payments/methods": { body: { data: { card, eft } } },
    "/payment-providers": paymentProvidersAnswer,
    // the answer anyone gets, whoever the number belongs to
    "/payments/identify": { body: IDENTIFIED },
    ...routes,
  });
  const posts: { path: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    // identify is recorded apart (identified), so `posts` are the payment requests themselves
    if (init?.method === "POST") (path.endsWith("/identify") ? identified : posts).push({ path, body: JSON.parse(String(init.body)) });
    return stub.fetch(input, init);
  });
  return posts;
}

/** A stand-in for the tab window.open gives back. */
function fakeTab() {
  const tab = {
    closed: false,
    opener: {},
    location: { href: "" },
    document: { title: "", body: { style: {}, textContent: "" } },
    close: vi.fn(),
  };
  tab.close.mockImplementation(() => {
    tab.closed = true;
  });
  return tab;
}

function openTabs() {
  const tabs: ReturnType<typeof fakeTab>[] = [];
  vi.spyOn(window, "open").mockImplementation(() => {
    const tab = fakeTab();
    tabs.push(tab);
    return tab as unknown as Window;
  });
  return tabs;
}

async function renderReview(props: { onBack?: () => void } = {}) {
  const onClose = vi.fn();
  const onOrder = vi.fn();
  const { rendered } = renderRoutes([
    { path: "/", element: <PayReviewDialog plan={PLAN} onClose={onClose} onOrder={onOrder} {...props} /> },
  ]);
  await rendered;
  const dialog = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!found?.querySelector("h2")) throw new Error("no dialog yet");
    return found;
  });
  const input = (name: string) => dialog.querySelector<HTMLInputElement>(`#payer-${name}`);
  const button = (name: string) => {
    const found = [...dialog.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
    if (!found) throw new Error(`no button "${name}"`);
    return found;
  };
  /** The message tied to the field with aria-describedby, if any. */
  const errorOf = (name: string) => {
    const ids = input(name)?.getAttribute("aria-describedby")?.split(" ") ?? [];
    const errorId = ids.find((id) => id.endsWith("-error"));
    return errorId ? (document.getElementById(errorId)?.textContent ?? null) : null;
  };
  const fill = async ({ name = "Thandi Mokoena", whatsapp = "082 123 4567", email = "", consent = true } = {}) => {
    await typeInto(input("name"), name);
    await typeInto(input("whatsapp"), whatsapp);
    await typeInto(input("email"), email);
    if (consent && !input("immediateStartConsent")?.checked) await click(input("immediateStartConsent"));
  };
  return { dialog, input, button, errorOf, fill, onClose, onOrder };
}

/**
 * The review step with the sandbox card, its payer filled in and "Already a customer?" pressed,
 * identify and the pay link answering as given; the payment POSTs and the tabs opened are recorded.
 */
async function askedForCode(identify: Answer | (() => Answer), paylink: Answer | (() => Answer)) {
  const posts = stubApi("sandbox", { "/payments/identify": identify, "/payments/paylink": paylink });
  const tabs = openTabs();
  const review = await renderReview();
  await waitFor(() => expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).not.toBeNull());
  await review.fill();
  await click(review.button(PAY_REVIEW_MESSAGES.returning));
  return { posts, tabs, review };
}

beforeEach(() => {
  identified.length = 0;
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("PayReviewDialog: the review step", () => {
  it("shows the package, the price to pay with the original struck through, and what happens next; focus starts at Full Name", async () => {
    stubApi("ikhokha");
    const review = await renderReview();
    expect(review.dialog.querySelector("h2")?.textContent).toBe("Review your order");
    const summary = review.dialog.querySelector('[data-testid="pay-review-plan"]');
    expect(summary?.querySelector('[data-testid="pay-review-price"]')?.textContent).toBe("R1,450");
    expect(summary?.querySelector("s")?.textContent).toBe("R1,650");
    expect(summary?.textContent).toContain("Save R200");
    const steps = [...review.dialog.querySelectorAll("ol li")].map((li) => li.textContent);
    expect(steps).toEqual([
      "1You pay by card on the secure payment page.",
      "2We confirm the payment.",
      // (no WhatsApp Cloud API and no e-mail typed yet: the owner sends it, in support hours)
      `3Your account is created and your client portal login is sent to your WhatsApp during our support hours (${SUPPORT_HOURS}).`,
      "4We set up your line and send your streaming login details.",
    ]);
    expect(document.activeElement?.id).toBe("payer-name");
    expect(review.input("whatsapp")?.placeholder).toBe("+27 XX XXX XXXX");
    expect(review.input("immediateStartConsent")?.checked).toBe(false);
    // POPIA at the point of collection, with the policy one tap away.
    expect(review.dialog.textContent).toContain("to create your account and send you your login details and receipts");
    expect(review.dialog.querySelector('a[href="/privacy-policy"]')).not.toBeNull();
    await waitFor(() => expect(review.button("Continue to payment").disabled).toBe(false));
    expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).toBeNull();
  });

  it("a MAG box: its MAC is asked for and checked (a warning outside 00:1A:79, not a refusal), then sent with the payment", async () => {
    const posts = stubApi("sandbox", { "/payments/paylink": { status: 201, body: PAYLINK } });
    const tabs = openTabs();
    const review = await renderReview();
    await review.fill();
    expect(review.input("mac")).toBeNull();
    await click(review.input("lineType-mag"));
    const steps = [...review.dialog.querySelectorAll("ol li")].map((li) => li.textContent);
    expect(steps.at(-1)).toBe("4We set up your line for your box's MAC address and send you how to connect the box.");

    await waitFor(() => expect(review.button("Continue to payment").disabled).toBe(false));
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(review.errorOf("mac")).toBe(MAC_MESSAGE));
    expect(posts).toEqual([]);
    expect(tabs).toEqual([]);

    await typeInto(review.input("mac"), "12:34:56:78:9a:bc");
    await waitFor(() => expect(review.errorOf("mac")).toBeNull());
    expect(review.dialog.querySelector('[data-testid="mac-warning"]')?.textContent).toContain("start with 00:1A:79");
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ packageId: PLAN.packageId, lineType: "mag", mac: "12:34:56:78:9A:BC" });
  });

  it("requires a name and WhatsApp number, and does not go on without the consent", async () => {
    const posts = stubApi("ikhokha");
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.button("Continue to payment").disabled).toBe(false));

    await click(review.button("Continue to payment"));
    await waitFor(() => expect(review.errorOf("name")).toBe("Please enter your full name"));
    expect(review.errorOf("whatsapp")).toBe("Please enter a valid WhatsApp number");
    expect(review.errorOf("immediateStartConsent")).toBe(IMMEDIATE_START_CONSENT_MESSAGE);
    expect(review.errorOf("email")).toBeNull();
    expect(review.input("name")?.getAttribute("aria-invalid")).toBe("true");
    // The WhatsApp field keeps its hint, after the error.
    expect(review.input("whatsapp")?.getAttribute("aria-describedby")).toBe("payer-whatsapp-error payer-whatsapp-hint");

    await review.fill({ consent: false });
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(review.errorOf("name")).toBeNull());
    expect(review.errorOf("whatsapp")).toBeNull();
    expect(review.errorOf("immediateStartConsent")).toBe(IMMEDIATE_START_CONSENT_MESSAGE);
    expect(posts).toEqual([]);
    expect(tabs).toEqual([]);
  });

  it("sends the package and the payer, opens the pay link in the tab opened at the click, and says so", async () => {
    const posts = stubApi("sandbox", { "/payments/paylink": { status: 201, body: PAYLINK } });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() =>
      expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')?.textContent).toBe("Test checkout: no real money is taken."),
    );
    await review.fill({ name: "  Thandi Mokoena ", email: "thandi@example.co.za" });
    await click(review.button("Continue to payment"));
    // Opened inside the click, before the server answered: popup blockers let it through.
    expect(tabs).toHaveLength(1);
    await waitFor(() => expect(tabs[0].location.href).toBe(PAYLINK.paylinkUrl));
    expect(tabs[0].opener).toBeNull();
    expect(posts).toEqual([
      {
        path: "/api/payments/paylink",
        body: {
          packageId: PLAN.packageId,
          name: "Thandi Mokoena",
          whatsapp: "082 123 4567",
          email: "thandi@example.co.za",
          immediateStartConsent: true,
        },
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith("Payment Link Created", { description: "You've been redirected to complete your payment." });
    expect(review.onClose).toHaveBeenCalled();
  });

  it("a new customer goes straight to payment: nobody is asked whose number it is, and the tab opened at the click is the pay link's", async () => {
    const posts = stubApi("sandbox", { "/payments/paylink": { status: 201, body: PAYLINK } });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).not.toBeNull());
    await review.fill();
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(identified).toEqual([]);
    expect(tabs).toHaveLength(1);
    await waitFor(() => expect(tabs[0].location.href).toBe(PAYLINK.paylinkUrl));
    // no blank tab: the one opened at the click is used, never closed
    expect(tabs[0].close).not.toHaveBeenCalled();
  });

  it("a returning customer asks for a code: the answer anyone gets, the code field, and the code sent with the payment", async () => {
    const { posts, tabs, review } = await askedForCode({ body: IDENTIFIED }, { status: 201, body: PAYLINK });
    await waitFor(() => expect(review.dialog.querySelector("#payer-identity-title")?.textContent).toBe("Pay on your account"));
    expect(review.dialog.textContent).toContain(IDENTIFIED.message);
    expect(identified).toEqual([{ path: "/api/payments/identify", body: { whatsapp: "082 123 4567", email: "" } }]);
    // asking opens no tab and pays nothing
    expect(tabs).toEqual([]);
    expect(posts).toEqual([]);
    // Without a code the button says so on the code field, and the tab it opened is closed again.
    await click(review.button("Sign in and pay"));
    await waitFor(() => expect(review.errorOf("verificationCode")).toBe("Enter the 6-digit code we sent"));
    expect(posts).toEqual([]);
    await typeInto(review.input("verificationCode"), "123 456");
    await click(review.button("Sign in and pay"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ whatsapp: "082 123 4567", verificationCode: "123456" });
    expect(identified).toHaveLength(1);
  });

  it("asking for a code needs the number first: said at its field, and nothing is asked", async () => {
    stubApi("sandbox");
    const review = await renderReview();
    await waitFor(() => expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).not.toBeNull());
    await click(review.button(PAY_REVIEW_MESSAGES.returning));
    await waitFor(() => expect(review.errorOf("whatsapp")).toBeTruthy());
    expect(identified).toEqual([]);
    expect(review.dialog.querySelector("#payer-identity-title")).toBeNull();
  });

  it("an answer that names nowhere is brought into view (asking for the e-mail address); the code field stays, and Pay with it empty goes on as a new customer", async () => {
    const nowhere = { message: identifyMessage([], true), sentTo: "" };
    const { posts, review } = await askedForCode({ body: nowhere }, { status: 201, body: PAYLINK });
    await waitFor(() => expect(review.dialog.textContent).toContain(nowhere.message));
    expect(review.input("verificationCode")).not.toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe("payer-identity-title"));
    expect(review.dialog.textContent).not.toContain("Sign in and pay");
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).not.toHaveProperty("verificationCode");
  });

  it("too many code requests are said at the number, never 'Payment Error'; paying goes on as a new customer", async () => {
    const limit = "Too many requests. Please wait a minute and try again.";
    const { posts, review } = await askedForCode(
      { status: 429, body: { error: { code: "rate_limited", message: limit } } },
      { status: 201, body: PAYLINK },
    );
    await waitFor(() => expect(review.errorOf("whatsapp")).toBe(limit));
    expect(toast.error).not.toHaveBeenCalledWith("Payment Error", expect.anything());
    expect(posts).toEqual([]);
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).not.toHaveProperty("verificationCode");
  });

  it("offers 'Send the code on WhatsApp' when the shop reads WhatsApp messages, and with nothing typed pays with that link's code (refused in the server's words until the message arrives)", async () => {
    const waLink = "https://wa.me/27821234567?text=My%20StreamDesk%20code%3A%20482913";
    const refused = "That code did not work. Check it and try again, or ask for a new code.";
    let tries = 0;
    const { posts, review } = await askedForCode({ body: { ...IDENTIFIED, waLink } }, () => {
      tries += 1;
      return tries === 1
        ? { status: 400, body: { error: { code: "validation", message: refused, fields: { verificationCode: refused } } } }
        : { status: 201, body: PAYLINK };
    });
    const link = await waitFor(() => {
      const found = [...review.dialog.querySelectorAll("a")].find((a) => a.textContent === SEND_CODE_ON_WHATSAPP);
      if (!found) throw new Error("no WhatsApp button");
      return found;
    });
    expect(link.getAttribute("href")).toBe(waLink);
    expect(posts).toEqual([]);
    await click(review.button("Sign in and pay"));
    await waitFor(() => expect(review.errorOf("verificationCode")).toBe(refused));
    await click(review.button("Sign in and pay"));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts.map((p) => (p.body as { verificationCode?: string }).verificationCode)).toEqual(["482913", "482913"]);
    expect(identified).toHaveLength(1);
  });

  it.each([
    ["whatsapp", "", "Your login details are sent here.", "For your receipts.", "sent to your WhatsApp (and e-mail if given)."],
    [
      "email",
      "thandi@example.co.za",
      "We reach you here about your order.",
      "Your login details are sent here.",
      "sent to your e-mail address.",
    ],
    [
      "email",
      "",
      `Your login details are sent here during our support hours (${SUPPORT_HOURS}).`,
      "With an address",
      `sent to your WhatsApp during our support hours (${SUPPORT_HOURS}).`,
    ],
  ] as const)(
    "promises the login on the channel it goes by, in the hints and the next steps (shop %s, e-mail %j)",
    async (loginChannel, email, whatsappHint, emailHint, step) => {
      stubApi("sandbox", { "/payments/methods": { body: { data: { card: "sandbox", eft: false, loginChannel } } } });
      const review = await renderReview();
      await waitFor(() => expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).not.toBeNull());
      await review.fill({ email });
      await waitFor(() => expect(document.getElementById("payer-whatsapp-hint")?.textContent).toBe(whatsappHint));
      expect(document.getElementById("payer-email-hint")?.textContent).toContain(emailHint);
      expect(review.dialog.textContent).toContain(`Your account is created and your client portal login is ${step}`);
    },
  );

  it("lets the payer continue as a new customer without the code, and shows a refused code on its field", async () => {
    const posts = stubApi("ikhokha", {
      "/payments/identify": { body: IDENTIFIED },
      "/payments/paylink": {
        status: 400,
        body: {
          error: {
            code: "validation",
            message: "x",
            fields: { verificationCode: "That code did not work. Check it and try again, or ask for a new code." },
          },
        },
      },
    });
    openTabs();
    const review = await renderReview();
    await review.fill({ email: "thandi@example.co.za" });
    await click(review.button(PAY_REVIEW_MESSAGES.returning));
    await waitFor(() => expect(review.input("verificationCode")).not.toBeNull());
    await typeInto(review.input("verificationCode"), "654321");
    await click(review.button("Sign in and pay"));
    await waitFor(() =>
      expect(review.errorOf("verificationCode")).toBe("That code did not work. Check it and try again, or ask for a new code."),
    );
    await click(review.button("Continue as a new customer"));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1].body).not.toHaveProperty("verificationCode");
  });

  it("puts the server's field messages beside the fields, keeping what was typed", async () => {
    stubApi("ikhokha", {
      "/payments/paylink": {
        status: 400,
        body: {
          error: {
            code: "validation",
            message: "Please check the form.",
            fields: { whatsapp: "That is not a WhatsApp number we can reach" },
          },
        },
      },
    });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.button("Continue to payment").disabled).toBe(false));
    await review.fill({ whatsapp: "082 000 0000" });
    await click(review.button("Continue to payment"));
    await waitFor(() => expect(review.errorOf("whatsapp")).toBe("That is not a WhatsApp number we can reach"));
    expect(tabs[0].close).toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    expect(document.activeElement?.id).toBe("payer-whatsapp");
    expect(review.input("name")?.value).toBe("Thandi Mokoena");
    expect(review.input("whatsapp")?.value).toBe("082 000 0000");
    expect(review.input("immediateStartConsent")?.checked).toBe(true);
    expect(review.onClose).not.toHaveBeenCalled();
  });

  it("any other failure is the 'Payment Error' toast with the server's words; nothing typed is lost", async () => {
    stubApi("ikhokha", {
      "/payments/paylink": {
        status: 502,
        body: { error: { code: "payment_provider", message: "The card payment service did not answer." } },
      },
    });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.button("Continue to payment").disabled).toBe(false));
    await review.fill({ email: "thandi@example.co.za" });
    await click(review.button("Continue to payment"));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Payment Error", { description: "The card payment service did not answer." }),
    );
    expect(tabs[0].close).toHaveBeenCalled();
    expect(review.input("name")?.value).toBe("Thandi Mokoena");
    expect(review.input("whatsapp")?.value).toBe("082 123 4567");
    expect(review.input("email")?.value).toBe("thandi@example.co.za");
    expect(review.input("immediateStartConsent")?.checked).toBe(true);
    expect(review.button("Continue to payment").disabled).toBe(false);
    expect(review.onClose).not.toHaveBeenCalled();
  });

  it("when card payments are off, offers EFT: the same request, then the reference and bank details to copy", async () => {
    const posts = stubApi("off", { "/payments/eft": { status: 201, body: EFT } });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.button("Get EFT details").disabled).toBe(false));
    expect(review.dialog.textContent).toContain("We show you our bank details and your payment reference.");
    expect(review.dialog.textContent).not.toContain("secure payment page");

    await review.fill();
    await click(review.button("Get EFT details"));
    await waitFor(() => expect(document.querySelector('[data-testid="eft-reference"]')?.textContent).toBe("SD-3M-7Q2K"));
    expect(tabs).toEqual([]);
    expect(posts).toEqual([
      {
        path: "/api/payments/eft",
        body: { packageId: PLAN.packageId, name: "Thandi Mokoena", whatsapp: "082 123 4567", immediateStartConsent: true },
      },
    ]);
    const details = document.querySelector('[data-testid="eft-details"]') as HTMLElement;
    expect(details.textContent).toContain("R1,450");
    expect(details.textContent).toContain("62000000000");
    expect(details.textContent).toContain("250655");
    expect(details.textContent).toContain("We'll activate your account when the payment reflects.");
    expect(details.querySelector('[aria-label="Copy reference"]')).not.toBeNull();
    expect(details.querySelector('[aria-label="Copy account number"]')).not.toBeNull();
    expect(document.querySelector('[role="dialog"] h2')?.textContent).toBe("Pay by EFT");
    // Focus follows the details (the button that had it is gone).
    expect(document.activeElement?.querySelector('[data-testid="eft-details"]')).not.toBeNull();
  });

  it("card only (no real bank details): says so beside the one pay button", async () => {
    stubApi("ikhokha", {}, false);
    const review = await renderReview();
    await waitFor(() => expect(review.dialog.querySelector('[data-testid="card-only-note"]')?.textContent).toBe(EFT_CARD_ONLY_MESSAGE));
    expect(review.button("Continue to payment")).toBeTruthy();
    expect(review.dialog.querySelector('[data-testid="pay-methods"]')).toBeNull();
  });

  it("card and EFT both on: side by side, each button pays its own way (EFT opens no tab)", async () => {
    const posts = stubApi("ikhokha", { "/payments/eft": { status: 201, body: EFT } }, true);
    const tabs = openTabs();
    const review = await renderReview();
    const methods = await waitFor(() => {
      const found = review.dialog.querySelector<HTMLElement>('[data-testid="pay-methods"]');
      if (!found) throw new Error("no methods yet");
      return found;
    });
    expect([...methods.querySelectorAll("button")].map((b) => b.textContent?.trim())).toEqual([
      "Continue to payment by card",
      "Get EFT details",
    ]);
    expect(review.dialog.querySelector('[data-testid="card-only-note"]')).toBeNull();
    expect(review.dialog.textContent).toContain(
      "Pay by card on the secure payment page, or get our bank details and your reference to pay by EFT.",
    );

    await review.fill();
    await click(review.button("Get EFT details"));
    await waitFor(() => expect(document.querySelector('[data-testid="eft-reference"]')?.textContent).toBe("SD-3M-7Q2K"));
    expect(tabs).toEqual([]);
    expect(posts.map((p) => p.path)).toEqual(["/api/payments/eft"]);
  });

  it("card and EFT both on: the card button makes the pay link in the tab opened at the click", async () => {
    const posts = stubApi("sandbox", { "/payments/paylink": { status: 201, body: PAYLINK } }, true);
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(review.button("Continue to payment by card").disabled).toBe(false));
    await review.fill();
    await click(review.button("Continue to payment by card"));
    expect(tabs).toHaveLength(1);
    await waitFor(() => expect(tabs[0].location.href).toBe(PAYLINK.paylinkUrl));
    expect(posts.map((p) => p.path)).toEqual(["/api/payments/paylink"]);
  });

  it("with no way to pay online, says so and offers the order form instead", async () => {
    const posts = stubApi("off", {}, false);
    const review = await renderReview();
    await waitFor(() => expect(review.dialog.textContent).toContain("Online payment isn't available at the moment."));
    expect(review.dialog.querySelector("form")).toBeNull();
    await click(review.button("Order Now"));
    expect(review.onOrder).toHaveBeenCalledWith(PLAN);
    expect(posts).toEqual([]);
  });

  it("Back returns to where the visitor came from; without it, Cancel closes", async () => {
    stubApi("ikhokha");
    const onBack = vi.fn();
    const fromDetails = await renderReview({ onBack });
    await click(fromDetails.button("Back"));
    expect(onBack).toHaveBeenCalled();
    await cleanup();

    const fromCard = await renderReview();
    await click(fromCard.button("Cancel"));
    expect(fromCard.onClose).toHaveBeenCalled();
  });
});

describe("PayReviewDialog: the ways to pay the owner turned on", () => {
  const withPayfast = (card: PaymentMethods["card"], eft: boolean) => ({
    "/payments/methods": { body: { data: { card, eft, providers: [{ id: "payfast", name: "PayFast" }] } } },
  });
  const radios = (dialog: HTMLElement) =>
    [...dialog.querySelectorAll<HTMLInputElement>('[data-testid="pay-methods"] input[type="radio"]')].map((r) => ({
      label: r.closest("label")?.querySelector("span span")?.textContent,
      checked: r.checked,
    }));

  it("offers card, PayFast and EFT by name with card chosen; PayFast sends method payfast and says where they pay", async () => {
    const posts = stubApi("sandbox", {
      ...withPayfast("sandbox", true),
      "/payments/paylink": { status: 201, body: { ...PAYLINK, paylinkUrl: "http://x/api/payments/checkout/SD_2" } },
    });
    const tabs = openTabs();
    const review = await renderReview();
    await waitFor(() => expect(radios(review.dialog)).toHaveLength(3));
    expect(radios(review.dialog)).toEqual([
      { label: "Card", checked: true },
      { label: "PayFast", checked: false },
      { label: "EFT", checked: false },
    ]);
    expect(review.dialog.querySelector('[data-testid="pay-methods"] legend')?.textContent).toBe("How would you like to pay?");
    expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).not.toBeNull();

    const payfast = review.dialog.querySelectorAll<HTMLInputElement>('[data-testid="pay-methods"] input')[1];
    await click(payfast);
    await waitFor(() => expect(review.button("Continue to PayFast").disabled).toBe(false));
    expect(review.dialog.querySelector("ol li")?.textContent).toBe("1You pay on PayFast's secure payment page.");
    // The test checkout's note is the card provider's, not PayFast's.
    expect(review.dialog.querySelector('[data-testid="test-checkout-note"]')).toBeNull();
    await review.fill();
    await click(review.button("Continue to PayFast"));
    expect(tabs).toHaveLength(1);
    await waitFor(() => expect(tabs[0].location.href).toBe("http://x/api/payments/checkout/SD_2"));
    expect(posts).toEqual([
      {
        path: "/api/payments/paylink",
        body: {
          packageId: PLAN.packageId,
          name: "Thandi Mokoena",
          whatsapp: "082 123 4567",
          immediateStartConsent: true,
          method: "payfast",
        },
      },
    ]);
  });

  it("PayFast offers 'Renew automatically with this card', off by default, with the consent sentence; ticked, the request asks for it; card offers none", async () => {
    const posts = stubApi("sandbox", {
      ...withPayfast("sandbox", false),
      "/payments/paylink": { status: 201, body: { ...PAYLINK, paylinkUrl: "http://x/api/payments/checkout/SD_3" } },
    });
    openTabs();
    const review = await renderReview();
    await waitFor(() => expect(radios(review.dialog)).toHaveLength(2));
    // the card pay link keeps no card: nothing to offer
    expect(review.dialog.querySelector("#payer-autoRenew")).toBeNull();
    await click(review.dialog.querySelectorAll<HTMLInputElement>('[data-testid="pay-methods"] input')[1]);
    await waitFor(() => expect(review.dialog.querySelector("#payer-autoRenew")).not.toBeNull());
    const box = review.dialog.querySelector<HTMLInputElement>("#payer-autoRenew") as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(box.closest("div")?.querySelector("label")?.textContent).toBe(
      "Renew automatically with this card" +
        "We'll charge R1,650 to this card every 3 months on the day before your line ends, and tell you 3 days before. Turn it off any time in your portal.",
    );
    await review.fill();
    await click(box);
    await click(review.button("Continue to PayFast"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ method: "payfast", autoRenew: true });
  });

  it("shows each way to pay with its own inline mark beside the name, hidden from screen readers", async () => {
    stubApi("sandbox", {
      "/payments/methods": {
        body: {
          data: {
            card: "sandbox",
            eft: true,
            providers: [
              { id: "payfast", name: "PayFast" },
              { id: "ozow", name: "Ozow" },
              { id: "yoco", name: "Yoco" },
            ],
          },
        },
      },
    });
    const review = await renderReview();
    await waitFor(() => expect(radios(review.dialog)).toHaveLength(5));
    const options = [...review.dialog.querySelectorAll<HTMLInputElement>('[data-testid="pay-methods"] input[type="radio"]')];
    expect(
      options.map((r) => {
        const mark = r.closest("label")?.querySelector("[data-mark]");
        return [mark?.getAttribute("data-mark"), mark?.getAttribute("aria-hidden"), mark?.tagName.toLowerCase()];
      }),
    ).toEqual(["card", "payfast", "ozow", "yoco", "eft"].map((id) => [id, "true", "svg"]));
    expect(radios(review.dialog).map((r) => r.label)).toEqual(["Card", "PayFast", "Ozow", "Yoco", "EFT"]);
    expect(review.dialog.querySelector('[data-testid="pay-methods"] img')).toBeNull();
  });

  it("with card payments off PayFast is the way to pay; no list when it is the only one", async () => {
    stubApi("off", withPayfast("off", false));
    const review = await renderReview();
    await waitFor(() => expect(review.button("Continue to PayFast").disabled).toBe(false));
    expect(review.dialog.querySelector('[data-testid="pay-methods"]')).toBeNull();
  });
});
