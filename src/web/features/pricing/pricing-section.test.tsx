import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Banner, Package, Special } from "@/shared/api";
import { cleanup, click, renderRoutes, stubFetch, typeInto, waitFor } from "@/web/testing/render";
import { PricingSection, vatStatement } from "./pricing-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

function pkg(n: number, name: string, price: number, duration: string, featured = false): Package {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    name,
    price,
    duration,
    duration_months: Number.parseInt(duration, 10),
    features: [`${name} feature`],
    description: `${name} description`,
    is_featured: featured,
    sort_order: n,
    is_active: true,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

// Spec §9's order-form prices, as the demo shop seeds them.
const PACKAGES = [
  pkg(1, "Month to Month", 650, "1 Month"),
  pkg(2, "3 Months", 1650, "3 Months", true),
  pkg(3, "6 Months", 3150, "6 Months"),
];
const SPECIAL: Special = {
  id: "s1",
  package_name: "3 Months",
  original_price: 1650,
  special_price: 1450,
  title: "Save R200 on 3 Months",
  description: "",
};
const SPECIAL_BANNER: Banner = {
  id: "b-special",
  title: "Special: save R200 on 3 Months",
  content: "Three months for less.",
  banner_type: "special",
  is_active: true,
  sort_order: 1,
  created_at: "2026-01-01T00:00:00.000Z",
};
const INFO_BANNER: Banner = {
  ...SPECIAL_BANNER,
  id: "b-info",
  title: "Load-shedding notice",
  content: "Streams may drop during stage 6.",
  banner_type: "info",
  sort_order: 2,
};

type Answer = { status?: number; body: unknown };

/** stubFetch plus the method and JSON body of every request. */
function stubApi(routes: Record<string, Answer | (() => Answer)>) {
  const stub = stubFetch({
    "/packages": { body: { data: PACKAGES } },
    "/specials": { body: { data: [SPECIAL] } },
    "/banners": { body: { data: [] } },
    "/settings": { body: { data: {} } },
    "/downloads": { body: { data: [] } },
    ...routes,
  });
  const requests: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    requests.push({ method: init?.method ?? "GET", path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return stub.fetch(input, init);
  };
  vi.stubGlobal("fetch", fetchMock);
  return { requests, posts: () => requests.filter((r) => r.method === "POST") };
}

function renderPricing() {
  return renderRoutes([
    { path: "/", element: <PricingSection /> },
    { path: "/order", element: <p>Order page</p> },
    { path: "/client/login", element: <p>Client login</p> },
  ]);
}

/** The card (article) whose title is `title`. */
function card(container: ParentNode, title: string): HTMLElement {
  const heading = [...container.querySelectorAll("article h3")].find((h) => h.querySelector("button span")?.textContent === title);
  if (!heading) throw new Error(`no card titled ${title}`);
  return heading.closest("article") as HTMLElement;
}

function button(scope: ParentNode, name: string): HTMLButtonElement {
  const found = [...scope.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

function dialog(): HTMLElement {
  const found = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!found) throw new Error("no dialog open");
  return found;
}

beforeEach(() => {
  vi.useRealTimers();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  window.sessionStorage.clear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.getElementById("order")?.remove();
});

describe("PricingSection: cards", () => {
  it("shows 'Loading pricing...', then the plans with badges and the special's price, struck original and 'Save R200'", async () => {
    stubApi({});
    const { container, text } = await renderPricing().rendered;
    expect(text()).toContain("Loading pricing...");
    expect(text()).toContain("Get Premium Streaming Now - Save Big!");

    await waitFor(() => expect(container.querySelectorAll("article").length).toBe(4));
    expect(text()).not.toContain("Loading pricing...");

    const special = card(container, "3 Months");
    expect(special.textContent).toContain("Most Popular");
    expect(special.textContent).toContain("SPECIAL");
    expect(special.querySelector('[data-testid="plan-price"]')?.textContent).toBe("R1,450");
    expect(special.querySelector("s")?.textContent).toBe("R1,650");
    expect(special.textContent).toContain("Save R200");

    const plain = card(container, "6 Months");
    expect(plain.querySelector('[data-testid="plan-price"]')?.textContent).toBe("R3,150");
    expect(plain.querySelector("s")).toBeNull();
    expect(plain.textContent).not.toContain("SPECIAL");

    for (const title of ["Month to Month", "3 Months", "6 Months"]) {
      expect([...card(container, title).querySelectorAll("div button")].map((b) => b.textContent)).toEqual(["Pay Now", "Request Quote"]);
    }
    // The specials status banner points at the packages.
    expect(text()).toContain("Specials on now: 3 Months (Save R200)");
    expect(text()).not.toContain("No Specials At The Moment");
  });

  it("puts the Free Trial plan first, without Pay Now, and reads 'No Specials At The Moment' when none apply", async () => {
    stubApi({ "/specials": { body: { data: [{ ...SPECIAL, original_price: 1600 }] } } });
    const { container, text } = await renderPricing().rendered;
    await waitFor(() => expect(container.querySelectorAll("article").length).toBe(4));
    const first = container.querySelector("article") as HTMLElement;
    expect(first.querySelector("h3")?.textContent).toContain("Free Trial");
    expect(first.textContent).toContain("24 Hours");
    expect(first.querySelector('[data-testid="plan-price"]')?.textContent).toBe("FREE");
    expect(first.textContent).toContain("Not on Sport Days");
    expect([...first.querySelectorAll("div button")].map((b) => b.textContent)).toEqual(["Get Free Trial", "Request Quote"]);
    // 1600 is not within R0.01 of 1650: no special.
    expect(card(container, "3 Months").querySelector('[data-testid="plan-price"]')?.textContent).toBe("R1,650");
    expect(text()).toContain("No Specials At The Moment");
  });

  it("shows 'Error loading packages: {message}' and the built-in packages, which offer Order Now instead of Pay Now", async () => {
    stubApi({ "/packages": { status: 503, body: { error: { code: "unavailable", message: "The service is temporarily unavailable." } } } });
    const { container, text } = await renderPricing().rendered;
    // 3 retries at 300, 600 and 1200 ms (spec §9) before the read counts as failed.
    await waitFor(() => expect(text()).toContain("Error loading packages: The service is temporarily unavailable."), 6000);
    // FALLBACK_PACKAGES: Month to Month R200, 3 Months R500 (featured), 6 Months R900.
    expect(card(container, "Month to Month").textContent).toContain("R200");
    expect(card(container, "3 Months").textContent).toContain("Most Popular");
    expect([...card(container, "6 Months").querySelectorAll("div button")].map((b) => b.textContent)).toEqual([
      "Order Now",
      "Request Quote",
    ]);
  }, 10_000);

  it("a package the shop cannot make a line for yet is shown with 'Not available yet' and why, never Pay Now", async () => {
    stubApi({
      "/packages": {
        body: { data: PACKAGES.map((p) => (p.name === "6 Months" ? { ...p, available: false } : { ...p, available: true })) },
      },
    });
    const { container } = await renderPricing().rendered;
    await waitFor(() => card(container, "6 Months"));
    const unsold = card(container, "6 Months");
    const buttons = [...unsold.querySelectorAll<HTMLButtonElement>("div button")];
    expect(buttons.map((b) => [b.textContent, b.disabled])).toEqual([
      ["Not available yet", true],
      ["Request Quote", false],
    ]);
    expect(unsold.querySelector('[data-testid="plan-unavailable"]')?.textContent).toBe(
      "This package is not available yet — please choose another or contact us.",
    );
    // its details say the same, with no way to pay
    await click(unsold.querySelector("h3 button") as HTMLButtonElement);
    const dialog = await waitFor(() => {
      const found = document.querySelector<HTMLElement>("[role=dialog]");
      if (!found) throw new Error("no dialog");
      return found;
    });
    expect(dialog.textContent).toContain("This package is not available yet — please choose another or contact us.");
    expect(button(dialog, "Not available yet").disabled).toBe(true);
    expect([...dialog.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Pay Now")).toBe(false);
    // the others are sold as before
    expect(button(card(container, "3 Months"), "Pay Now").disabled).toBe(false);
  });

  it("states the VAT position from the settings", async () => {
    expect(vatStatement({ vat_note: "No VAT is added: we are not registered for VAT.", prices_include_vat: "false" })).toBe(
      "No VAT is added: we are not registered for VAT.",
    );
    expect(vatStatement({ prices_include_vat: "true" })).toBe("All prices include VAT.");
    expect(vatStatement({})).toBeNull();
    stubApi({ "/settings": { body: { data: { prices_include_vat: "true", vat_note: "" } } } });
    const { container } = await renderPricing().rendered;
    await waitFor(() => expect(container.querySelector('[data-testid="vat-note"]')?.textContent).toBe("All prices include VAT."));
  });
});

describe("PricingSection: dialogs and actions", () => {
  it("a card opens the plan detail; Request Quote Instead opens 'Express Your Interest' with that plan", async () => {
    stubApi({});
    const { container } = await renderPricing().rendered;
    await waitFor(() => card(container, "3 Months"));
    await click(card(container, "3 Months").querySelector("h3 button"));
    await waitFor(() => expect(dialog().textContent).toContain("What's Included"));
    const detail = dialog();
    expect(detail.querySelector("h2")?.textContent).toBe("3 Months");
    expect(detail.querySelector('[data-testid="detail-price"]')?.textContent).toBe("R1,450");
    expect(detail.querySelector("s")?.textContent).toBe("R1,650");
    expect(detail.textContent).toContain("Save R200");
    expect(detail.textContent).toContain("3 Months description");
    expect(detail.textContent).toContain("3 Months feature");
    expect(button(detail, "Pay Now")).toBeTruthy();

    await click(button(detail, "Request Quote Instead"));
    await waitFor(() => expect(dialog().textContent).toContain("Express Your Interest"));
    expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(1);
    const plan = dialog().querySelector('[data-testid="interest-plan"]')?.textContent;
    expect(plan).toContain("3 Months");
    expect(plan).toContain("R1,450");
  });

  it("the interest form: empty fields → 'Missing Information'; then a filled form is posted, toasted and the dialog closes", async () => {
    const api = stubApi({ "/interest": { status: 201, body: { success: true, id: "lead-1" } } });
    const { container } = await renderPricing().rendered;
    await waitFor(() => card(container, "6 Months"));
    await click(button(card(container, "6 Months"), "Request Quote"));
    await waitFor(() => dialog().querySelector("form"));
    const form = dialog().querySelector("form") as HTMLFormElement;
    const input = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`);
    expect(input("email")?.type).toBe("email");
    expect(input("whatsapp")?.placeholder).toBe("+27XXXXXXXXX");
    expect(form.querySelector<HTMLInputElement>('[name="communicationMethod"][value="whatsapp"]')?.checked).toBe(true);
    expect(input("marketingOptIn")?.checked).toBe(false);

    await typeInto(input("firstName"), "Thandi");
    await click(button(form, "Submit Interest"));
    expect(toast.error).toHaveBeenCalledWith("Missing Information", { description: "Please fill in all required fields." });
    expect(input("lastName")?.getAttribute("aria-invalid")).toBe("true");
    expect(input("firstName")?.getAttribute("aria-invalid")).toBeNull();
    expect(api.posts()).toEqual([]);

    await typeInto(input("lastName"), "Mokoena");
    await typeInto(input("email"), "thandi@example.co.za");
    await typeInto(input("whatsapp"), "082 123 4567");
    await click(form.querySelector('[name="communicationMethod"][value="email"]'));
    await click(button(form, "Submit Interest"));
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith("Interest Submitted Successfully!", {
      description: "We'll contact you by e-mail or WhatsApp with payment details.",
    });
    expect(api.posts()).toEqual([
      {
        method: "POST",
        path: "/api/interest",
        body: {
          firstName: "Thandi",
          lastName: "Mokoena",
          email: "thandi@example.co.za",
          whatsapp: "082 123 4567",
          communicationMethod: "email",
          marketingOptIn: false,
          packageName: "6 Months",
          packagePrice: 3150,
          duration: "6 Months",
        },
      },
    ]);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it("the interest form: a bad e-mail is shown at the field; a server error toasts 'Submission Failed'", async () => {
    stubApi({ "/interest": { status: 503, body: { error: { code: "unavailable", message: "Down" } } } });
    const { container } = await renderPricing().rendered;
    await waitFor(() => card(container, "Free Trial"));
    await click(button(card(container, "Free Trial"), "Request Quote"));
    await waitFor(() => dialog().querySelector("form"));
    const form = dialog().querySelector("form") as HTMLFormElement;
    const input = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`);
    await typeInto(input("firstName"), "Sipho");
    await typeInto(input("lastName"), "Ndlovu");
    await typeInto(input("email"), "sipho@");
    await typeInto(input("whatsapp"), "0821234567");
    await click(button(form, "Submit Interest"));
    const emailError = document.getElementById(input("email")?.getAttribute("aria-describedby") ?? "");
    expect(emailError?.textContent).toBe("Please enter a valid email address");

    await typeInto(input("email"), "sipho@example.co.za");
    await click(button(form, "Submit Interest"));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Submission Failed", {
        description: "There was an error processing your request. Please try again.",
      }),
    );
    // Still open, still filled in.
    expect(input("firstName")?.value).toBe("Sipho");
  });

  it("Pay Now opens the review step, from a card or from the plan's details (Back returns there); nothing is paid yet", async () => {
    vi.spyOn(window, "open");
    const api = stubApi({ "/payments/methods": { body: { data: { card: "sandbox", eft: true } } } });
    const { container } = await renderPricing().rendered;
    await waitFor(() => card(container, "3 Months"));

    await click(button(card(container, "3 Months"), "Pay Now"));
    await waitFor(() => expect(dialog().querySelector("h2")?.textContent).toBe("Review your order"));
    expect(dialog().querySelector('[data-testid="pay-review-price"]')?.textContent).toBe("R1,450");
    await click(button(dialog(), "Cancel"));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());

    await click(card(container, "6 Months").querySelector("h3 button"));
    await waitFor(() => expect(dialog().textContent).toContain("What's Included"));
    await click(button(dialog(), "Pay Now"));
    await waitFor(() => expect(dialog().querySelector("h2")?.textContent).toBe("Review your order"));
    expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(1);
    expect(dialog().querySelector('[data-testid="pay-review-price"]')?.textContent).toBe("R3,150");
    await click(button(dialog(), "Back"));
    await waitFor(() => expect(dialog().querySelector("h2")?.textContent).toBe("6 Months"));

    expect(window.open).not.toHaveBeenCalled();
    expect(api.posts()).toEqual([]);
    vi.mocked(window.open).mockRestore();
  });

  it("the large Free Trial button scrolls to #order and 500 ms later selects free-trial", async () => {
    stubApi({});
    const order = document.createElement("section");
    order.id = "order";
    order.scrollIntoView = vi.fn();
    document.body.appendChild(order);
    const selected: string[] = [];
    const onSelect = (event: Event) => selected.push((event as CustomEvent<{ duration: string }>).detail.duration);
    window.addEventListener("selectDuration", onSelect);
    try {
      const { container } = await renderPricing().rendered;
      await click(button(container, "Start Your Free 24-Hour Trial"));
      expect(order.scrollIntoView).toHaveBeenCalled();
      expect(selected).toEqual([]);
      await waitFor(() => expect(selected).toEqual(["free-trial"]), 1500);
    } finally {
      window.removeEventListener("selectDuration", onSelect);
    }
  });

  it("without an order section on the page, Get Free Trial opens the order page with the duration", async () => {
    stubApi({});
    const { rendered, router } = renderPricing();
    const { container, text } = await rendered;
    await waitFor(() => card(container, "Free Trial"));
    await click(button(card(container, "Free Trial"), "Get Free Trial"));
    await waitFor(() => expect(text()).toBe("Order page"));
    expect(router.state.location.search).toBe("?duration=free-trial");
  });

  it("the dashboard cards lead to the two logins, open with Space, and list at most 2 benefits", async () => {
    stubApi({});
    const { rendered, router } = renderPricing();
    const { container } = await rendered;
    const admin = container.querySelector<HTMLElement>('[data-dashboard="admin"]');
    const client = container.querySelector<HTMLElement>('[data-dashboard="client"]');
    // the title is the card's link, and its name is what it shows (WCAG 2.5.3)
    expect(admin?.querySelector("a")?.getAttribute("href")).toBe("/admin/login");
    expect(admin?.querySelector("a")?.textContent).toBe("Business Dashboard");
    expect(client?.querySelector("a")?.getAttribute("href")).toBe("/client/login");
    expect(admin?.querySelectorAll("ul li")).toHaveLength(2);
    await act(async () => {
      client?.querySelector("a")?.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true }));
    });
    expect(router.state.location.pathname).toBe("/client/login");
  });
});

describe("PricingSection: banners (the special popup is special-popup-host.test.tsx)", () => {
  it("an info banner can be dismissed for this page view; a new page view shows it again", async () => {
    stubApi({ "/banners": { body: { data: [INFO_BANNER] } } });
    const first = await renderPricing().rendered;
    await waitFor(() => expect(first.text()).toContain("Load-shedding notice"));
    expect(first.text()).toContain("Streams may drop during stage 6.");
    await click(first.container.querySelector('[aria-label="Dismiss: Load-shedding notice"]'));
    expect(first.text()).not.toContain("Load-shedding notice");
    await first.unmount();

    const second = await renderPricing().rendered;
    await waitFor(() => expect(second.text()).toContain("Load-shedding notice"));
  });
});
