// The WhatsApp inbox page: the conversation list with unread counts, a thread with what they
// wrote and what we sent (and how it went), the customer's facts, and the reply box — the shared
// schema's message tied to the field, the server's 409 (window closed) shown, and the wa.me
// link offered when there is no Cloud API.

import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InboxConversation, InboxThread } from "@/shared/api";
import { cleanup, testQueryClient } from "@/web/testing/render";
import { InboxSection } from "./inbox-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const NUMBER = "27825552001";
const CONVERSATIONS: InboxConversation[] = [
  {
    number: NUMBER,
    name: "Thandi Mokoena",
    client_id: "11111111-1111-4111-8111-111111111111",
    lead_id: null,
    last_message_at: "2026-11-26T06:00:00.000Z",
    last_text: "Is my line working?",
    unread: 2,
  },
  {
    number: "27835550999",
    name: "Sipho K",
    client_id: null,
    lead_id: "22222222-2222-4222-8222-222222222222",
    last_message_at: "2026-11-25T06:00:00.000Z",
    last_text: "How much?",
    unread: 0,
  },
];
const THREAD: InboxThread = {
  number: NUMBER,
  name: "Thandi Mokoena",
  client_id: "11111111-1111-4111-8111-111111111111",
  lead_id: null,
  window_open_until: "2026-11-27T06:00:00.000Z",
  cloud_api: true,
  messages: [
    {
      id: "a",
      source: "outbox",
      direction: "out",
      type: "receipt",
      text: "Your receipt: R400 paid.",
      media_id: null,
      media_mime: null,
      at: "2026-11-25T06:00:00.000Z",
      status: "sent",
      delivery_status: "read",
      wamid: "wamid.a",
      error: null,
      sent_via: "cloud-text",
    },
    {
      id: "b",
      source: "inbox",
      direction: "in",
      type: "image",
      text: "My screen shows this",
      media_id: "MEDIA-1",
      media_mime: "image/jpeg",
      at: "2026-11-26T06:00:00.000Z",
      status: null,
      delivery_status: null,
      wamid: "wamid.b",
      error: null,
      sent_via: null,
    },
  ],
  customer: {
    kind: "client",
    id: "11111111-1111-4111-8111-111111111111",
    name: "Thandi Mokoena",
    status: "active",
    subscription_end: "2027-01-31T22:00:00.000Z",
    package: "Month to Month",
    panel_username: "thandi_line",
    email: "",
    payments: [
      { id: "p1", amount: 450, status: "paid", package_name: "Month to Month", provider: "manual", at: "2026-11-01T08:00:00.000Z" },
    ],
  },
};

let requests: { method: string; url: string; body: unknown }[];
let replyAnswer: { status: number; body: unknown };
let thread: InboxThread;

beforeEach(() => {
  requests = [];
  thread = THREAD;
  replyAnswer = { status: 200, body: { success: true, data: { message: { id: "r" }, waLink: null } } };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    requests.push({ method, url: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const json = (status: number, payload: unknown) =>
      new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
    if (url.pathname === "/api/admin/inbox") return json(200, { data: CONVERSATIONS });
    if (url.pathname === "/api/admin/inbox/unread") return json(200, { data: { unread: 2 } });
    if (url.pathname === `/api/admin/inbox/${NUMBER}`) return json(200, { data: thread });
    if (method === "POST" && url.pathname === `/api/admin/inbox/${NUMBER}/reply`) return json(replyAnswer.status, replyAnswer.body);
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin/:section/:subsection?" element={<InboxSection />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the inbox", () => {
  it("lists the conversations, newest first, with their unread counts", async () => {
    renderAt("/admin/inbox");
    const list = await screen.findByRole("navigation", { name: "Conversations" });
    const links = within(list).getAllByRole("link");
    expect(links.map((l) => l.getAttribute("href"))).toEqual([`/admin/inbox/${NUMBER}`, "/admin/inbox/27835550999"]);
    expect(links[0].textContent).toContain("Thandi Mokoena");
    expect(links[0].textContent).toContain("2 unread");
    expect(links[1].textContent).not.toContain("unread");
    expect(screen.getByText("Pick a conversation to read it and reply.")).toBeTruthy();
  });

  it("shows a thread: their messages and ours with how it went, and the customer's facts", async () => {
    renderAt(`/admin/inbox/${NUMBER}`);
    const messages = await screen.findByRole("list", { name: "Messages" });
    const items = within(messages).getAllByRole("listitem");
    expect(items[0].textContent).toContain("Payment receipt");
    expect(items[0].textContent).toContain("Your receipt: R400 paid.");
    expect(items[0].textContent).toContain("read");
    expect(items[1].textContent).toContain("They wrote:");
    expect(items[1].textContent).toContain("Photo (image/jpeg)");
    expect(items[1].textContent).toContain("My screen shows this");
    const facts = screen.getByRole("complementary");
    expect(facts.textContent).toContain("thandi_line");
    expect(facts.textContent).toContain("1 Feb 2027"); // 22:00 UTC is the next day in SAST
    expect(facts.textContent).toContain("R450");
    expect(within(facts).getByRole("link", { name: "Open the client's record" }).getAttribute("href")).toBe(
      "/admin/client/11111111-1111-4111-8111-111111111111",
    );
  });

  it("calls a client whose paid term ends within the week 'expiring', as the clients list does", async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    thread = {
      ...THREAD,
      customer: { ...(THREAD.customer as NonNullable<InboxThread["customer"]>), status: "active", subscription_end: soon },
    };
    renderAt(`/admin/inbox/${NUMBER}`);
    const facts = await screen.findByRole("complementary");
    await waitFor(() => expect(facts.textContent).toMatch(/expiring/i));
    expect(facts.textContent).not.toMatch(/\bactive\b/i);
  });

  it("refuses an empty reply with the schema's message on the field, and sends a typed one", async () => {
    renderAt(`/admin/inbox/${NUMBER}`);
    const box = await screen.findByLabelText(/Reply/);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(box.getAttribute("aria-invalid")).toBe("true"));
    const describedBy = box.getAttribute("aria-describedby") ?? "";
    expect(describedBy.split(" ").map((id) => document.getElementById(id)?.textContent)).toContain("Type a reply");
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    fireEvent.input(box, { target: { value: "  We're on it.  " } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(requests.find((r) => r.method === "POST")?.body).toEqual({ text: "We're on it." }));
  });

  it("shows the server's 409 when the window has closed", async () => {
    replyAnswer = {
      status: 409,
      body: {
        error: { code: "conflict", message: "This number has not written to us in the last 24 hours: a template message is needed." },
      },
    };
    renderAt(`/admin/inbox/${NUMBER}`);
    const box = await screen.findByLabelText(/Reply/);
    fireEvent.input(box, { target: { value: "Hello?" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("a template message is needed");
  });

  it("offers the wa.me link when there is no Cloud API", async () => {
    thread = { ...THREAD, cloud_api: false, window_open_until: null };
    const link = `https://wa.me/${NUMBER}?text=Hi`;
    replyAnswer = { status: 200, body: { success: true, data: { message: { id: "r" }, waLink: link } } };
    renderAt(`/admin/inbox/${NUMBER}`);
    expect(await screen.findByText(/your reply opens in WhatsApp/)).toBeTruthy();
    fireEvent.input(await screen.findByLabelText(/Reply/), { target: { value: "Hi" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    const open = await screen.findByRole("link", { name: "Open WhatsApp to send" });
    expect(open.getAttribute("href")).toBe(link);
  });
});
