// Scheduling maintenance: the shared schema's rules beside their fields before anything is sent
// (times required, the end after the start), the times typed in SAST posted with their offset,
// and Cancel patching the window to cancelled once confirmed.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MaintenancePanel } from "./maintenance-panel";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const requests: { method: string; path: string; body: unknown }[] = [];
const WINDOW = {
  id: "0c6f3d52-8d0e-4c1f-9c55-3f1a3b8f0a11",
  title: "Payment provider upgrade",
  body: "",
  status: "scheduled",
  component_keys: ["payments"],
  started_at: "2030-03-01T23:00:00.000Z",
  ends_at: "2030-03-02T01:00:00.000Z",
  resolved_at: null,
};

function renderPanel() {
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, path, body });
    const json =
      path === "/api/admin/components"
        ? { data: [{ id: "c1", key: "payments", name: "Card payments", status: "operational", maintenance: false }] }
        : path === "/api/admin/maintenance" && method === "GET"
          ? { data: [WINDOW] }
          : { ...WINDOW, ...(body as object) };
    return new Response(JSON.stringify(json), {
      status: method === "POST" ? 201 : 200,
      headers: { "content-type": "application/json" },
    });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MaintenancePanel />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const fieldError = (input: HTMLElement) => {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe("MaintenancePanel", () => {
  it("checks the window with the shared schema, then posts the SAST times with their offset", async () => {
    renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Schedule maintenance" }));
    const dialog = await screen.findByRole("dialog", { name: "Schedule maintenance" });
    fireEvent.input(within(dialog).getByLabelText(/^Title/), { target: { value: "Streaming server upgrade" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create" }));
    const starts = within(dialog).getByLabelText(/^Starts/);
    const ends = within(dialog).getByLabelText(/^Ends/);
    await waitFor(() => expect(fieldError(starts)).toContain("Please enter when the maintenance starts"));
    expect(fieldError(ends)).toContain("Please enter when the maintenance ends");

    fireEvent.input(starts, { target: { value: "2030-03-02T03:00" } });
    fireEvent.input(ends, { target: { value: "2030-03-02T01:00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(fieldError(ends)).toContain("The end must be after the start"));
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    fireEvent.input(ends, { target: { value: "2030-03-02T05:00" } });
    fireEvent.click(within(dialog).getByLabelText("Card payments"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    expect(requests.find((r) => r.method === "POST")).toMatchObject({
      path: "/api/admin/maintenance",
      body: {
        title: "Streaming server upgrade",
        status: "scheduled",
        component_keys: ["payments"],
        started_at: "2030-03-02T03:00:00+02:00",
        ends_at: "2030-03-02T05:00:00+02:00",
      },
    });
  });

  it("lists the window in SAST and cancels it once confirmed", async () => {
    renderPanel();
    expect((await screen.findAllByText("Payment provider upgrade")).length).toBeGreaterThan(0);
    expect(screen.getAllByText("2 Mar 2030, 01:00").length).toBeGreaterThan(0);
    fireEvent.click(screen.getAllByRole("button", { name: "Cancel Payment provider upgrade" })[0]);
    const confirm = await screen.findByRole("dialog", { name: "Cancel this maintenance?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel maintenance" }));
    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    expect(requests.find((r) => r.method === "PATCH")).toMatchObject({
      path: `/api/admin/maintenance/${WINDOW.id}`,
      body: { status: "cancelled" },
    });
  });
});
