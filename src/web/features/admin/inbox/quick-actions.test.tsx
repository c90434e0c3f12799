// The thread's quick actions: for a client, the renew link written into the reply box (and sent
// through the reply endpoint), the line details queued again (once per tap, by its Idempotency-Key,
// their state shown live from the thread), the record-payment dialog with the client fetched and
// fixed; for a lead, the convert dialog with the lead fetched.

import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InboxMessage, InboxThread, LineDetailsResent } from "@/shared/api";
import type { AdminClientDetail, AdminLead } from "@/shared/business-schemas";
import { cleanup, testQueryClient } from "@/web/testing/render";
import { shimSelectDefaults } from "../catalogue/components/test-helpers";
import { InboxSection } from "./inbox-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
shimSelectDefaults();

const NUMBER = "27825552001";
const CLIENT_ID = "11111111-1111-4111-8111-111111111111";
const LEAD_ID = "22222222-2222-4222-8222-222222222222";
const PKG = "00000000-0000-4000-8000-000000000001";
const PACKAGES = [
  { id: PKG, name: "Month to Month", price: 450, price_today: 450, duration: "1 Month", duration_months: 1, is_active: true },
];

const CLIENT_THREAD: InboxThread = {
  number: NUMBER,
  name: "Thandi Mokoena",
  client_id: CLIENT_ID,
  lead_id: null,
  window_open_until: "2026-11-27T06:00:00.000Z",
  cloud_api: true,
  messages: [],
  customer: {
    kind: "client",
    id: CLIENT_ID,
    name: "Thandi Mokoena",
    status: "active",
    subscription_end: "2027-01-31T22:00:00.000Z",
    package: "Month to Month",
    panel_username: "thandi_line",
    email: "",
    payments: [],
  },
};
const LEAD_THREAD: InboxThread = {
  ...CLIENT_THREAD,
  name: "Sipho K",
  client_id: null,
  lead_id: LEAD_ID,
  customer: {
    kind: "lead",
    id: LEAD_ID,
    name: "Sipho K",
    status: "new",
    subscription_end: null,
    package: "",
    panel_username: "",
    email: "",
    payments: [],
  },
};

const RESENT: LineDetailsResent = {
  client_id: CLIENT_ID,
  replayed: false,
  cloud_api: false,
  queued: [
    { id: "ld-wa", channel: "whatsapp", hint: "ending 2001", status: "pending", delivery_status: null },
    { id: "ld-mail", channel: "email", hint: "t***@example.test", status: "pending", delivery_status: null },
  ],
};

function outboxCredentials(status: string, delivery: string | null): InboxMessage {
  return {
    id: "ld-wa",
    source: "outbox",
    direction: "out",
    type: "credentials",
    text: "Hi Thandi, here are your line details",
    media_id: null,
    media_mime: null,
    at: "2026-11-26T07:00:00.000Z",
    status,
    delivery_status: delivery,
    wamid: null,
    error: null,
    sent_via: null,
  };
}

const CLIENT = {
  id: CLIENT_ID,
  username: "thandi.m",
  full_name: "Thandi Mokoena",
  email: "",
  whatsapp: NUMBER,
  communication_method: "whatsapp",
  marketing_opt_in: false,
  marketing_opt_in_at: null,
  package_id: PKG,
  package_name: "Month to Month",
  status: "active",
  subscription_start: "2026-11-01T10:00:00.000Z",
  subscription_end: "2027-02-01T10:00:00.000Z",
  device: "firestick",
  internet_platform: "fibre",
  line_username: "thandi_line",
  line_password: "",
  line_portal_url: "",
  panel_line_id: null,
  line_expires_at: null,
  line_enabled: true,
  line_is_test: false,
  line_sync_issue: "",
  line_type: "m3u",
  line_mac: "",
  possible_duplicate_of: null,
  merged_into: null,
  notes: "",
  created_at: "2026-11-01T10:00:00.000Z",
  updated_at: "2026-11-01T10:00:00.000Z",
  payments: [],
  leads: [],
  content_requests: [],
  messages: [],
  lifecycle: [],
  related: null,
  flagged_duplicates: [],
} as AdminClientDetail;

const LEAD: AdminLead = {
  id: LEAD_ID,
  form_type: "whatsapp",
  name: "Sipho K",
  email: "",
  whatsapp: NUMBER,
  whatsapp_digits: NUMBER,
  package_name: "",
  package_price: "",
  duration: "",
  device: "",
  internet_platform: "",
  other_platform: "",
  internet_speed: "",
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
  whatsapp_url: `https://wa.me/${NUMBER}?text=Hi`,
};

let requests: { method: string; url: string; body: unknown; key?: string }[];
let thread: InboxThread;
/** what POST …/resend-line-details answers next: [status, body], or "network" for a dropped connection */
let resendAnswers: ([number, unknown] | "network")[];
/** the thread as it reads once a resend was answered (the outbox row the server queued) */
let threadAfterResend: InboxThread | null;

beforeEach(() => {
  requests = [];
  thread = CLIENT_THREAD;
  resendAnswers = [];
  threadAfterResend = null;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const key = (init?.headers as Record<string, string> | undefined)?.["Idempotency-Key"];
    requests.push({ method, url: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined, ...(key ? { key } : {}) });
    const json = (status: number, payload: unknown) =>
      new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
    const route = `${method} ${url.pathname}`;
    if (route === "GET /api/admin/inbox") return json(200, { data: [] });
    if (route === "GET /api/admin/inbox/unread") return json(200, { data: { unread: 0 } });
    if (route === `GET /api/admin/inbox/${NUMBER}`) return json(200, { data: thread });
    if (route === `POST /api/admin/inbox/${NUMBER}/reply`)
      return json(200, { success: true, data: { message: { id: "r" }, waLink: null } });
    if (route === `POST /api/admin/inbox/${NUMBER}/resend-line-details`) {
      const next = resendAnswers.shift() ?? [500, {}];
      if (next === "network") throw new TypeError("Failed to fetch");
      if (threadAfterResend) thread = threadAfterResend;
      return json(next[0], next[1]);
    }
    if (route === `GET /api/admin/clients/${CLIENT_ID}`) return json(200, { data: CLIENT });
    if (route === `GET /api/admin/leads/${LEAD_ID}`) return json(200, { data: LEAD });
    if (route === "GET /api/admin/packages") return json(200, { data: PACKAGES });
    if (route === "GET /api/admin/settings") return json(200, { data: [] });
    if (route === "POST /api/admin/payments") return json(201, { data: { id: "p9", amount: 450 } });
    if (route === `POST /api/admin/leads/${LEAD_ID}/convert`)
      return json(201, {
        renewed: false,
        client: { id: "c1", username: "sipho.k", full_name: "Sipho K" },
        queued_to: [{ channel: "whatsapp", hint: "ending 2001" }],
        lead: { ...LEAD, status: "converted", client_id: "c1" },
      });
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

function renderThread() {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[`/admin/inbox/${NUMBER}`]}>
        <Routes>
          <Route path="/admin/:section/:subsection?" element={<InboxSection />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const facts = () => screen.findByRole("complementary");
const posts = () => requests.filter((r) => r.method === "POST");

describe("the thread's quick actions for a client", () => {
  it("writes the renew link into the reply box, and Send posts it to the reply endpoint", async () => {
    renderThread();
    fireEvent.click(within(await facts()).getByRole("button", { name: "Send renew link" }));
    const box = screen.getByLabelText<HTMLTextAreaElement>(/Reply/);
    await waitFor(() =>
      expect(box.value).toBe(`Hi Thandi, you can renew your subscription here: ${window.location.origin}/client?renew=1`),
    );
    expect(document.activeElement).toBe(box);
    expect(posts()).toEqual([]); // nothing goes before the owner taps Send
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() =>
      expect(posts()).toEqual([
        { method: "POST", url: `/api/admin/inbox/${NUMBER}/reply`, body: { text: expect.stringContaining("/client?renew=1") } },
      ]),
    );
  });

  it("resends the line details once per tap and shows where they went and their state, live from the thread", async () => {
    resendAnswers = [[201, { success: true, data: RESENT }]];
    // once queued, the worker hands the WhatsApp one to the owner (no Cloud API): the refetched thread has it so
    threadAfterResend = { ...CLIENT_THREAD, messages: [outboxCredentials("owner", null)] };
    renderThread();
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    const note = await within(await facts()).findByTestId("line-details-queued");
    const resends = posts();
    expect(resends).toEqual([
      {
        method: "POST",
        url: `/api/admin/inbox/${NUMBER}/resend-line-details`,
        body: undefined,
        key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
    expect(note.textContent).toContain("E-mail t***@example.test");
    expect(
      within(note)
        .getByText(/E-mail/)
        .closest("li")?.textContent,
    ).toContain("queued");
    // the WhatsApp one as the refetched thread has it: waiting for the owner, with the way to the queue
    await waitFor(() =>
      expect(within(note).getByRole("link", { name: "To send on WhatsApp" }).getAttribute("href")).toBe("/admin/outbox?status=owner"),
    );
    expect(note.textContent).toContain("WhatsApp ending 2001");

    // a second tap is a second click: a new key
    resendAnswers = [[201, { success: true, data: RESENT }]];
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts()[1].key).not.toBe(resends[0].key);
  });

  it("shows the delivery state the thread has for the WhatsApp message (read), not the state when queued", async () => {
    resendAnswers = [[201, { success: true, data: RESENT }]];
    thread = { ...CLIENT_THREAD, messages: [outboxCredentials("sent", "read")] };
    renderThread();
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    const note = await within(await facts()).findByTestId("line-details-queued");
    const whatsapp = within(note)
      .getByText(/WhatsApp ending 2001/)
      .closest("li") as HTMLElement;
    expect(whatsapp.textContent).toContain("read");
  });

  it("shows the server's refusal; after a dropped connection the next tap reuses the same key", async () => {
    resendAnswers = ["network", [201, { success: true, data: RESENT }]];
    renderThread();
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    expect((await within(await facts()).findByRole("alert")).textContent).toContain("nothing is sent twice");
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    await within(await facts()).findByTestId("line-details-queued");
    const [first, second] = posts();
    expect(second.key).toBe(first.key);

    resendAnswers = [[409, { error: { code: "conflict", message: "This client has no line yet." } }]];
    fireEvent.click(within(await facts()).getByRole("button", { name: "Resend line details" }));
    expect((await within(await facts()).findByRole("alert")).textContent).toBe("This client has no line yet.");
    expect(posts()[2].key).not.toBe(first.key);
    expect(within(await facts()).queryByTestId("line-details-queued")).toBeNull();
  });

  it("opens the record-payment dialog for this client and posts the payment", async () => {
    renderThread();
    fireEvent.click(within(await facts()).getByRole("button", { name: "Record payment" }));
    const dialog = await screen.findByRole("dialog");
    expect(requests.some((r) => r.url === `/api/admin/clients/${CLIENT_ID}`)).toBe(true);
    expect(dialog.textContent).toContain("Thandi Mokoena");
    expect(dialog.textContent).toContain("thandi.m");
    await waitFor(() => expect(within(dialog).getByRole<HTMLInputElement>("textbox", { name: /Amount/ }).value).toBe("450"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Record payment" }));
    await waitFor(() =>
      expect(posts()).toEqual([
        {
          method: "POST",
          url: "/api/admin/payments",
          body: expect.objectContaining({ client_id: CLIENT_ID, package_id: PKG, amount: 450 }),
        },
      ]),
    );
  });
});

describe("the thread's quick action for a lead", () => {
  it("opens the convert dialog for the lead and posts the conversion", async () => {
    thread = LEAD_THREAD;
    renderThread();
    const aside = await facts();
    expect(within(aside).queryByRole("button", { name: "Record payment" })).toBeNull();
    fireEvent.click(within(aside).getByRole("button", { name: "Convert lead" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: "Convert to client" })).toBeTruthy();
    fireEvent.click(await within(dialog).findByRole("button", { name: "Create client" }));
    await waitFor(() => expect(posts().map((r) => r.url)).toEqual([`/api/admin/leads/${LEAD_ID}/convert`]));
  });
});
