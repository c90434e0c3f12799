// /account-management: the WhatsApp number and e-mail address change only with a code sent to the
// new one (issue 24). The profile form keeps the name and channel; each contact opens a dialog:
// the new value → "Send code" (POST contact-change) → the code → "Confirm" (POST confirm).
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientProfile } from "@/shared/client-schemas";
import { CODE_ROUTE_MESSAGES, VERIFICATION_CODE_MESSAGES } from "@/shared/schemas";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, renderRoutes, waitFor } from "@/web/testing/render";
import { AccountManagementPage } from "./account-management-page";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const ME: ClientProfile = {
  id: "c1",
  username: "thandi",
  full_name: "Thandi Nkosi",
  email: "thandi@example.test",
  whatsapp: "27821234567",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  marketing_opt_in_at: null,
  status: "active",
  subscription: {
    status: "active",
    package: "Month to Month",
    package_id: null,
    start: "2026-10-22T10:00:00.000Z",
    end: "2026-11-22T10:00:00.000Z",
    days_left: 23,
  },
  device: "firestick",
  device_label: "Amazon Fire Stick",
  internet_platform: "fibre",
  line: null,
  created_at: "2026-10-22T10:00:00.000Z",
} as ClientProfile;

interface Recorded {
  method: string;
  path: string;
  body: unknown;
}
type Answer = { status?: number; body: unknown };

/** Answers `routes['METHOD /path']` (GET when no method is named) after /api; records each request. */
function stubApi(routes: Record<string, Answer | (() => Answer)>) {
  const requests: Recorded[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname.replace(/^\/api/, "");
    const method = init?.method ?? "GET";
    requests.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const route = routes[`${method} ${path}`] ?? (method === "GET" ? routes[path] : undefined);
    const answer = (typeof route === "function" ? route() : route) ?? {
      status: 404,
      body: { error: { code: "not_found", message: "Not found." } },
    };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  });
  return requests;
}

/** The portal's reads; `server.me` is what GET /client/me answers (a confirmed change updates it). */
const server = { me: ME };
const portal = (extra: Record<string, Answer | (() => Answer)> = {}) =>
  stubApi({
    "/client/session": { body: { success: true, client: { id: "c1", username: "thandi", full_name: "Thandi Nkosi", status: "active" } } },
    "/client/me": () => ({ body: { data: server.me } }),
    "/client/billing-details": { body: { data: { company: "", address: "", vatNumber: "" } } },
    "/client/status-updates": { body: { data: { subscribed: false, channel: "whatsapp" } } },
    "/branding": { body: { data: { company_name: "Umoya TV" } } },
    ...extra,
  });

const routes = [{ path: "/account-management", Component: AccountManagementPage }];

async function typeInto(input: HTMLElement, value: string) {
  await act(async () => {
    fireEvent.input(input, { target: { value } });
  });
}

/** The message tied to a field (its aria-describedby '-error' element). */
const fieldError = (input: HTMLElement) => {
  const id = input
    .getAttribute("aria-describedby")
    ?.split(" ")
    .find((part) => part.endsWith("-error"));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

const openDialog = () => waitFor(() => screen.getByRole("dialog"));

beforeEach(() => {
  server.me = ME;
  vi.stubGlobal("EventSource", undefined);
  vi.mocked(toast.success).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the account page's data download (POPIA s23)", () => {
  it("offers 'Download my data' as a download of the client's own export", async () => {
    portal({});
    const { rendered } = renderRoutes(routes, "/account-management");
    const { container } = await rendered;
    const link = await waitFor(() => {
      const found = [...container.querySelectorAll<HTMLAnchorElement>("a")].find((a) => a.textContent === "Download my data");
      expect(found).toBeTruthy();
      return found as HTMLAnchorElement;
    });
    expect(link.getAttribute("href")).toBe("/api/client/data-export");
    expect(link.hasAttribute("download")).toBe(true);
  });
});

describe("changing a contact on the account page", () => {
  it("shows the number and address as they are, each with Change, and the form no longer edits them", async () => {
    const requests = portal({ "PATCH /client/me": { body: { data: { ...ME, full_name: "Thandi M. Nkosi" } } } });
    const { rendered } = renderRoutes(routes, "/account-management");
    const { container } = await rendered;
    await waitFor(() => expect(container.textContent).toContain("thandi@example.test"));
    expect(container.textContent).toContain(formatPhoneForDisplay(ME.whatsapp));
    expect(screen.getByRole("button", { name: "Change WhatsApp number" }).textContent).toBe("Change");
    expect(screen.getByRole("button", { name: "Change E-mail address" }).textContent).toBe("Change");
    expect(screen.queryByLabelText("WhatsApp number")).toBeNull();
    expect(screen.queryByLabelText("E-mail address")).toBeNull();

    await typeInto(screen.getByLabelText("Full name"), "Thandi M. Nkosi");
    await click(getByRoleName(container, "button", "Save details"));
    await waitFor(() =>
      expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({ full_name: "Thandi M. Nkosi", communication_method: "whatsapp" }),
    );
  });

  it("sends a code to the new number, puts the server's refusal of the code on the code field, then confirms", async () => {
    const changed = { ...ME, whatsapp: "27831112222" };
    const WRONG = "That code is not right. 4 tries left.";
    let tries = 0;
    const requests = portal({
      "POST /client/contact-change": { status: 202, body: { sentTo: "WhatsApp ending 2222", channel: "whatsapp" } },
      "POST /client/contact-change/confirm": () => {
        tries += 1;
        if (tries === 1) return { status: 400, body: { error: { code: "invalid", message: WRONG, fields: { code: WRONG } } } };
        server.me = changed;
        return { body: { data: changed } };
      },
    });
    const { rendered } = renderRoutes(routes, "/account-management");
    await rendered;
    await click(await waitFor(() => screen.getByRole("button", { name: "Change WhatsApp number" })));
    const dialog = await openDialog();

    // the schema's rule first: nothing is sent for an empty number
    await click(getByRoleName(dialog, "button", "Send code"));
    const number = within(dialog).getByLabelText("New WhatsApp number");
    await waitFor(() => expect(fieldError(number)).toBe("Please enter a valid WhatsApp number"));
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    await typeInto(number, "083 111 2222");
    await click(getByRoleName(dialog, "button", "Send code"));
    await waitFor(() => expect(dialog.textContent).toContain("We sent a code to WhatsApp ending 2222."));
    expect(requests.find((r) => r.path === "/client/contact-change")?.body).toEqual({ whatsapp: "083 111 2222" });
    // a code never waits for a person: nothing says it is sent by hand
    expect(dialog.textContent).not.toMatch(/by hand|few minutes/);

    const code = within(dialog).getByLabelText("Code");
    expect(code.getAttribute("inputmode")).toBe("numeric");
    expect(code.getAttribute("autocomplete")).toBe("one-time-code");

    // not six digits: the schema says so, nothing is sent
    await typeInto(code, "12");
    await click(getByRoleName(dialog, "button", "Confirm"));
    await waitFor(() => expect(fieldError(code)).toBe(VERIFICATION_CODE_MESSAGES.format));
    expect(requests.some((r) => r.path === "/client/contact-change/confirm")).toBe(false);

    // the server's refusal lands on the code field
    await typeInto(code, "123456");
    await click(getByRoleName(dialog, "button", "Confirm"));
    await waitFor(() => expect(fieldError(code)).toBe(WRONG));
    expect(screen.getByRole("dialog")).toBeTruthy();

    await typeInto(code, "654321");
    await click(getByRoleName(dialog, "button", "Confirm"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.filter((r) => r.path === "/client/contact-change/confirm").map((r) => r.body)).toEqual([
      { code: "123456" },
      { code: "654321" },
    ]);
    expect(toast.success).toHaveBeenCalledWith("WhatsApp number changed", expect.anything());
    // the page shows the new number, and no profile save was made on the way
    await waitFor(() => expect(document.body.textContent).toContain(formatPhoneForDisplay("27831112222")));
    expect(requests.some((r) => r.method === "PATCH")).toBe(false);
  });

  it("puts a refused new number on its field (taken; no code can reach it yet, with what works), and 'Send a new code' goes back to step 1", async () => {
    const taken = "This number is already on another account. Contact us if it is yours.";
    const noRoute = CODE_ROUTE_MESSAGES.whatsappWindow;
    let tries = 0;
    portal({
      "POST /client/contact-change": () => {
        tries += 1;
        if (tries === 1) return { status: 409, body: { error: { code: "conflict", message: taken, fields: { whatsapp: taken } } } };
        if (tries === 2)
          return { status: 409, body: { error: { code: "no_code_route", message: noRoute, fields: { whatsapp: noRoute } } } };
        return { status: 202, body: { sentTo: "WhatsApp ending 3333", channel: "whatsapp" } };
      },
    });
    const { rendered } = renderRoutes(routes, "/account-management");
    await rendered;
    await click(await waitFor(() => screen.getByRole("button", { name: "Change WhatsApp number" })));
    const dialog = await openDialog();
    const number = within(dialog).getByLabelText("New WhatsApp number");
    await typeInto(number, "0831113333");
    await click(getByRoleName(dialog, "button", "Send code"));
    await waitFor(() => expect(fieldError(number)).toBe(taken));

    await click(getByRoleName(dialog, "button", "Send code"));
    await waitFor(() => expect(fieldError(number)).toBe(noRoute));

    await click(getByRoleName(dialog, "button", "Send code"));
    await waitFor(() => expect(dialog.textContent).toContain("We sent a code to WhatsApp ending 3333."));
    await click(getByRoleName(dialog, "button", "Send a new code"));
    await waitFor(() => expect((within(dialog).getByLabelText("New WhatsApp number") as HTMLInputElement).value).toBe("0831113333"));
  });

  it("a new number no code can reach is offered 'Send the code on WhatsApp' alone, and the dialog closes by itself once the message confirmed it", async () => {
    const waLink = "https://wa.me/27821234567?text=My%20Umoya%20TV%20code%3A%20482913";
    let reads = 0;
    const requests = portal({
      "POST /client/contact-change": { status: 202, body: { sentTo: "", channel: "whatsapp", waLink } },
      // the message from the new number arrives while the dialog waits
      "/client/me": () => {
        reads += 1;
        return { body: { data: reads > 2 ? { ...ME, whatsapp: "27834445555" } : ME } };
      },
    });
    const { rendered } = renderRoutes(routes, "/account-management");
    await rendered;
    await click(await waitFor(() => screen.getByRole("button", { name: "Change WhatsApp number" })));
    const dialog = await openDialog();
    await typeInto(within(dialog).getByLabelText("New WhatsApp number"), "083 444 5555");
    await click(getByRoleName(dialog, "button", "Send code"));
    const link = await waitFor(() => within(dialog).getByRole("link", { name: "Send the code on WhatsApp" }));
    expect(link.getAttribute("href")).toBe(waLink);
    expect(dialog.textContent).not.toContain("We sent a code");
    // nothing was sent, so there is no code field to fill in
    expect(within(dialog).queryByLabelText("Code")).toBeNull();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), 9000);
    expect(toast.success).toHaveBeenCalledWith("WhatsApp number changed", expect.anything());
    expect(requests.some((r) => r.path === "/client/contact-change/confirm")).toBe(false);
  }, 15_000);

  it("changes the e-mail address the same way", async () => {
    const requests = portal({
      "POST /client/contact-change": { status: 202, body: { sentTo: "n***@example.test", channel: "email" } },
      "POST /client/contact-change/confirm": () => {
        server.me = { ...ME, email: "new@example.test" };
        return { body: { data: server.me } };
      },
    });
    const { rendered } = renderRoutes(routes, "/account-management");
    await rendered;
    await click(await waitFor(() => screen.getByRole("button", { name: "Change E-mail address" })));
    const dialog = await openDialog();
    await typeInto(within(dialog).getByLabelText("New e-mail address"), "new@example.test");
    await click(getByRoleName(dialog, "button", "Send code"));
    await waitFor(() => expect(dialog.textContent).toContain("We sent a code to n***@example.test."));
    await typeInto(within(dialog).getByLabelText("Code"), "111 222");
    await click(getByRoleName(dialog, "button", "Confirm"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.find((r) => r.path === "/client/contact-change")?.body).toEqual({ email: "new@example.test" });
    // the schema takes the spaces out before it is sent
    expect(requests.find((r) => r.path === "/client/contact-change/confirm")?.body).toEqual({ code: "111222" });
    await waitFor(() => expect(document.body.textContent).toContain("new@example.test"));
  });
});
