// The message templates screen: the kinds listed, a chip puts its variable in the message, an
// unknown variable is refused beside the field before anything is sent, the preview fills in the
// client picked, Save sends the edited text and Reset to default asks the server.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEMPLATE_DEFINITIONS, WHATSAPP_EMAIL_WORD_MESSAGE } from "@/shared/message-templates";
import { MessageTemplatesSection } from "./message-templates-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const requests: { method: string; path: string; body: unknown }[] = [];

const entry = (kind: "welcome" | "receipt", isDefault: boolean) => ({
  kind,
  label: TEMPLATE_DEFINITIONS[kind].label,
  sent_when: TEMPLATE_DEFINITIONS[kind].sentWhen,
  variables: TEMPLATE_DEFINITIONS[kind].variables.map((name) => ({ name, help: `about ${name}`, secret: name === "password_step" })),
  required: [...TEMPLATE_DEFINITIONS[kind].required],
  subject: TEMPLATE_DEFINITIONS[kind].subject,
  body: TEMPLATE_DEFINITIONS[kind].body,
  default_subject: TEMPLATE_DEFINITIONS[kind].subject,
  default_body: TEMPLATE_DEFINITIONS[kind].body,
  is_default: isDefault,
  updated_at: isDefault ? null : "2026-11-20T10:00:00.000Z",
  updated_by: isDefault ? null : "owner@example.test",
});

const CLIENT = {
  id: "22222222-2222-4222-8222-222222222222",
  full_name: "Zanele Dlamini",
  username: "zanele",
  email: "z@example.test",
  whatsapp: "",
};

function stub() {
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, path, body });
    const json =
      path === "/api/admin/message-templates"
        ? { data: [entry("welcome", true), entry("receipt", false)] }
        : path === "/api/admin/clients"
          ? { data: [CLIENT], total: 1 }
          : path.endsWith("/preview")
            ? {
                data: {
                  subject: "Welcome to StreamDesk: your client portal",
                  body: "Hi Zanele,\n\n[link sent at send time]",
                  client_name: "Zanele Dlamini",
                },
              }
            : { data: entry("welcome", method === "DELETE") };
    return new Response(JSON.stringify(json), { status: 200, headers: { "content-type": "application/json" } });
  });
}

function renderSection() {
  stub();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MessageTemplatesSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe("MessageTemplatesSection", () => {
  it("lists the kinds, puts a chip's variable in the message, refuses an unknown one, and saves", async () => {
    renderSection();
    expect(await screen.findByRole("heading", { name: "Welcome and portal login" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Payment receipt/ }).textContent).toContain("Edited");
    const message = screen.getByRole("textbox", { name: /^Message/ }) as HTMLTextAreaElement;
    fireEvent.input(message, { target: { value: "Hello {{password_step}} {{shoe_size}}" } });
    fireEvent.click(screen.getByRole("button", { name: /^\{\{name\}\}/ }));
    expect(message.value).toBe("Hello {{password_step}} {{shoe_size}}{{name}}");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(/Unknown variable \{\{shoe_size\}\} in the message/)).toBeTruthy();
    expect(requests.some((r) => r.method === "PUT")).toBe(false);

    fireEvent.input(message, { target: { value: "Hello {{name}}, {{password_step}}" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(requests.find((r) => r.method === "PUT")).toBeTruthy());
    expect(requests.find((r) => r.method === "PUT")).toMatchObject({
      path: "/api/admin/message-templates/welcome",
      body: { subject: TEMPLATE_DEFINITIONS.welcome.subject, body: "Hello {{name}}, {{password_step}}" },
    });
  });

  it("refuses a subject with an unknown variable beside the Subject field, naming it, and sends nothing", async () => {
    renderSection();
    await screen.findByRole("heading", { name: "Welcome and portal login" });
    const subject = screen.getByRole("textbox", { name: /^Subject/ }) as HTMLInputElement;
    fireEvent.input(subject, { target: { value: "{{business}}: hello {{nickname}}" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const error = await screen.findByText(/Unknown variable \{\{nickname\}\} in the subject/);
    expect(subject.getAttribute("aria-describedby")?.split(" ")).toContain(error.id || error.closest("[id]")?.id);
    expect(requests.some((r) => r.method === "PUT")).toBe(false);
  });

  it("refuses a message that says e-mail beside the Message field (it goes on WhatsApp too), and sends nothing", async () => {
    renderSection();
    await screen.findByRole("heading", { name: "Welcome and portal login" });
    const message = screen.getByRole("textbox", { name: /^Message/ }) as HTMLTextAreaElement;
    fireEvent.input(message, { target: { value: "Hi {{name}}, keep this e-mail. {{password_step}}" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const error = await screen.findByText(WHATSAPP_EMAIL_WORD_MESSAGE);
    expect(message.getAttribute("aria-describedby")?.split(" ")).toContain(error.id || error.closest("[id]")?.id);
    expect(requests.some((r) => r.method === "PUT")).toBe(false);
  });

  it("previews with the client picked, and resets an edited template to the default", async () => {
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: /Zanele Dlamini/ }));
    const preview = await screen.findByTestId("template-preview");
    expect(preview.textContent).toContain("As Zanele Dlamini would get it");
    expect(preview.textContent).toContain("[link sent at send time]");
    expect(requests.find((r) => r.path.endsWith("/preview"))?.body).toMatchObject({
      client_id: CLIENT.id,
      body: TEMPLATE_DEFINITIONS.welcome.body,
    });

    expect((screen.getByRole("button", { name: "Reset to default" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: /Payment receipt/ }));
    await screen.findByRole("heading", { name: "Payment receipt" });
    fireEvent.click(screen.getByRole("button", { name: "Reset to default" }));
    await waitFor(() =>
      expect(requests.some((r) => r.method === "DELETE" && r.path === "/api/admin/message-templates/receipt")).toBe(true),
    );
  });
});
