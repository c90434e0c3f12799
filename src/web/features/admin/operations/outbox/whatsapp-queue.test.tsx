// The owner's "To send on WhatsApp" queue in the outbox: one tap opens the chat (a new tab on the
// wa.me link), a second marks it sent; a message with a secret shows it masked and asks the
// server for its link; the WhatsApp templates panel saves a kind's template.
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "@/web/lib/toast";
import { cleanup, click, render, testQueryClient, typeInto, waitFor } from "@/web/testing/render";
import type { OutboxMessage } from "./api/get-outbox";
import { OutboxSection } from "./outbox-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const BASE: OutboxMessage = {
  id: "33333333-3333-4333-8333-333333333333",
  channel: "whatsapp",
  recipient: "27825550101",
  subject: "",
  body: "Hi Thandi,\n\nYour line is ready.",
  kind: "credentials",
  status: "owner",
  attempts: 0,
  last_error: null,
  sent_at: null,
  created_at: "2026-11-22T06:00:00.000Z",
  next_attempt_at: "2026-11-22T06:00:00.000Z",
  updated_at: "2026-11-22T06:00:00.000Z",
  client_id: null,
  lead_id: null,
  wa_link: "https://wa.me/27825550101?text=Hi%20Thandi%2C%0A%0AYour%20line%20is%20ready.",
  has_secret: false,
  sent_via: "",
  note: "The WhatsApp Cloud API is not set up: send it from the dashboard (To send on WhatsApp). An e-mail copy was queued to thandi@example.co.za.",
  delivery_status: null,
  delivery_updated_at: null,
};
const SECRET: OutboxMessage = {
  ...BASE,
  id: "44444444-4444-4444-8444-444444444444",
  recipient: "27825550505",
  kind: "password-reset",
  body: "Choose a new password here: ••••••",
  wa_link: null,
  has_secret: true,
};
const REVEALED = "https://wa.me/27825550505?text=Choose%20a%20new%20password%20here%3A%20http%3A%2F%2Fshop%2Freset%3Ftoken%3Dabc";

// Three messages waiting for one person (Sipho), listed as the server lists them (oldest first),
// the middle one holding a secret.
const SIPHO = "27825550404";
const siphoMessage = (n: number, at: string, extra: Partial<OutboxMessage> = {}): OutboxMessage => ({
  ...BASE,
  id: `5555555${n}-5555-4555-8555-555555555555`,
  recipient: SIPHO,
  kind: "welcome",
  body: `Message ${n} to Sipho`,
  created_at: at,
  wa_link: `https://wa.me/${SIPHO}?text=${encodeURIComponent(`Message ${n} to Sipho`)}`,
  ...extra,
});
const SIPHO_CHAT = [
  siphoMessage(1, "2026-11-22T05:00:00.000Z"),
  siphoMessage(2, "2026-11-22T05:01:00.000Z", {
    kind: "password-reset",
    body: "Message 2: choose a password here: ••••••",
    wa_link: null,
    has_secret: true,
  }),
  siphoMessage(3, "2026-11-22T05:02:00.000Z", { kind: "receipt" }),
];
const SIPHO_REVEALED = `https://wa.me/${SIPHO}?text=${encodeURIComponent("Message 2: choose a password here: http://shop/reset?token=xyz")}`;
let extra: OutboxMessage[] = [];

let requests: { method: string; url: string; body: unknown }[];
let sent: Set<string>;
let markAnswer: { status: number; body: unknown } | null;

function stubApi() {
  requests = [];
  sent = new Set();
  markAnswer = null;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, url: url.pathname + url.search, body });
    const json = (status: number, payload: unknown) =>
      new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
    if (method === "GET" && url.pathname === "/api/admin/outbox") {
      const rows = [...extra, BASE, SECRET]
        .filter((m) => !sent.has(m.id))
        .filter((m) => !url.searchParams.get("status") || m.status === url.searchParams.get("status"));
      return json(200, { data: rows, total: rows.length });
    }
    const mark = /^\/api\/admin\/outbox\/([^/]+)\/mark-sent$/.exec(url.pathname);
    if (method === "POST" && mark) {
      if (markAnswer) return json(markAnswer.status, markAnswer.body);
      sent.add(mark[1]);
      return json(200, { success: true, data: { ...BASE, id: mark[1], status: "sent", sent_via: "owner" } });
    }
    if (method === "POST" && url.pathname === `/api/admin/outbox/${SECRET.id}/chat-link`) return json(200, { url: REVEALED });
    if (method === "POST" && url.pathname === `/api/admin/outbox/${SIPHO_CHAT[1].id}/chat-link`) return json(200, { url: SIPHO_REVEALED });
    if (method === "POST" && url.pathname === "/api/admin/outbox/mark-sent") {
      const ids = (body as { ids: string[] }).ids;
      for (const id of ids) sent.add(id);
      return json(200, { success: true, data: ids.map((id) => ({ ...BASE, id, status: "sent", sent_via: "owner" })) });
    }
    if (method === "GET" && url.pathname === "/api/admin/whatsapp/templates") {
      return json(200, {
        data: [],
        kinds: [
          { kind: "receipt", label: "Payment receipt", variables: [] },
          { kind: "reminder-7d", label: "Expiry reminder (7 days)", variables: ["end_date", "days", "package", "renew_link"] },
        ],
        variables: ["name", "business", "body", "secret"],
        cloud_api: false,
      });
    }
    if (method === "PUT" && url.pathname === "/api/admin/whatsapp/templates/reminder-7d") {
      return json(200, { success: true, data: { kind: "reminder-7d", ...body, updated_at: "2026-11-22T06:00:00.000Z" } });
    }
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
}

const page = () => document.body;
const find = <T extends Element>(selector: string) =>
  waitFor(() => {
    const found = page().querySelector<T>(selector);
    if (!found) throw new Error(`nothing matches ${selector}`);
    return found;
  });
/** The control whose name (its text, the visually hidden part included) starts with `name`. */
const named = <T extends Element>(within: ParentNode, tag: "a" | "button", name: string) =>
  [...within.querySelectorAll<T>(tag)].find((el) => (el.textContent ?? "").replace(/\s+/g, " ").trim().startsWith(name));
const findNamed = <T extends Element>(tag: "a" | "button", name: string) =>
  waitFor(() => {
    const found = named<T>(page(), tag, name);
    if (!found) throw new Error(`no ${tag} named ${name}`);
    return found;
  });
const renderSection = (path = "/admin/outbox?status=owner") =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <OutboxSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
// jsdom does not open tabs: keep link clicks from trying to navigate.
const stopNavigation = (event: Event) => {
  if ((event.target as Element | null)?.closest("a")) event.preventDefault();
};

beforeEach(() => {
  extra = [];
  stubApi();
  document.addEventListener("click", stopNavigation);
});
afterEach(async () => {
  document.removeEventListener("click", stopNavigation);
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe("the To send on WhatsApp queue", () => {
  it("asks for status=owner, says what to do, and opens each chat in a new tab on its wa.me link", async () => {
    await renderSection();
    await waitFor(() => expect(requests.some((r) => r.url.startsWith("/api/admin/outbox?") && r.url.includes("status=owner"))).toBe(true));
    await waitFor(() => expect(page().textContent).toContain("Press Send there, then"));
    const open = await findNamed<HTMLAnchorElement>("a", "Open chat with +27 82 555 0101 on WhatsApp (new tab)");
    expect(open.getAttribute("href")).toBe(BASE.wa_link);
    expect(open.getAttribute("target")).toBe("_blank");
    expect(open.getAttribute("rel")).toContain("noopener");
    expect(page().textContent).toContain("to send");
  });

  it("its help names the buttons by their labels and claims no e-mail copy or code it cannot promise", async () => {
    await renderSection();
    const help = await waitFor(() => {
      const found = page().querySelector('[data-testid="owner-queue-help"]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    const text = help.textContent ?? "";
    for (const label of ["Open chat", "Prepare chat", "Mark sent", "Mark all sent"]) expect(text).toContain(label);
    // the labels it names are the rows' own (Prepare chat: a row holding a private link, tested below)
    await findNamed("a", "Open chat with +27 82 555 0101");
    await findNamed("button", "Mark sent for the message to +27 82 555 0101");
    expect(text).not.toContain("already got a copy");
    expect(text).toContain("A message's details say whether a copy also went by e-mail.");
    expect(text).toContain("One-time codes never wait here.");
  });

  it("marks a message sent with the second tap: the server is told, the row leaves the queue", async () => {
    await renderSection();
    await click(await findNamed("a", "Open chat with +27 82 555 0101"));
    // after opening, Mark sent is the next thing to press
    const mark = await findNamed<HTMLButtonElement>("button", "Mark sent for the message to +27 82 555 0101");
    expect(mark.className).toContain("bg-accent");
    await click(mark);
    await waitFor(() => expect(requests.some((r) => r.method === "POST" && r.url === `/api/admin/outbox/${BASE.id}/mark-sent`)).toBe(true));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Marked as sent", expect.anything()));
    await waitFor(() => expect(named(page(), "a", "Open chat with +27 82 555 0101")).toBeUndefined());
  });

  it("shows the server's reason when it refuses (already sent)", async () => {
    markAnswer = { status: 409, body: { error: { code: "conflict", message: "This message was already sent." } } };
    await renderSection();
    await click(await findNamed("button", "Mark sent for the message to +27 82 555 0101"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Not marked", { description: "This message was already sent." }));
  });

  it("masks a secret in the message and fetches its chat link only when asked", async () => {
    await renderSection();
    await click(await findNamed("button", "Open message to 27825550505"));
    const dialog = await find("[role=dialog]");
    await waitFor(() => expect(dialog.textContent).toContain("Choose a new password here: ••••••"));
    expect(dialog.textContent).toContain("is a private link");
    expect(requests.some((r) => r.url.endsWith("/chat-link"))).toBe(false);
    await click(named(dialog, "button", "Prepare chat with +27 82 555 0505") ?? null);
    await waitFor(() =>
      expect(requests.some((r) => r.method === "POST" && r.url === `/api/admin/outbox/${SECRET.id}/chat-link`)).toBe(true),
    );
    const open = await waitFor(() => {
      const found = named<HTMLAnchorElement>(dialog, "a", "Open chat with +27 82 555 0505 on WhatsApp (new tab)");
      if (!found) throw new Error("no chat link yet");
      return found;
    });
    expect(open.getAttribute("href")).toBe(REVEALED);
  });
});

describe("one chat per person", () => {
  it("groups a person's waiting messages oldest first into one row: one chat with the texts together, one Mark all sent", async () => {
    // listed newest first on purpose: the row still reads oldest first
    extra = [SIPHO_CHAT[2], SIPHO_CHAT[0], SIPHO_CHAT[1]];
    await renderSection();
    const group = await find("[data-testid=owner-chat]");
    expect(group.textContent).toContain("3 messages, sent as one chat");
    expect([...group.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "Welcome and portal login",
      "Password reset link",
      "Payment receipt",
    ]);
    // one row each for Sipho, Thandi and the other person: one pair of buttons for Sipho
    expect(page().querySelectorAll("[data-testid=owner-chat]")).toHaveLength(1);
    expect(
      [...page().querySelectorAll("button")].filter((b) => b.textContent?.includes("for the 3 messages to +27 82 555 0404")),
    ).toHaveLength(1);

    // one message holds a secret: its link is asked for (that one only), then the chat opens
    expect(named(page(), "a", "Open chat with +27 82 555 0404")).toBeUndefined();
    await click(await findNamed("button", "Prepare chat with +27 82 555 0404"));
    const open = await findNamed<HTMLAnchorElement>("a", "Open chat with +27 82 555 0404 on WhatsApp (new tab), 3 messages in one");
    expect(requests.filter((r) => r.url.endsWith("/chat-link")).map((r) => r.url)).toEqual([
      `/api/admin/outbox/${SIPHO_CHAT[1].id}/chat-link`,
    ]);
    const text = new URL(open.href).searchParams.get("text");
    expect(text).toBe("Message 1 to Sipho\n\nMessage 2: choose a password here: http://shop/reset?token=xyz\n\nMessage 3 to Sipho");
    expect(open.href.startsWith(`https://wa.me/${SIPHO}?text=`)).toBe(true);

    await click(open);
    await click(await findNamed("button", "Mark all sent for the 3 messages to +27 82 555 0404"));
    await waitFor(() =>
      expect(requests.find((r) => r.method === "POST" && r.url === "/api/admin/outbox/mark-sent")?.body).toEqual({
        ids: SIPHO_CHAT.map((m) => m.id),
      }),
    );
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith("Marked as sent", { description: "The 3 messages to +27 82 555 0404 are done." }),
    );
    await waitFor(() => expect(page().querySelector("[data-testid=owner-chat]")).toBeNull());
    // one message alone keeps its own two taps
    expect(named(page(), "button", "Mark sent for the message to +27 82 555 0101")).toBeDefined();
  });
});

describe("WhatsApp templates", () => {
  it("sets a kind's template: the names typed with commas go as a list", async () => {
    await renderSection("/admin/outbox");
    const button = await waitFor(() => {
      const found = [...page().querySelectorAll("button")].find((b) => b.textContent?.includes("WhatsApp templates"));
      if (!found) throw new Error("no templates button");
      return found;
    });
    await click(button);
    await waitFor(() => expect(page().querySelector("[role=dialog]")?.textContent).toContain("The WhatsApp Cloud API is not set up"));
    await click(await find("button[aria-label='Set the template for Expiry reminder (7 days)']"));
    const form = await find("form[aria-label='Template for Expiry reminder (7 days)']");
    expect(form.textContent).toContain("This kind offers: name, business, body, secret, end_date, days, package, renew_link.");
    const inputs = form.querySelectorAll("input:not([type=checkbox])");
    await typeInto(inputs[0], "Expiry Reminder");
    await typeInto(inputs[2], "name, days");
    await click(form.querySelector("button[type=submit]"));
    await waitFor(() => expect(form.textContent).toContain("Template name is lower-case letters"));
    expect(requests.some((r) => r.method === "PUT")).toBe(false);

    await typeInto(inputs[0], "expiry_reminder");
    await click(form.querySelector("button[type=submit]"));
    await waitFor(() => expect(requests.some((r) => r.method === "PUT")).toBe(true));
    expect(requests.find((r) => r.method === "PUT")?.body).toEqual({
      template_name: "expiry_reminder",
      language_code: "en",
      params: ["name", "days"],
      enabled: true,
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Template saved", { description: "Expiry reminder (7 days)" }));
  });
});
