// The portal's "Correct or delete my data" (POPIA s24): a correction needs what is wrong and what
// it should say (checked before anything is sent); a deletion says first what is kept and why; a
// request sent shows in the list with the date we answer by; the server's 409 shows on the form.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DATA_REQUEST_MESSAGES, type DataRequestView } from "@/shared/data-request-schemas";
import { DataRequestsCard } from "./data-requests-card";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let stored: DataRequestView[];
let posts: unknown[];
let conflict: string | null;

beforeEach(() => {
  stored = [];
  posts = [];
  conflict = null;
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (init?.method === "POST") {
      const body = JSON.parse(String(init.body)) as { kind: "correction" | "erasure"; details: string; correction?: string };
      posts.push(body);
      if (conflict) return json(409, { error: { code: "conflict", message: conflict, fields: { kind: conflict } } });
      const made: DataRequestView = {
        id: `r${posts.length}`,
        kind: body.kind,
        details: body.details,
        correction: body.correction ?? "",
        status: "open",
        due_at: "2026-12-29T10:00:00.000Z",
        outcome: "",
        resolved_at: null,
        created_at: "2026-11-29T10:00:00.000Z",
      };
      stored = [made, ...stored];
      return json(201, { data: made });
    }
    return json(200, { data: stored });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <DataRequestsCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("DataRequestsCard", () => {
  it("asks for a correction only with what is wrong and what it should say, then lists it with the date we answer by", async () => {
    await screen.findByText("You haven't asked for anything yet.");
    fireEvent.click(screen.getByRole("button", { name: "Send request" }));
    expect(await screen.findByText(DATA_REQUEST_MESSAGES.details)).toBeTruthy();
    expect(screen.getByText(DATA_REQUEST_MESSAGES.correction)).toBeTruthy();
    expect(posts).toEqual([]);

    fireEvent.change(screen.getByLabelText("What is wrong?"), { target: { value: "My surname is spelt wrong" } });
    fireEvent.change(screen.getByLabelText("What should it say?"), { target: { value: "Nkosi" } });
    fireEvent.click(screen.getByRole("button", { name: "Send request" }));
    await waitFor(() => expect(posts).toEqual([{ kind: "correction", details: "My surname is spelt wrong", correction: "Nkosi" }]));
    expect(await screen.findByText("Should say: Nkosi")).toBeTruthy();
    expect(screen.getByText(/we answer by 29 Dec 2026/)).toBeTruthy();
  });

  it("says what deletion keeps and why before it is asked for, and shows the server's refusal on the form", async () => {
    await screen.findByText("You haven't asked for anything yet.");
    fireEvent.change(screen.getByLabelText("What would you like?"), { target: { value: "erasure" } });
    expect(await screen.findByText(/Tax Administration Act/)).toBeTruthy();
    expect(screen.queryByLabelText("What should it say?")).toBeNull();
    conflict = "You already asked for a deletion on 20 Nov 2026; we will answer it by 20 Dec 2026.";
    fireEvent.click(screen.getByRole("button", { name: "Send request" }));
    expect(await screen.findByText(conflict)).toBeTruthy();
    expect(posts).toEqual([{ kind: "erasure", details: "" }]);
  });
});
