// The partner portal (issue 45 item 3): signed out it asks them to sign in; signed in it shows
// their balance with the low-credit warning, their lines and ledger, and selling a line with too
// few credits shows the server's words; buying credits shows the price at the owner's tier as they
// type and, for EFT, the bank details with the order's reference.
import { QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, render, testQueryClient, waitFor } from "@/web/testing/render";
import { PartnerPortalPage } from "./partner-portal-page";

type Answer = { status?: number; body: unknown };
function stub(routes: Record<string, Answer>) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const method = init?.method ?? "GET";
    sent.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = routes[`${method} ${path}`] ?? { status: 404, body: { error: { code: "not_found", message: "Not found." } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  });
  return sent;
}

const renderPage = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={["/partner"]}>
        <PartnerPortalPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

async function type(input: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto = input instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(input, value);
    input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const PACKAGE = "6f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d11";

describe("the partner portal", () => {
  it("asks a signed-out visitor to sign in", async () => {
    stub({ "GET /api/partner/me": { status: 401, body: { error: { code: "unauthorized", message: "Please sign in." } } } });
    await renderPage();
    await waitFor(() => expect(document.querySelector("form[aria-label='Partner sign-in']")).not.toBeNull());
  });

  it("shows the balance with a low-credit warning, their lines and ledger, and a sale refused for too few credits in the server's words", async () => {
    const sent = stub({
      "GET /api/partner/me": {
        body: { name: "Sipho Dlamini", username: "sipho", email: "s@example.co.za", credits: 1, low_credits: true },
      },
      "GET /api/partner/packages": { body: { data: [{ id: PACKAGE, name: "3 Months", duration: "3 months", credits: 3 }] } },
      "GET /api/partner/lines": {
        body: {
          data: [
            {
              id: "l1",
              name: "Naledi",
              whatsapp: "",
              email: "",
              package_name: "1 Month",
              cost: 1,
              status: "done",
              username: "sdabc",
              password: "pw",
              server_url: "http://tv.example.net",
              expires_at: null,
              error: "",
              created_at: "2026-11-20T10:00:00.000Z",
            },
          ],
        },
      },
      "GET /api/partner/ledger": {
        body: {
          data: [
            {
              id: "t1",
              credits: 2,
              note: "",
              cause: "owner-give",
              status: "done",
              partner_after: 2,
              created_at: "2026-11-20T09:00:00.000Z",
            },
          ],
        },
      },
      "GET /api/partner/credits/offer": { body: { pricing: null, methods: [] } },
      "GET /api/partner/credits/orders": { body: { data: [] } },
      "POST /api/partner/lines": {
        status: 409,
        body: { error: { code: "insufficient_credits", message: "You need 3 credits; you have 1 — buy credits" } },
      },
    });
    await renderPage();
    await waitFor(() => expect(document.querySelector("[data-testid=partner-credits]")?.textContent).toBe("1"));
    expect(document.querySelector("section[aria-label='Your credits'] [role=status]")?.textContent).toContain("buy credits");
    await waitFor(() => expect(document.querySelector("section[aria-label='Your lines']")?.textContent).toContain("sdabc"));
    await waitFor(() =>
      expect(document.querySelector("section[aria-label='Your credit ledger']")?.textContent).toContain("Bought from us"),
    );

    await waitFor(() => expect(document.querySelectorAll("#line-package option")).toHaveLength(2));
    await type(document.querySelector("#line-name") as HTMLInputElement, "Thandi Nkosi");
    await type(document.querySelector("#line-package") as HTMLSelectElement, PACKAGE);
    await click([...document.querySelectorAll("button")].find((b) => b.textContent === "Make the line") ?? null);
    await waitFor(() =>
      expect(document.querySelector("section[aria-label='Sell a line'] [role=alert]")?.textContent).toBe(
        "You need 3 credits; you have 1 — buy credits",
      ),
    );
    expect(sent.find((r) => r.method === "POST")?.body).toEqual({ name: "Thandi Nkosi", whatsapp: "", email: "", package_id: PACKAGE });
  });

  it("the ledger shows a refunded purchase taken back and the credits still owed from it (already spent)", async () => {
    stub({
      "GET /api/partner/me": {
        body: { name: "Sipho Dlamini", username: "sipho", email: "s@example.co.za", credits: 0, low_credits: true },
      },
      "GET /api/partner/packages": { body: { data: [] } },
      "GET /api/partner/lines": { body: { data: [] } },
      "GET /api/partner/ledger": {
        body: {
          data: [
            {
              id: "t2",
              credits: -4,
              note: "Refund CN-000001 of SD-ABC123",
              cause: "order-refund:o1",
              status: "done",
              partner_after: 0,
              created_at: "2026-11-21T09:00:00.000Z",
            },
            {
              id: "t3",
              credits: -6,
              note: "",
              cause: "order-refund-owed:o1",
              status: "owed",
              partner_after: null,
              created_at: "2026-11-21T09:00:01.000Z",
            },
          ],
        },
      },
      "GET /api/partner/credits/offer": { body: { pricing: null, methods: [] } },
      "GET /api/partner/credits/orders": { body: { data: [] } },
    });
    await renderPage();
    const ledger = () => document.querySelector("section[aria-label='Your credit ledger']")?.textContent ?? "";
    await waitFor(() => expect(ledger()).toContain("Taken back: a purchase refunded to you"));
    expect(ledger()).toContain("-4 → 0");
    expect(ledger()).toContain("Owed from a refunded purchase (already spent)");
    expect(ledger()).toContain("6 owed");
  });

  it("the ledger names a renewal and the refund of a renewal the panel refused", async () => {
    const entry = (id: string, credits: number, cause: string, after: number) => ({
      id,
      credits,
      note: "",
      cause,
      status: "done",
      partner_after: after,
      created_at: "2026-11-22T09:00:00.000Z",
    });
    stub({
      "GET /api/partner/me": {
        body: { name: "Sipho Dlamini", username: "sipho", email: "s@example.co.za", credits: 3, low_credits: false },
      },
      "GET /api/partner/packages": { body: { data: [] } },
      "GET /api/partner/lines": { body: { data: [] } },
      "GET /api/partner/ledger": {
        body: {
          data: [entry("t4", -3, "line:l1:renew:r1", 0), entry("t5", 3, "line-refund:l1:renew:r1", 3), entry("t6", -3, "line:l2", 0)],
        },
      },
      "GET /api/partner/credits/offer": { body: { pricing: null, methods: [] } },
      "GET /api/partner/credits/orders": { body: { data: [] } },
    });
    await renderPage();
    const ledger = () => document.querySelector("section[aria-label='Your credit ledger']")?.textContent ?? "";
    await waitFor(() => expect(ledger()).toContain("A line you renewed"));
    expect(ledger()).toContain("Refund for a renewal not made");
    expect(ledger()).toContain("A line you sold");
  });

  it("buys credits: the price at the owner's tier as they type, and by EFT the bank details and reference", async () => {
    const sent = stub({
      "GET /api/partner/me": {
        body: { name: "Sipho Dlamini", username: "sipho", email: "s@example.co.za", credits: 0, low_credits: true },
      },
      "GET /api/partner/packages": { body: { data: [] } },
      "GET /api/partner/lines": { body: { data: [] } },
      "GET /api/partner/ledger": { body: { data: [] } },
      "GET /api/partner/credits/offer": {
        body: {
          pricing: { price_per_credit: 30, tiers: [{ min_credits: 50, price_per_credit: 25 }] },
          methods: [
            { id: "eft", name: "EFT (bank transfer)" },
            { id: "card", name: "Card" },
          ],
        },
      },
      "GET /api/partner/credits/orders": { body: { data: [] } },
      "POST /api/partner/credits/checkout": {
        status: 201,
        body: {
          order: {
            id: "o1",
            credits: 50,
            unit_price: 25,
            amount: 1250,
            status: "pending",
            method: "eft",
            reference: "SD-ABC234",
            error: "",
            created_at: "2026-11-29T10:00:00.000Z",
            paid_at: null,
            delivered_at: null,
          },
          pay_url: null,
          bank: { bank_name: "FNB", account_name: "Demo Streams", account_number: "62812345678", branch_code: "250655", account_type: "" },
        },
      },
    });
    await renderPage();
    await waitFor(() => expect(document.querySelector("[data-testid=credit-prices]")?.textContent).toContain("from 50 credits"));
    await type(document.querySelector("#buy-credits") as HTMLInputElement, "10");
    await waitFor(() => expect(document.querySelector("[data-testid=credit-quote]")?.textContent).toBe("10 credits × R30 = R300"));
    await type(document.querySelector("#buy-credits") as HTMLInputElement, "50");
    await waitFor(() => expect(document.querySelector("[data-testid=credit-quote]")?.textContent).toBe("50 credits × R25 = R1,250"));
    await click([...document.querySelectorAll("button")].find((b) => b.textContent === "Buy credits") ?? null);
    await waitFor(() => expect(document.querySelector("[data-testid=eft-reference]")?.textContent).toBe("SD-ABC234"));
    expect(document.querySelector("[data-testid=eft-details]")?.textContent).toContain("62812345678");
    expect(sent.find((r) => r.method === "POST")?.body).toEqual({ credits: 50, method: "eft" });
  });
});
