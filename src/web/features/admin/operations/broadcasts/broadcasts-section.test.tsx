// The broadcast screen: the send button waits for a count of who it reaches (and for a new count
// when the filter changes), the confirm names the number, and the send carries an Idempotency-Key.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BroadcastsSection } from "./broadcasts-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const requests: { path: string; body: unknown; key: string | null }[] = [];

function stub() {
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ path, body, key: (init?.headers as Record<string, string> | undefined)?.["Idempotency-Key"] ?? null });
    const json =
      path === "/api/admin/packages"
        ? { data: [{ id: "11111111-1111-4111-8111-111111111111", name: "3 Months" }] }
        : path === "/api/admin/broadcasts/preview"
          ? { data: { count: 2, email: 1, whatsapp: 1, unreachable: 0, notOptedIn: 3, sample: ["Amara", "Bongi"] } }
          : { data: { count: 2, email: 1, whatsapp: 1, unreachable: 0, notOptedIn: 3, sample: [], queued: 2, minutes: 1 } };
    return new Response(JSON.stringify(json), {
      status: path === "/api/admin/broadcasts" ? 201 : 200,
      headers: { "content-type": "application/json" },
    });
  });
}

function renderSection() {
  stub();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <BroadcastsSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe("BroadcastsSection", () => {
  it("counts who a marketing message reaches, then sends it once confirmed, with an Idempotency-Key", async () => {
    renderSection();
    const send = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: /Marketing/ }));
    fireEvent.input(screen.getByLabelText(/^Subject/), { target: { value: "Summer special" } });
    fireEvent.input(screen.getByLabelText(/^Message/), { target: { value: "3 months for R1,450." } });
    fireEvent.click(screen.getByRole("button", { name: "Check who it reaches" }));
    expect(await screen.findByTestId("broadcast-reach")).toHaveProperty("textContent", expect.stringContaining("Reaches 2 clients"));
    expect(screen.getByTestId("broadcast-reach").textContent).toContain("3 left out: not opted in to offers.");
    expect(requests.find((r) => r.path === "/api/admin/broadcasts/preview")?.body).toMatchObject({ kind: "marketing" });

    fireEvent.click(screen.getByRole("button", { name: "Send to 2 clients" }));
    const confirm = await screen.findByRole("dialog", { name: "Send to 2 clients?" });
    expect(confirm.textContent).toContain("only to clients who agreed to offers");
    fireEvent.click(screen.getByRole("button", { name: "Send now" }));
    await waitFor(() => expect(requests.some((r) => r.path === "/api/admin/broadcasts")).toBe(true));
    const sent = requests.find((r) => r.path === "/api/admin/broadcasts");
    expect(sent?.body).toMatchObject({ kind: "marketing", subject: "Summer special", body: "3 months for R1,450." });
    expect(sent?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("asks for a new count when the filter changes after counting", async () => {
    renderSection();
    fireEvent.click(screen.getByRole("button", { name: "Check who it reaches" }));
    await screen.findByTestId("broadcast-reach");
    fireEvent.input(screen.getByLabelText("Ending within (days)"), { target: { value: "7" } });
    await waitFor(() => expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true));
    expect(screen.queryByTestId("broadcast-reach")).toBeNull();
  });
});
