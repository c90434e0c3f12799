// The instant free trial in the storefront (issue 27): the order answers 202 {trialId, sentTo}, the
// form gives way to the code step (no WhatsApp opens); a wrong code shows the server's words on the
// code field; the right one shows the result screen, which asks again until the line's details are there.
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Package } from "@/shared/api";
import { CODE_ROUTE_MESSAGES } from "@/shared/schemas";
import type { TrialView } from "@/shared/trial-schemas";
import { SEND_CODE_ON_WHATSAPP } from "@/web/components/send-code-on-whatsapp";
import { cleanup, renderRoutes, waitFor } from "@/web/testing/render";
import { TRIAL_CODE_LIFE_MS, TRIAL_POLL_MS, trialQuery } from "./api/trial";
import { INSTANT_TRIAL_MESSAGES } from "./instant-trial";
import { OrderSection } from "./order-section";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock("@/web/lib/toast", () => ({ toast }));

const PACKAGES: Package[] = [
  {
    id: "p1",
    name: "Month to Month",
    price: 650,
    duration: "1 Month",
    duration_months: 1,
    features: [],
    description: "",
    is_featured: false,
    sort_order: 1,
    is_active: true,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  },
];
const TRIAL_ID = "6b1f3a52-0000-4000-8000-000000000001";
const LINE = {
  username: "trial123",
  password: "s3cret",
  server_url: "http://tv.example",
  m3u_url: "http://tv.example/get.php",
  expires_at: null,
};

type Answer = { status: number; body: unknown };
function installFetch(options: { order?: Answer; resend?: Answer[]; states?: TrialView["state"][] } = {}) {
  const resends = [...(options.resend ?? [])];
  const posted: { path: string; body: unknown }[] = [];
  let reads = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const view = (state: TrialView["state"], line: TrialView["line"] = null): TrialView => ({
    id: TRIAL_ID,
    state,
    sentTo: "WhatsApp ending 4567",
    endsAt: "2026-11-27T10:00:00.000Z",
    line,
    message: state === "ready" ? "Your line is ready. The details were also sent to you." : "We are making your line now.",
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), "http://localhost").pathname;
      if (path === "/api/packages") return json(200, { data: PACKAGES });
      if (path === "/api/specials") return json(200, { data: [] });
      if (path === "/api/settings") return json(200, { data: {} });
      if (path === "/api/trial-availability") return json(200, { data: { available: true, reason: "", day: "2026-11-26" } });
      if (init?.method === "POST") posted.push({ path, body: JSON.parse(String(init.body ?? "null")) });
      if (path === "/api/orders") {
        const answer = options.order ?? {
          status: 202,
          body: { success: true, id: "lead-1", trialId: TRIAL_ID, sentTo: "WhatsApp ending 4567" },
        };
        return json(answer.status, answer.body);
      }
      if (path === `/api/trials/${TRIAL_ID}/resend`) {
        const answer = resends.shift() ?? { status: 500, body: { error: { code: "internal", message: "no more answers" } } };
        return json(answer.status, answer.body);
      }
      if (path === `/api/trials/${TRIAL_ID}/verify`) {
        const { code } = JSON.parse(String(init?.body));
        if (code !== "123456") {
          const message = "That code is not right. Check the code we sent and try again. 4 tries left.";
          return json(400, { error: { code: "validation", message, fields: { code: message } } });
        }
        return json(201, view("provisioning"));
      }
      if (path === `/api/trials/${TRIAL_ID}`) {
        reads += 1;
        const state = options.states?.[Math.min(reads, options.states.length) - 1];
        if (state) return json(200, view(state));
        return json(200, reads < 2 ? view("provisioning") : view("ready", LINE));
      }
      return json(404, { error: { code: "not_found", message: "Not found." } });
    }),
  );
  return { posted };
}

async function type(container: HTMLElement, selector: string, value: string) {
  const el = container.querySelector<HTMLInputElement | HTMLSelectElement>(selector);
  if (!el) throw new Error(`no ${selector}`);
  await act(async () => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
}
async function submit(form: Element | null) {
  await act(async () => {
    form?.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  });
}

beforeEach(() => {
  sessionStorage.clear();
  Object.defineProperty(window, "open", { configurable: true, writable: true, value: vi.fn(() => null) });
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the instant free trial", () => {
  it("order → code step → a wrong code on the field → the right code → the line's details when they exist", async () => {
    const { posted } = installFetch();
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], "/");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#order-package")?.textContent ?? "").toContain("Month to Month"));
    await type(container, "#order-name", "Thandi Mokoena");
    await type(container, "#order-email", "thandi@example.co.za");
    await type(container, "#order-whatsapp", "082 123 4567");
    await type(container, "#order-duration", "free-trial");
    await submit(container.querySelector('form[aria-label="Order form"]'));

    await waitFor(() => expect(container.textContent).toContain(INSTANT_TRIAL_MESSAGES.codeTitle));
    expect(container.textContent).toContain("We sent a code to WhatsApp ending 4567");
    expect(window.open).not.toHaveBeenCalled();
    const code = container.querySelector<HTMLInputElement>("#trial-code");
    expect(code?.getAttribute("autocomplete")).toBe("one-time-code");

    await type(container, "#trial-code", "12");
    await submit(container.querySelector('form[aria-label="Free trial code"]'));
    await waitFor(() => expect(container.querySelector("#trial-code-error")?.textContent).toBe("Enter the 6-digit code we sent"));

    await type(container, "#trial-code", "654321");
    await submit(container.querySelector('form[aria-label="Free trial code"]'));
    await waitFor(() => expect(container.querySelector("#trial-code-error")?.textContent).toContain("That code is not right"));
    expect(code?.getAttribute("aria-describedby")).toContain("trial-code-error");

    await type(container, "#trial-code", "123 456");
    await submit(container.querySelector('form[aria-label="Free trial code"]'));
    await waitFor(() => expect(container.querySelector('[data-testid="trial-result"]')).not.toBeNull());
    await waitFor(() => expect(container.querySelector('[data-testid="trial-line"]')?.textContent).toContain("trial123"), 4500);
    expect(container.textContent).toContain(INSTANT_TRIAL_MESSAGES.readyTitle);
    expect(container.textContent).toContain("s3cret");
    expect(posted.filter((p) => p.path.endsWith("/verify")).map((p) => p.body)).toEqual([{ code: "654321" }, { code: "123456" }]);
  });

  it("says where the code really went (an e-mail address), puts a refused new code's reason at the code field, and follows a new code elsewhere", async () => {
    const noRoute = CODE_ROUTE_MESSAGES.trialResend;
    installFetch({
      order: { status: 202, body: { success: true, id: "lead-1", trialId: TRIAL_ID, sentTo: "t***@example.co.za" } },
      resend: [
        { status: 409, body: { error: { code: "no_code_route", message: noRoute, fields: { code: noRoute } } } },
        { status: 202, body: { trialId: TRIAL_ID, sentTo: "WhatsApp ending 4567" } },
      ],
    });
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], "/");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#order-package")?.textContent ?? "").toContain("Month to Month"));
    await type(container, "#order-name", "Thandi Mokoena");
    await type(container, "#order-email", "thandi@example.co.za");
    await type(container, "#order-whatsapp", "082 123 4567");
    await type(container, "#order-duration", "free-trial");
    await submit(container.querySelector('form[aria-label="Order form"]'));

    await waitFor(() => expect(container.textContent).toContain("We sent a code to t***@example.co.za,"));
    expect(container.textContent).not.toContain("WhatsApp ending");
    const resend = () => [...container.querySelectorAll("button")].find((b) => b.textContent === "Send a new code");
    await act(async () => resend()?.click());
    await waitFor(() => expect(container.querySelector("#trial-code-error")?.textContent).toBe(noRoute));
    await act(async () => resend()?.click());
    await waitFor(() => expect(container.textContent).toContain("We sent a code to WhatsApp ending 4567,"));
  });

  it("offers one button that writes the code to us on WhatsApp beside the e-mailed code's field, and moves on by itself once that message started the trial", async () => {
    const waLink = "https://wa.me/27821234567?text=My%20StreamDesk%20code%3A%20482913";
    const { posted } = installFetch({
      order: { status: 202, body: { success: true, id: "lead-1", trialId: TRIAL_ID, sentTo: "t***@example.co.za", waLink } },
      states: ["awaiting-code", "provisioning"],
    });
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], "/");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#order-package")?.textContent ?? "").toContain("Month to Month"));
    await type(container, "#order-name", "Thandi Mokoena");
    await type(container, "#order-email", "thandi@example.co.za");
    await type(container, "#order-whatsapp", "082 123 4567");
    await type(container, "#order-duration", "free-trial");
    await submit(container.querySelector('form[aria-label="Order form"]'));

    await waitFor(() => expect(container.textContent).toContain("We sent a code to t***@example.co.za,"));
    const buttons = [...container.querySelectorAll("a")].filter((a) => a.textContent === SEND_CODE_ON_WHATSAPP);
    expect(buttons).toHaveLength(1);
    expect(buttons[0].getAttribute("href")).toBe(waLink);
    expect(buttons[0].getAttribute("target")).toBe("_blank");
    expect(container.querySelector("#trial-code")).not.toBeNull();
    // nothing typed: the trial page asked again and found the trial started by the message
    await waitFor(() => expect(container.querySelector('[data-testid="trial-result"]')).not.toBeNull(), 4500);
    expect(container.textContent).toContain(INSTANT_TRIAL_MESSAGES.waitingTitle);
    expect(posted.filter((p) => p.path.endsWith("/verify"))).toEqual([]);
  });

  it("without the link (no webhook) there is no WhatsApp button and the trial is not asked after before the code", async () => {
    installFetch({ order: { status: 202, body: { success: true, id: "lead-1", trialId: TRIAL_ID, sentTo: "t***@example.co.za" } } });
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], "/");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#order-package")?.textContent ?? "").toContain("Month to Month"));
    await type(container, "#order-name", "Thandi Mokoena");
    await type(container, "#order-email", "thandi@example.co.za");
    await type(container, "#order-whatsapp", "082 123 4567");
    await type(container, "#order-duration", "free-trial");
    await submit(container.querySelector('form[aria-label="Order form"]'));
    await waitFor(() => expect(container.textContent).toContain("We sent a code to t***@example.co.za,"));
    expect(container.textContent).not.toContain(SEND_CODE_ON_WHATSAPP);
    const reads = vi
      .mocked(fetch)
      .mock.calls.filter(([input]) => new URL(String(input), "http://localhost").pathname === `/api/trials/${TRIAL_ID}`);
    expect(reads).toEqual([]);
  });

  it("shows a trial refused for today at the free-trial choice, not only in a toast", async () => {
    const message = "Free trials from your internet connection are used up for today. Please try again tomorrow or choose a paid package.";
    installFetch({ order: { status: 409, body: { error: { code: "trial_limit", message, fields: { duration: message } } } } });
    const { rendered } = renderRoutes([{ path: "/", element: <OrderSection /> }], "/");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#order-package")?.textContent ?? "").toContain("Month to Month"));
    await type(container, "#order-name", "Thandi Mokoena");
    await type(container, "#order-email", "thandi@example.co.za");
    await type(container, "#order-whatsapp", "082 123 4567");
    await type(container, "#order-duration", "free-trial");
    await submit(container.querySelector('form[aria-label="Order form"]'));
    await waitFor(() => expect(container.querySelector("#order-duration-error")?.textContent).toBe(message));
    expect(container.querySelector("#order-duration")?.getAttribute("aria-describedby")).toContain("order-duration-error");
  });
});

describe("asking after the trial", () => {
  type Interval = (query: { state: { data: { state: TrialView["state"] } | undefined } }) => number | false;
  const interval = (awaitCodeUntil: number, state?: TrialView["state"]) =>
    (trialQuery(TRIAL_ID, awaitCodeUntil).refetchInterval as unknown as Interval)({ state: { data: state ? { state } : undefined } });

  it("asks after a trial waiting for its code only while that code still works, and a started one until its line is there", () => {
    const works = Date.now() + TRIAL_CODE_LIFE_MS;
    const expired = Date.now() - 1;
    expect(interval(works, "awaiting-code")).toBe(TRIAL_POLL_MS);
    expect(interval(works)).toBe(TRIAL_POLL_MS);
    expect(interval(expired, "awaiting-code")).toBe(false);
    expect(interval(expired)).toBe(false);
    // once started, the line is waited for whatever the code's age
    expect(interval(expired, "provisioning")).toBe(TRIAL_POLL_MS);
    expect(interval(works, "ready")).toBe(false);
    expect(interval(works, "failed")).toBe(false);
  });
});
