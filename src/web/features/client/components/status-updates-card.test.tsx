// The portal's "Status updates" switch: shows whether they are on and on which channel, and
// saves each change at once (PUT /api/client/status-updates).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientStatusUpdates } from "@/shared/schemas";
import { StatusUpdatesCard } from "./status-updates-card";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const puts: unknown[] = [];

function renderCard(state: ClientStatusUpdates) {
  let current = state;
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "PUT") {
      const body = JSON.parse(String(init.body)) as { subscribed: boolean };
      puts.push(body);
      current = { ...current, subscribed: body.subscribed };
      return new Response(JSON.stringify({ success: true, message: "ok", data: current }), {
        headers: { "content-type": "application/json" },
      });
    }
    return new Response(JSON.stringify({ data: current }), { headers: { "content-type": "application/json" } });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <StatusUpdatesCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  puts.length = 0;
});

describe("StatusUpdatesCard", () => {
  it("switches status updates on and off on the client's channel", async () => {
    renderCard({ subscribed: false, channel: "whatsapp" });
    expect(await screen.findByText("Off. Switch on to get them on WhatsApp.")).toBeTruthy();
    const toggle = screen.getByRole("switch", { name: "Send me status updates" }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    await screen.findByText("You get them on WhatsApp, your preferred channel. Switch off to stop.");
    expect(puts).toEqual([{ subscribed: true }]);
    expect((screen.getByRole("switch") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("switch"));
    await waitFor(() => expect(puts).toEqual([{ subscribed: true }, { subscribed: false }]));
    await screen.findByText("Off. Switch on to get them on WhatsApp.");
  });

  it("cannot be switched on without a way to reach them", async () => {
    renderCard({ subscribed: false, channel: null });
    expect(await screen.findByText(/Add an e-mail address or WhatsApp number above first/)).toBeTruthy();
    expect((screen.getByRole("switch") as HTMLInputElement).disabled).toBe(true);
  });
});
