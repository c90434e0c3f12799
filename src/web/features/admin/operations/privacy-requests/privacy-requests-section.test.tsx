// The owner's "Privacy requests" queue (POPIA s24): each request with its due date, an overdue one
// marked; a correction applied through the client edit, a refusal only with a reason, an erasure
// with the line's fate chosen; each answer posted once to its own route.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AdminDataRequestView, DATA_REQUEST_MESSAGES } from "@/shared/data-request-schemas";
import { PrivacyRequestsSection } from "./privacy-requests-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const base = {
  details: "",
  correction: "",
  status: "open" as const,
  outcome: "",
  resolved_at: null,
  created_at: "2026-10-20T10:00:00.000Z",
};
let rows: AdminDataRequestView[];
let posts: { path: string; body: unknown }[];

beforeEach(() => {
  rows = [
    {
      ...base,
      id: "erase-1",
      kind: "erasure",
      client_id: "c1",
      client_name: "Sipho Dube",
      due_at: "2026-11-19T10:00:00.000Z",
      overdue: true,
    },
    {
      ...base,
      id: "fix-1",
      kind: "correction",
      details: "Surname spelt wrong",
      correction: "Thandi Nkosi",
      client_id: "c2",
      client_name: "Thandi Nkos",
      due_at: "2026-12-20T10:00:00.000Z",
      created_at: "2026-11-20T10:00:00.000Z",
      overdue: false,
    },
  ];
  posts = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (init?.method === "POST") {
      posts.push({ path, body: JSON.parse(String(init.body)) });
      const [, id, action] = /^\/api\/admin\/data-requests\/([^/]+)\/(\w+)$/.exec(path) ?? [];
      const status = action === "correct" ? "corrected" : action === "refuse" ? "refused" : "erased";
      rows = rows.map((r) => (r.id === id ? { ...r, status, overdue: false, resolved_at: "2026-11-29T10:00:00.000Z" } : r));
      return json(200, { data: rows.find((r) => r.id === id) });
    }
    return json(200, { data: rows, total: rows.length });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <PrivacyRequestsSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("PrivacyRequestsSection", () => {
  it("lists each request with its due date, the overdue one marked", async () => {
    const erasure = await screen.findByRole("listitem", { name: "Deletion from Sipho Dube" });
    expect(within(erasure).getByText("Overdue")).toBeTruthy();
    expect(within(erasure).getByText(/due 19 Nov 2026/)).toBeTruthy();
    const correction = screen.getByRole("listitem", { name: "Correction from Thandi Nkos" });
    expect(within(correction).queryByText("Overdue")).toBeNull();
    expect(within(correction).getByText(/due 20 Dec 2026/)).toBeTruthy();
    expect(within(correction).getByText("Should say: Thandi Nkosi")).toBeTruthy();
  });

  it("applies a correction as a change to the client's detail", async () => {
    const correction = await screen.findByRole("listitem", { name: "Correction from Thandi Nkos" });
    fireEvent.click(within(correction).getByRole("button", { name: "Apply correction" }));
    const form = within(correction).getByRole("form", { name: "Apply the correction" });
    fireEvent.click(within(form).getByRole("button", { name: "Apply correction" }));
    await waitFor(() =>
      expect(posts).toEqual([
        { path: "/api/admin/data-requests/fix-1/correct", body: { changes: { full_name: "Thandi Nkosi" }, note: "" } },
      ]),
    );
    expect(await within(correction).findByText("Corrected")).toBeTruthy();
  });

  it("refuses only with a reason", async () => {
    const correction = await screen.findByRole("listitem", { name: "Correction from Thandi Nkos" });
    fireEvent.click(within(correction).getByRole("button", { name: "Refuse" }));
    const form = within(correction).getByRole("form", { name: "Refuse the request" });
    fireEvent.click(within(form).getByRole("button", { name: "Refuse" }));
    expect(await within(form).findByText(DATA_REQUEST_MESSAGES.reason)).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.change(within(form).getByLabelText("Your reason (the client is told)"), { target: { value: "The name matches your ID." } });
    fireEvent.click(within(form).getByRole("button", { name: "Refuse" }));
    await waitFor(() =>
      expect(posts).toEqual([{ path: "/api/admin/data-requests/fix-1/refuse", body: { reason: "The name matches your ID." } }]),
    );
  });

  it("erases with the line's fate the owner chose", async () => {
    const erasure = await screen.findByRole("listitem", { name: "Deletion from Sipho Dube" });
    fireEvent.click(within(erasure).getByRole("button", { name: "Erase" }));
    const form = within(erasure).getByRole("form", { name: "Erase the client's data" });
    expect(within(form).getByText(/Tax Administration Act/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText("Their line on the panel"), { target: { value: "keep" } });
    fireEvent.click(within(form).getByRole("button", { name: "Erase their data" }));
    await waitFor(() => expect(posts).toEqual([{ path: "/api/admin/data-requests/erase-1/erase", body: { line: "keep" } }]));
    expect(await within(erasure).findByText("Erased")).toBeTruthy();
  });
});
