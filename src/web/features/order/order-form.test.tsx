import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Package, Special } from "@/shared/api";
import { MAC_MESSAGE } from "@/shared/device-lines";
import { OTHER_PLATFORM_MESSAGE } from "@/shared/schemas";
import { emitSelectDuration, takePendingDuration } from "@/web/lib/window-events";
import { cleanup, click, renderRoutes, waitFor } from "@/web/testing/render";
import { DRAFT_KEY } from "./order-draft";
import { ORDER_MESSAGES } from "./order-form-view";
import { OrderSection } from "./order-section";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock("@/web/lib/toast", () => ({ toast }));

// The moment between the form code's first render (which reads the fields) and the commit that
// hands the fields to it: a test may type there, as a browser may while a lazy render yields.
const gap = vi.hoisted(() => ({ type: null as ((form: HTMLFormElement) => void) | null }));
vi.mock("./order-form-live", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./order-form-live")>();
  const Live = actual.OrderFormLive;
  const { memo, useCallback } = await import("react");
  // As memo'd as the real one, so it renders only when the page's props or its own state change.
  const OrderFormLive = memo(function OrderFormLive(props: Parameters<typeof Live>[0]) {
    const { form, onDriver: handTo } = props;
    const onDriver = useCallback(
      (driver: Parameters<typeof handTo>[0]) => {
        const type = gap.type;
        gap.type = null;
        if (type && form.current) type(form.current);
        handTo(driver);
      },
      [form, handTo],
    );
    return <Live {...props} onDriver={onDriver} />;
  });
  return { ...actual, OrderFormLive };
});

function pkg(name: string, price: number, duration: string, sort: number): Package {
  return {
    id: `id-${sort}`,
    name,
    price,
    duration,
    duration_months: Number.parseInt(duration, 10),
    features: [],
    description: "",
    is_featured: false,
    sort_order: sort,
    is_active: true,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

const PACKAGES = [pkg("Month to Month", 650, "1 Month", 1), pkg("3 Months", 1650, "3 Months", 2), pkg("6 Months", 3150, "6 Months", 3)];
const SPECIALS: Special[] = [{ id: "s", package_name: "3 Months", original_price: 1650, special_price: 1450, title: "", description: "" }];
const WHATSAPP_URL = "https://wa.me/27821234567?text=Hi%20there";

interface Sent {
  body: Record<string, unknown>;
  key: string | null;
}

type OrderAnswer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/** A fetch for the order form's reads and POST /api/orders; `answer` decides each order's reply. */
function installFetch(
  options: { packages?: { status: number; body: unknown }; answer?: () => OrderAnswer; loginChannel?: "whatsapp" | "email" } = {},
) {
  const sent: Sent[] = [];
  const answer = options.answer ?? (() => ({ status: 201, body: { success: true, id: "lead-1", whatsappUrl: WHATSAPP_URL } }));
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    if (path === "/api/packages") {
      const p = options.packages ?? { status: 200, body: { data: PACKAGES } };
      return json(p.status, p.body);
    }
    if (path === "/api/specials") return json(200, { data: SPECIALS });
    if (path === "/api/settings") return json(200, { data: { vat_note: "No VAT is added.", support_hours: "9am-8pm, 7 days a week" } });
    if (path === "/api/payments/methods" && options.loginChannel) {
      return json(200, { data: { card: "sandbox", eft: false, providers: [], loginChannel: options.loginChannel } });
    }
    if (path === "/api/orders" && init?.method === "POST") {
      const headers = new Headers(init.headers);
      sent.push({ body: JSON.parse(String(init.body)), key: headers.get("idempotency-key") });
      const reply = await answer();
      return json(reply.status, reply.body);
    }
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { sent };
}

/** The order section; unless `touched` is false, the visitor then focuses the form and its code takes over. */
async function renderOrder(path = "/", { touched = true } = {}) {
  const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], path);
  const view = await rendered;
  const container = view.container;
  // Wait until the packages arrived.
  await waitFor(() => expect(container.querySelector("#order-package")?.textContent).toContain("3 Months - R1,450"));
  if (touched) await touch(container);
  return container;
}

/** The visitor focuses the form: its code loads and takes over the fields. */
async function touch(container: HTMLElement) {
  await act(async () => {
    field(container, "name").focus();
  });
  await waitFor(() => expect(container.querySelector("form")?.dataset.ready).toBe("true"));
}

const field = <T extends HTMLElement = HTMLInputElement>(container: HTMLElement, name: string) => {
  const el = container.querySelector<T>(`#order-${name}`);
  if (!el) throw new Error(`no field ${name}`);
  return el;
};

/** Sets a field's value the way typing or choosing would (React listens for input/change). */
async function fill(container: HTMLElement, name: string, value: string) {
  const el = field<HTMLInputElement | HTMLSelectElement>(container, name);
  await act(async () => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
}

async function fillRequired(container: HTMLElement, whatsapp = "082 123 4567") {
  await fill(container, "name", "Thandi Mokoena");
  await fill(container, "email", "thandi@example.co.za");
  await fill(container, "whatsapp", whatsapp);
}

async function submit(container: HTMLElement) {
  const form = container.querySelector("form");
  await act(async () => {
    form?.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  });
}

const errorOf = (container: HTMLElement, name: string) => container.querySelector(`#order-${name}-error`)?.textContent ?? null;
const submitButton = (container: HTMLElement) => container.querySelector<HTMLButtonElement>('button[type="submit"]');

beforeEach(() => {
  sessionStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
  // happy-dom has no alert; both are replaced for every test.
  Object.defineProperty(window, "open", { configurable: true, writable: true, value: vi.fn(() => null) });
  Object.defineProperty(window, "alert", { configurable: true, writable: true, value: vi.fn() });
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("OrderForm", () => {
  it("lists the spec's fields, with the live packages as 'Name - R{price}' (specials applied) and the free trial", async () => {
    installFetch();
    const container = await renderOrder();
    const labels = [...container.querySelectorAll("label")].map((l) => l.textContent?.replace("*", "").trim());
    for (const label of [
      "Full Name",
      "E-mail Address",
      "WhatsApp Number",
      "Select Package",
      "Duration",
      "Device",
      "Internet Platform",
      "Internet Speed",
    ]) {
      expect(labels).toContain(label);
    }
    expect(field(container, "whatsapp").placeholder).toBe("+27 XX XXX XXXX");
    const packages = [...field<HTMLSelectElement>(container, "package").options].map((o) => o.textContent);
    expect(packages).toEqual([
      "Choose a package",
      "Free Trial (24 Hours) - FREE",
      "Month to Month - R650",
      "3 Months - R1,450",
      "6 Months - R3,150",
    ]);
    const durations = [...field<HTMLSelectElement>(container, "duration").options].map((o) => o.value);
    expect(durations).toEqual(["", "free-trial", "1 Month", "3 Months", "6 Months"]);
    // Asterisks: the three enforced fields and, not enforced, Select Package and Internet Platform.
    const starred = [...container.querySelectorAll("label")].filter((l) => l.textContent?.endsWith("*")).map((l) => l.htmlFor);
    expect(starred).toEqual(
      expect.arrayContaining(["order-name", "order-email", "order-whatsapp", "order-package", "order-internetPlatform"]),
    );
    expect(field(container, "package").getAttribute("aria-required")).toBeNull();
  });

  it.each([
    ["email", "We reach you here about your order.", "Your login details are sent here."],
    ["whatsapp", "Your login details are sent here.", "For your receipts."],
  ] as const)("promises the login on the channel it goes by (%s), under that field only", async (loginChannel, whatsappHint, emailHint) => {
    installFetch({ loginChannel });
    const container = await renderOrder();
    await waitFor(() => expect(container.querySelector("#order-whatsapp-hint")?.textContent).toBe(whatsappHint));
    expect(container.querySelector("#order-email-hint")?.textContent).toBe(emailHint);
    expect(container.querySelector("#order-whatsapp")?.getAttribute("aria-describedby")).toContain("order-whatsapp-hint");
  });

  it("a box needs its MAC: the shared schema's message on the field, a warning (not a refusal) outside 00:1A:79, then the type and MAC are sent", async () => {
    const { sent } = installFetch();
    const container = await renderOrder();
    await fillRequired(container);
    // an app is the default, with no MAC asked for
    expect(field(container, "lineType-m3u").checked).toBe(true);
    expect(container.querySelector("#order-mac")).toBeNull();
    await click(field(container, "lineType-mag"));
    expect(field(container, "mac").placeholder).toBe("00:1A:79:xx:xx:xx");

    await submit(container);
    // validation may wait for the lazily loaded schema: wait for its message, not a fixed tick
    await waitFor(() => expect(errorOf(container, "mac")).toBe(MAC_MESSAGE));
    expect(field(container, "mac").getAttribute("aria-describedby")).toContain("order-mac-error");
    expect(sent).toEqual([]);

    await fill(container, "mac", "aa-bb-cc-dd-ee-ff");
    await waitFor(() => expect(errorOf(container, "mac")).toBeNull());
    expect(container.querySelector("[data-testid=mac-warning]")?.textContent).toContain("start with 00:1A:79");
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toMatchObject({ lineType: "mag", mac: "AA:BB:CC:DD:EE:FF" });

    // back to an app: a MAC typed before is not sent
    await waitFor(() => expect(field(container, "name").value).toBe(""));
    await fillRequired(container);
    await click(field(container, "lineType-mag"));
    await fill(container, "mac", "00:1A:79:00:00:01");
    await click(field(container, "lineType-m3u"));
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].body).not.toHaveProperty("mac");
    expect(sent[1].body).not.toHaveProperty("lineType");
  });

  it("uses the spec's order-form prices when the packages can't be read", async () => {
    installFetch({ packages: { status: 500, body: { error: { code: "internal", message: "Down" } } } });
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }]);
    const { container } = await rendered;
    await waitFor(() => expect(field(container, "package").textContent).toContain("Month to Month - R650"), 8000);
    expect(field(container, "package").textContent).toContain("24 Months - R10,999");
  }, 15_000);

  it("enforces only Full Name, Email Address (format) and WhatsApp Number", async () => {
    const { sent } = installFetch();
    const container = await renderOrder();
    await submit(container);
    // The rules load with the first check (or the first focus): then the errors show.
    await waitFor(() => expect(errorOf(container, "name")).toBe("Please enter your full name"));
    expect(errorOf(container, "email")).toBe("Please enter a valid email address");
    expect(errorOf(container, "whatsapp")).toBe("Please enter a valid WhatsApp number");
    expect(field(container, "name").getAttribute("aria-invalid")).toBe("true");
    expect(field(container, "name").getAttribute("aria-describedby")).toBe("order-name-error");
    expect(sent).toHaveLength(0);

    await fillRequired(container);
    await fill(container, "email", "not-an-email");
    await submit(container);
    expect(errorOf(container, "email")).toBe("Please enter a valid email address");
    expect(sent).toHaveLength(0);

    // Package and platform left empty: the order still goes.
    await fill(container, "email", "thandi@example.co.za");
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toMatchObject({ name: "Thandi Mokoena", package: "", internetPlatform: "", formType: "order" });
  });

  it("asks for 'Please specify' when the platform is other, and requires it then", async () => {
    const { sent } = installFetch();
    const container = await renderOrder();
    expect(container.querySelector("#order-otherPlatform")).toBeNull();
    await fill(container, "internetPlatform", "other");
    expect(container.querySelector('label[for="order-otherPlatform"]')?.textContent).toContain("Please specify");
    await fillRequired(container);
    await submit(container);
    expect(errorOf(container, "otherPlatform")).toBe(OTHER_PLATFORM_MESSAGE);
    expect(sent).toHaveLength(0);
    await fill(container, "otherPlatform", "Starlink");
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toMatchObject({ internetPlatform: "other", otherPlatform: "Starlink" });
  });

  it("selectDuration sets the duration, and for a package duration the matching package", async () => {
    installFetch();
    const container = await renderOrder();
    await act(async () => {
      window.dispatchEvent(new CustomEvent("selectDuration", { detail: { duration: "free-trial" } }));
    });
    expect(field<HTMLSelectElement>(container, "duration").value).toBe("free-trial");
    expect(field<HTMLSelectElement>(container, "package").value).toBe("Free Trial");
    expect(container.querySelector('[data-testid="order-summary"]')?.textContent).toContain("FREE");

    await act(async () => {
      window.dispatchEvent(new CustomEvent("selectDuration", { detail: { duration: "monthly" } }));
    });
    expect(field<HTMLSelectElement>(container, "duration").value).toBe("1 Month");
    expect(field<HTMLSelectElement>(container, "package").value).toBe("Month to Month");
    expect(container.querySelector('[data-testid="order-summary"]')?.textContent).toContain("R650");
  });

  it("a selectDuration sent while the form was still mounting is applied once it mounts, and only once", async () => {
    installFetch();
    emitSelectDuration("free-trial"); // the hero's button, before the order section's code arrived
    const container = await renderOrder();
    await waitFor(() => expect(field<HTMLSelectElement>(container, "duration").value).toBe("free-trial"));
    expect(takePendingDuration()).toBeNull();
  });

  it("the summary follows the choice; a paid plan needs the start-now consent, the free trial does not", async () => {
    const { sent } = installFetch();
    const container = await renderOrder();
    await fillRequired(container);
    await fill(container, "package", "3 Months");
    expect(field<HTMLSelectElement>(container, "duration").value).toBe("3 Months");
    const summary = container.querySelector('[data-testid="order-summary"]')?.textContent ?? "";
    expect(summary).toContain("3 Months");
    expect(summary).toContain("R1,650"); // struck through
    expect(summary).toContain("R1,450");
    expect(container.textContent).toContain("No VAT is added.");

    const consent = () => container.querySelector<HTMLInputElement>("#order-immediateStartConsent");
    expect(consent()?.checked).toBe(false);
    await submit(container);
    expect(errorOf(container, "immediateStartConsent")).toBe(ORDER_MESSAGES.consent);
    expect(sent).toHaveLength(0);

    await click(consent());
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toMatchObject({ package: "3 Months", duration: "3 Months", immediateStartConsent: true, shownPrice: "R1,450" });

    // The free trial: no consent line at all.
    await fillRequired(container, "083 555 0000");
    await fill(container, "duration", "free-trial");
    expect(field<HTMLSelectElement>(container, "package").value).toBe("Free Trial");
    expect(consent()).toBeNull();
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].body).toMatchObject({ duration: "free-trial", formType: "free-trial" });
    expect(sent[1].body).not.toHaveProperty("immediateStartConsent");
  });

  it("shows 'Getting You Started...' (disabled) while sending; success clears the form and opens WhatsApp", async () => {
    let release: (v: { status: number; body: unknown }) => void = () => {};
    const { sent } = installFetch({ answer: () => new Promise((resolve) => (release = resolve)) });
    const container = await renderOrder();
    await fillRequired(container);
    await fill(container, "internetSpeed", "50 Mbps");
    await submit(container);
    await waitFor(() => expect(submitButton(container)?.textContent).toBe("Getting You Started..."));
    expect(submitButton(container)?.disabled).toBe(true);
    expect(sessionStorage.getItem(DRAFT_KEY)).toContain("Thandi");

    await act(async () => release({ status: 201, body: { success: true, id: "lead-1", whatsappUrl: WHATSAPP_URL } }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(ORDER_MESSAGES.successTitle, { description: ORDER_MESSAGES.successDescription }),
    );
    expect(ORDER_MESSAGES.successDescription).toBe(
      "Your order has been saved and will appear in the admin panel. WhatsApp is opening for immediate assistance.",
    );
    expect(window.open).toHaveBeenCalledWith(WHATSAPP_URL, "_blank", "noopener,noreferrer");
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(field(container, "name").value).toBe(""));
    expect(field(container, "email").value).toBe("");
    expect(field(container, "internetSpeed").value).toBe("");
    expect(sessionStorage.getItem(DRAFT_KEY)).toBeNull();
    expect(submitButton(container)?.disabled).toBe(false);
  });

  it("an answer with a link that is not WhatsApp's raises an alert instead of opening it", async () => {
    installFetch({ answer: () => ({ status: 201, body: { success: true, id: "x", whatsappUrl: "https://evil.example/chat" } }) });
    const container = await renderOrder();
    await fillRequired(container);
    await submit(container);
    await waitFor(() => expect(window.alert).toHaveBeenCalledWith(ORDER_MESSAGES.invalidWhatsApp));
    expect(window.open).not.toHaveBeenCalled();
  });

  it("failure keeps the form: the server's message in 'Submission Error', field errors beside the fields, the same key on retry", async () => {
    const noTrialToday =
      "Free trials aren't available on sport event days (today: Springboks v England). Please choose a paid package or try again tomorrow.";
    const { sent } = installFetch({
      answer: () => ({
        status: 409,
        body: { error: { code: "trial_unavailable", message: noTrialToday, fields: { duration: noTrialToday } } },
      }),
    });
    const container = await renderOrder();
    await fillRequired(container);
    await fill(container, "duration", "free-trial");
    await submit(container);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ORDER_MESSAGES.failureTitle, { description: noTrialToday }));
    expect(errorOf(container, "duration")).toBe(noTrialToday);
    expect(field(container, "name").value).toBe("Thandi Mokoena");
    expect(field<HTMLSelectElement>(container, "duration").value).toBe("free-trial");
    expect(window.open).not.toHaveBeenCalled();

    // Sending the same form again reuses its key; a changed form gets a new one.
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].key).toBe(sent[0].key);
    await fill(container, "whatsapp", "083 000 1111");
    await submit(container);
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2].key).not.toBe(sent[0].key);
  });

  it("without a server message the spec's default text is shown", async () => {
    installFetch({ answer: () => ({ status: 200, body: { ok: true } }) });
    const container = await renderOrder();
    await fillRequired(container);
    await submit(container);
    // Spec §8: an answer without a success flag throws 'Failed to submit order'.
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ORDER_MESSAGES.failureTitle, { description: "Failed to submit order" }));
    expect(field(container, "name").value).toBe("Thandi Mokoena");
  });

  it("fills Internet Speed from the stream test's event and from ?speed=", async () => {
    installFetch();
    const container = await renderOrder();
    await act(async () => {
      window.dispatchEvent(new CustomEvent("useStreamTestSpeed", { detail: { speed: "87.3 Mbps" } }));
    });
    expect(field(container, "internetSpeed").value).toBe("87.3 Mbps");
    await cleanup();
    sessionStorage.clear();
    const again = await renderOrder("/?speed=42%20Mbps&duration=6%20Months");
    expect(field(again, "internetSpeed").value).toBe("42 Mbps");
    await waitFor(() => expect(field<HTMLSelectElement>(again, "package").value).toBe("6 Months"));
  });

  it("pricingUpdated reloads the prices", async () => {
    installFetch();
    const container = await renderOrder();
    const fetchMock = vi.mocked(fetch);
    const packageReads = () => fetchMock.mock.calls.filter(([input]) => String(input).endsWith("/api/packages")).length;
    const before = packageReads();
    await act(async () => {
      window.dispatchEvent(new Event("pricingUpdated"));
    });
    await waitFor(() => expect(packageReads()).toBe(before + 1));
    expect(field(container, "package").textContent).toContain("3 Months - R1,450");
  });

  it("restores a draft typed before a reload", async () => {
    // (Selects restored from a draft are checked in the browser journey: happy-dom does not
    // apply a select's value the way react-hook-form sets it.)
    sessionStorage.setItem(
      DRAFT_KEY,
      JSON.stringify({ name: "Sipho", email: "sipho@example.com", internetSpeed: 12, whatsapp: "0821112222" }),
    );
    installFetch();
    const container = await renderOrder();
    expect(field(container, "name").value).toBe("Sipho");
    expect(field(container, "email").value).toBe("sipho@example.com");
    expect(field(container, "whatsapp").value).toBe("0821112222");
    // A malformed value is dropped, not shown.
    expect(field(container, "internetSpeed").value).toBe("");
  });

  describe("before the visitor touches it", () => {
    it("shows the fields with the draft, and its code loads only on the first touch", async () => {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ name: "Sipho", email: "sipho@example.com", whatsapp: "0821112222" }));
      installFetch();
      const container = await renderOrder("/", { touched: false });
      expect(field(container, "name").value).toBe("Sipho");
      expect(field(container, "whatsapp").value).toBe("0821112222");
      // A reader who never touches the form: nothing was even asked for (any import started has settled).
      await act(async () => {
        await vi.dynamicImportSettled();
      });
      expect(container.querySelector("form")?.dataset.ready).toBeUndefined();
      await touch(container);
      // Taking over moved nothing: the draft is still in the fields.
      expect(field(container, "name").value).toBe("Sipho");
      expect(field(container, "email").value).toBe("sipho@example.com");
    });

    it("what is typed and chosen, and a submit, before its code arrives are kept and carried out", async () => {
      const { sent } = installFetch();
      const container = await renderOrder("/", { touched: false });
      await fillRequired(container);
      await fill(container, "internetSpeed", "25 Mbps");
      await fill(container, "package", "3 Months");
      // The summary follows the choice at once.
      expect(container.querySelector('[data-testid="order-summary"]')?.textContent).toContain("R1,450");
      expect(container.querySelector("form")?.dataset.ready).toBeUndefined();
      await submit(container);
      // The code arrives, the package's duration follows it, and the submit runs: a paid plan needs the consent.
      await waitFor(() => expect(errorOf(container, "immediateStartConsent")).toBe(ORDER_MESSAGES.consent));
      expect(field<HTMLSelectElement>(container, "duration").value).toBe("3 Months");
      expect(sent).toHaveLength(0);
      await click(container.querySelector("#order-immediateStartConsent"));
      await submit(container);
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0].body).toMatchObject({
        name: "Thandi Mokoena",
        email: "thandi@example.co.za",
        whatsapp: "082 123 4567",
        internetSpeed: "25 Mbps",
        package: "3 Months",
        duration: "3 Months",
        immediateStartConsent: true,
      });
    });

    it("what is typed while its code takes over the fields is kept, and sent", async () => {
      const { sent } = installFetch();
      const container = await renderOrder("/", { touched: false });
      await fill(container, "name", "Thandi");
      // The visitor goes on typing after the code has read the fields, before it holds them.
      gap.type = (form) => {
        (form.elements.namedItem("name") as HTMLInputElement).value = "Thandi Mokoena";
        (form.elements.namedItem("email") as HTMLInputElement).value = "thandi@example.co.za";
      };
      await touch(container);
      expect(gap.type).toBeNull();
      expect(field(container, "name").value).toBe("Thandi Mokoena");
      expect(field(container, "email").value).toBe("thandi@example.co.za");
      await fill(container, "whatsapp", "082 123 4567");
      await fill(container, "duration", "free-trial");
      await submit(container);
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0].body).toMatchObject({ name: "Thandi Mokoena", email: "thandi@example.co.za", whatsapp: "082 123 4567" });
    });

    it("a pricing card's selectDuration loads its code and selects the duration and package", async () => {
      installFetch();
      const container = await renderOrder("/", { touched: false });
      await act(async () => {
        emitSelectDuration("monthly");
      });
      await waitFor(() => expect(field<HTMLSelectElement>(container, "duration").value).toBe("1 Month"));
      expect(field<HTMLSelectElement>(container, "package").value).toBe("Month to Month");
      expect(container.querySelector("form")?.dataset.ready).toBe("true");
      // Taken once: a later form does not apply it again.
      expect(takePendingDuration()).toBeNull();
    });
  });
});
