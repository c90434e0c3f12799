// The partner's lines (issue 45 item 3): renewing asks once more with the cost before anything is
// spent, a lost answer pressed again is sent with the same Idempotency-Key (one renewal, one charge),
// a refusal shows the server's words, and a line switches off and on.
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, render, testQueryClient, waitFor } from "@/web/testing/render";
import { PartnerLines } from "./partner-lines-list";

type Answer = { status?: number; body: unknown };
const LINE = {
  id: "l1",
  name: "Naledi",
  whatsapp: "",
  email: "",
  package_name: "3 Months",
  cost: 3,
  status: "done",
  username: "sdabc",
  password: "pw",
  server_url: "http://tv.example.net",
  expires_at: "2026-12-20T10:00:00.000Z",
  switched_off: false,
  error: "",
  created_at: "2026-09-20T10:00:00.000Z",
};

/** Answers in turn per route (the last one repeats); records each request with its Idempotency-Key. */
function stub(routes: Record<string, Answer[]>) {
  const sent: { method: string; path: string; key: string | null }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const method = init?.method ?? "GET";
    sent.push({ method, path, key: new Headers(init?.headers).get("idempotency-key") });
    const queue = routes[`${method} ${path}`];
    const answer = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? {
      status: 404,
      body: { error: { code: "not_found", message: "Not found." } },
    };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  });
  return sent;
}

const renderLines = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <PartnerLines className="" />
    </QueryClientProvider>,
  );
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text) ?? null;
const item = () => document.querySelector("section[aria-label='Your lines'] li")?.textContent ?? "";

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("a partner's lines", () => {
  it("renews after asking with the cost; a lost answer pressed again is the same renewal (same Idempotency-Key)", async () => {
    const sent = stub({
      "GET /api/partner/lines": [{ body: { data: [LINE] } }],
      "GET /api/partner/packages": [{ body: { data: [{ id: "p3", name: "3 Months", duration: "3 months", credits: 3 }] } }],
      "POST /api/partner/lines/l1/renew": [
        {
          status: 502,
          body: { error: { code: "panel_unavailable", message: "The panel could not be reached. Please try again in a moment." } },
        },
        { body: { data: { ...LINE, expires_at: "2027-03-20T10:00:00.000Z" } } },
      ],
    });
    await renderLines();
    await waitFor(() => expect(button("Renew (3 credits)")).not.toBeNull());
    await click(button("Renew (3 credits)"));
    // nothing is sent until they say yes
    expect(sent.filter((r) => r.method === "POST")).toEqual([]);
    await click(button("Yes, renew for 3 credits"));
    await waitFor(() => expect(item()).toContain("The panel could not be reached"));
    await click(button("Yes, renew for 3 credits"));
    await waitFor(() => expect(item()).toContain("Renewed: Naledi's line now runs until"));
    const renewals = sent.filter((r) => r.method === "POST");
    expect(renewals.map((r) => r.path)).toEqual(["/api/partner/lines/l1/renew", "/api/partner/lines/l1/renew"]);
    expect(renewals[0].key).toBeTruthy();
    expect(renewals[1].key).toBe(renewals[0].key);
  });

  it("shows a refused renewal in the server's words", async () => {
    stub({
      "GET /api/partner/lines": [{ body: { data: [LINE] } }],
      "GET /api/partner/packages": [{ body: { data: [] } }],
      "POST /api/partner/lines/l1/renew": [
        { status: 409, body: { error: { code: "insufficient_credits", message: "You need 3 credits; you have 1 — buy credits" } } },
      ],
    });
    await renderLines();
    await waitFor(() => expect(button("Renew (3 credits)")).not.toBeNull());
    await click(button("Renew (3 credits)"));
    await click(button("Yes, renew for 3 credits"));
    await waitFor(() =>
      expect(document.querySelector("section[aria-label='Your lines'] [role=alert]")?.textContent).toBe(
        "You need 3 credits; you have 1 — buy credits",
      ),
    );
  });

  it("switches a line off, and a line that is off shows it and switches on", async () => {
    const sent = stub({
      "GET /api/partner/lines": [{ body: { data: [LINE] } }, { body: { data: [{ ...LINE, switched_off: true }] } }],
      "GET /api/partner/packages": [{ body: { data: [] } }],
      "POST /api/partner/lines/l1/switch-off": [{ body: { data: { ...LINE, switched_off: true } } }],
      "POST /api/partner/lines/l1/switch-on": [{ body: { data: LINE } }],
    });
    await renderLines();
    await waitFor(() => expect(button("Switch off")).not.toBeNull());
    await click(button("Switch off"));
    await waitFor(() => expect(item()).toContain("Switched off"));
    await waitFor(() => expect(button("Switch on")).not.toBeNull());
    await click(button("Switch on"));
    await waitFor(() => expect(item()).toContain("Switched on again."));
    expect(sent.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      "/api/partner/lines/l1/switch-off",
      "/api/partner/lines/l1/switch-on",
    ]);
  });
});
