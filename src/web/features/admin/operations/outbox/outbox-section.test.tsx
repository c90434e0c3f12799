import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "@/web/lib/toast";
import { cleanup, click, render, testQueryClient, waitFor } from "@/web/testing/render";
import type { OutboxMessage } from "./api/get-outbox";
import { OutboxSection } from "./outbox-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const FAILED: OutboxMessage = {
  id: "11111111-1111-4111-8111-111111111111",
  channel: "email",
  recipient: "thabo@example.co.za",
  subject: "Your StreamDesk order",
  body: "Hi Thabo,\n\nThanks for your order.",
  kind: "order",
  status: "failed",
  attempts: 5,
  last_error: "SMTP 550 mailbox unavailable",
  sent_at: null,
  created_at: "2026-11-22T06:00:00.000Z",
  next_attempt_at: "2026-11-22T06:30:00.000Z",
  updated_at: "2026-11-22T06:30:00.000Z",
  client_id: null,
  lead_id: null,
  wa_link: null,
  has_secret: false,
  sent_via: "",
  note: "",
  delivery_status: null,
  delivery_updated_at: null,
};
const SENT: OutboxMessage = {
  ...FAILED,
  id: "22222222-2222-4222-8222-222222222222",
  recipient: "27825551234",
  channel: "whatsapp",
  subject: "",
  kind: "welcome",
  status: "sent",
  attempts: 1,
  last_error: null,
  sent_at: "2026-11-22T06:01:00.000Z",
  sent_via: "cloud-text",
  delivery_status: "read",
};

let requests: { method: string; url: string }[];
let retried = false;

function stubApi(retryAnswer: { status: number; body: unknown }) {
  requests = [];
  retried = false;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    requests.push({ method, url: url.pathname + url.search });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (method === "GET" && url.pathname === "/api/admin/outbox") {
      const failed = retried ? { ...FAILED, status: "pending", attempts: 0 } : FAILED;
      const rows = url.searchParams.get("status") === "failed" ? [failed].filter((m) => m.status === "failed") : [failed, SENT];
      return json(200, { data: rows, total: rows.length });
    }
    if (method === "POST" && url.pathname === `/api/admin/outbox/${FAILED.id}/retry`) {
      if (retryAnswer.status < 300) retried = true;
      return json(retryAnswer.status, retryAnswer.body);
    }
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
}

const page = () => document.body;
const renderSection = (path = "/admin/outbox") =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <OutboxSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe("OutboxSection", () => {
  beforeEach(() => stubApi({ status: 200, body: { success: true, data: { ...FAILED, status: "pending", attempts: 0 } } }));

  it("lists every message with channel, recipient, state, tries and last error; retries a failed one", async () => {
    await renderSection();
    await waitFor(() => expect(page().textContent).toContain("SMTP 550 mailbox unavailable"));
    const text = page().textContent ?? "";
    expect(text).toContain("thabo@example.co.za");
    expect(text).toContain("+27 82 555 1234");
    expect(text).toContain("WhatsApp");
    expect(text).toContain("Your StreamDesk order");
    // only the failed message offers Retry
    const retryButtons = page().querySelectorAll("button[aria-label^='Retry the message']");
    expect(retryButtons).toHaveLength(1);

    await click(retryButtons[0]);
    await waitFor(() => expect(requests.some((r) => r.method === "POST" && r.url === `/api/admin/outbox/${FAILED.id}/retry`)).toBe(true));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Message queued again", expect.anything()));
    // the list is refetched and the message now waits to go out again
    await waitFor(() => expect(page().textContent).toContain("pending"));
    expect(requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(2);
  });

  it("sends the state filter from the URL and shows a message's body when opened", async () => {
    await renderSection("/admin/outbox?status=failed");
    await waitFor(() => expect(requests.some((r) => r.url.includes("status=failed"))).toBe(true));
    const open = await waitFor(() => {
      const found = [...page().querySelectorAll<HTMLButtonElement>("button")].find((b) =>
        b.textContent?.startsWith("Open message to thabo@example.co.za"),
      );
      if (!found) throw new Error("no row");
      return found;
    });
    await click(open);
    await waitFor(() => expect(page().querySelector("[role=dialog]")?.textContent).toContain("Thanks for your order."));
  });
});

describe("OutboxSection retry refused", () => {
  beforeEach(() => stubApi({ status: 409, body: { error: { code: "conflict", message: "This message was already sent." } } }));

  it("shows the server's reason", async () => {
    await renderSection();
    const retry = await waitFor(() => {
      const found = page().querySelector("button[aria-label^='Retry the message']");
      if (!found) throw new Error("no retry");
      return found;
    });
    await click(retry);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Retry failed", { description: "This message was already sent." }));
  });
});
