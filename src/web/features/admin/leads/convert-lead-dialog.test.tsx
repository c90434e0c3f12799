import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminLead } from "@/shared/business-schemas";
import { cleanup, click, getByRoleName, render, testQueryClient, waitFor } from "@/web/testing/render";
import { shimSelectDefaults } from "../catalogue/components/test-helpers";
import { ConvertLeadDialog } from "./convert-lead-dialog";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
shimSelectDefaults();

const PACKAGE_ID = "00000000-0000-4000-8000-000000000002";
const LEAD: AdminLead = {
  id: "11111111-1111-4111-8111-111111111111",
  form_type: "order",
  name: "Thabo Mokoena",
  email: "thabo@example.co.za",
  whatsapp: "0825551234",
  whatsapp_digits: "27825551234",
  package_name: "3 Months",
  package_price: "1650",
  duration: "3 Months",
  device: "android",
  internet_platform: "fibre",
  other_platform: "",
  internet_speed: "50 Mbps",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  payload: {},
  status: "new",
  client_id: null,
  client: null,
  ip: "",
  notes: "",
  created_at: "2026-11-22T06:00:00.000Z",
  updated_at: "2026-11-22T06:00:00.000Z",
  whatsapp_url: "https://wa.me/27825551234?text=Hi",
};
const PACKAGES = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    name: "Month to Month",
    price: 650,
    price_today: 650,
    duration: "1 Month",
    duration_months: 1,
    is_active: true,
  },
  // on special today
  { id: PACKAGE_ID, name: "3 Months", price: 1650, price_today: 1450, duration: "3 Months", duration_months: 3, is_active: true },
];
const RETURNING = { id: "c9", username: "thabo.m", full_name: "Thabo Mokoena", status: "expired" };

let requests: { method: string; path: string; body: unknown }[];

function stubApi(lead: AdminLead = LEAD) {
  requests = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    requests.push({ method: init?.method ?? "GET", path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (path === "/api/admin/packages") return json(200, { data: PACKAGES });
    if (path === `/api/admin/leads/${lead.id}/convert`) {
      if (lead.client)
        return json(200, {
          renewed: true,
          client: { id: RETURNING.id, username: RETURNING.username, full_name: RETURNING.full_name, package_name: "3 Months" },
          queued_to: [{ channel: "whatsapp", hint: "ending 0101" }],
          lead: { ...lead, status: "converted" },
        });
      return json(201, {
        renewed: false,
        client: { id: "c1", username: "thabo.m", full_name: "Thabo Mokoena" },
        queued_to: [
          { channel: "whatsapp", hint: "ending 4567" },
          { channel: "email", hint: "t***@example.co.za" },
        ],
        lead: { ...lead, status: "converted", client_id: "c1" },
      });
    }
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
}

function Harness({ lead = LEAD }: { lead?: AdminLead }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Reopen
      </button>
      <ConvertLeadDialog lead={lead} open={open} onOpenChange={setOpen} />
    </>
  );
}

const body = () => document.body;

beforeEach(() => stubApi());
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("ConvertLeadDialog", () => {
  it("converts with the lead's package, waiting for the first payment, and says where the set-password link was queued (no password)", async () => {
    const { container } = await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <Harness />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    // the package the lead asked for is chosen once the packages arrive
    await waitFor(() => expect(body().querySelector<HTMLSelectElement>("select")?.value).toBe(PACKAGE_ID));
    // no dates and no 'active': a new client waits for payment or starts a trial
    expect(body().querySelector<HTMLInputElement>("input[value=pending]")?.checked).toBe(true);
    expect(body().querySelector("input[value=trial]")).not.toBeNull();
    expect(body().querySelector("input[value=active], input[type=date]")).toBeNull();
    // the package priced as the client would pay today
    expect(body().querySelector(`option[value="${PACKAGE_ID}"]`)?.textContent).toBe("3 Months · R1,450 (special)");
    expect(body().textContent).toContain("They'd pay R1,450 today (special; normally R1,650).");

    await click(getByRoleName(body(), "button", "Create client"));
    await waitFor(() =>
      expect(body().querySelector("[data-testid=queued-to]")?.textContent).toContain(
        "A link to choose a password was queued to WhatsApp ending 4567 and e-mail t***@example.co.za.",
      ),
    );
    const convert = requests.find((r) => r.method === "POST");
    expect(convert).toEqual({
      method: "POST",
      path: `/api/admin/leads/${LEAD.id}/convert`,
      body: { package_id: PACKAGE_ID, start: "pending" },
    });
    expect(body().textContent).toContain("thabo.m");
    expect(body().textContent).toContain('waits for you under "To send on WhatsApp"');
    // no password to copy by hand, none promised
    expect(body().querySelector("[data-testid=one-time-password]")).toBeNull();
    expect(body().textContent).not.toMatch(/shown only once|comes separately/);

    // reopening shows the form again
    await click(getByRoleName(body(), "button", "Done"));
    await waitFor(() => expect(body().querySelector("[data-testid=queued-to]")).toBeNull());
    await click(getByRoleName(container, "button", "Reopen"));
    await waitFor(() => expect(getByRoleName(body(), "button", "Create client")).toBeTruthy());
  });

  it("checks the username with the shared rule before calling the server", async () => {
    await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <Harness />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const input = await waitFor(() => {
      const found = body().querySelector<HTMLInputElement>("input[placeholder='Made from their name']");
      if (!found) throw new Error("no username input");
      return found;
    });
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    const { act } = await import("react");
    await act(async () => {
      setter?.call(input, "x!");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await click(getByRoleName(body(), "button", "Create client"));
    await waitFor(() => expect(input.getAttribute("aria-invalid")).toBe("true"));
    const errorId = input
      .getAttribute("aria-describedby")
      ?.split(" ")
      .find((id) => id.endsWith("-error"));
    expect(errorId && document.getElementById(errorId)?.textContent).toMatch(/Usernames are 3-40 characters/);
    expect(requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("starts a free-trial lead on the trial by default", async () => {
    const trialLead = { ...LEAD, form_type: "free-trial", package_name: "", package_price: "FREE", duration: "24 Hours" };
    stubApi(trialLead);
    await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <Harness lead={trialLead} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(body().querySelector<HTMLInputElement>("input[value=trial]")?.checked).toBe(true));
    await click(getByRoleName(body(), "button", "Create client"));
    await waitFor(() => expect(requests.find((r) => r.method === "POST")?.body).toEqual({ start: "trial" }));
  });

  it("renews a returning client: says so, sends only the package, and shows no password", async () => {
    const returning: AdminLead = { ...LEAD, client_id: RETURNING.id, client: RETURNING };
    stubApi(returning);
    await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <Harness lead={returning} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(body().querySelector<HTMLSelectElement>("select")?.value).toBe(PACKAGE_ID));
    expect(body().textContent).toContain(
      "This person is already a client: converting renews their account (no second account) and queues them a renewal link",
    );
    expect(body().querySelector(`a[href="/admin/client/${RETURNING.id}"]`)?.textContent).toBe("Thabo Mokoena (thabo.m)");
    // no new account: no username to choose, no start
    expect(body().querySelector("input[placeholder='Made from their name']")).toBeNull();
    expect(body().querySelector("input[type=radio]")).toBeNull();

    await click(getByRoleName(body(), "button", "Renew client"));
    await waitFor(() => expect(body().textContent).toContain("Thabo Mokoena was renewed"));
    expect(requests.find((r) => r.method === "POST")?.body).toEqual({ package_id: PACKAGE_ID });
    expect(body().querySelector("[data-testid=queued-to]")?.textContent).toContain("A renewal link was queued to WhatsApp ending 0101.");
    expect(body().querySelector("[data-testid=one-time-password]")).toBeNull();
    expect(body().textContent).not.toContain("This password is shown only once");
  });
});
