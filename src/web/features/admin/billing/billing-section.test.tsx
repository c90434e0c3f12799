// The billing screen: the month's documents with their PDFs and totals (credit notes counted
// against them), the CSV link for that month, a coupon refused beside its field before anything
// is sent and then created, and numbering that the server refuses to move back.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BillingSection } from "./billing-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const requests: { method: string; path: string; search: string; body: unknown }[] = [];

const DOCS = [
  {
    type: "credit_note",
    number: "CN-000001",
    kind: "credit-note",
    title: "Credit Note",
    issued_at: "2026-11-20T10:00:00.000Z",
    customer: "Thandi Buyer",
    client_id: "c1",
    payment_id: "p1",
    reference: "INV-000001",
    excl_cents: 8696,
    vat_cents: 1304,
    incl_cents: 10000,
    invoice_number: "INV-000001",
    reason: "Two days without service",
  },
  {
    type: "invoice",
    number: "INV-000001",
    kind: "tax-abridged",
    title: "Tax Invoice",
    issued_at: "2026-11-19T10:00:00.000Z",
    customer: "Buyer Co (Thandi Buyer)",
    client_id: "c1",
    payment_id: "p1",
    reference: "SD-ABC123",
    excl_cents: 21739,
    vat_cents: 3261,
    incl_cents: 25000,
  },
];

function stub() {
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, path: url.pathname, search: url.search, body });
    const reply = (json: unknown, status = 200) =>
      new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
    if (url.pathname === "/api/admin/invoices") return reply({ data: DOCS });
    if (url.pathname === "/api/admin/coupons" && method === "GET") return reply({ data: [] });
    if (url.pathname === "/api/admin/coupons") return reply({ data: { ...body, id: "k1", uses: 0 } }, 201);
    if (url.pathname === "/api/admin/packages") return reply({ data: [] });
    if (url.pathname === "/api/admin/billing/numbering" && method === "PUT")
      return reply(
        {
          error: {
            code: "validation",
            message: "Invoices are numbered up to 1 already: the next must be 2 or more.",
            fields: { invoice_next: "Invoices are numbered up to 1 already: the next must be 2 or more." },
          },
        },
        400,
      );
    if (url.pathname === "/api/admin/billing/numbering")
      return reply({
        data: {
          invoice_next: 2,
          credit_note_next: 2,
          invoice_prefix: "INV-",
          credit_note_prefix: "CN-",
          invoice_example: "INV-000002",
          credit_note_example: "CN-000002",
        },
      });
    return reply({ data: [] });
  });
}

function renderSection() {
  stub();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <BillingSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe("BillingSection", () => {
  it("lists the month's invoices and credit notes with PDF links, the net total and the month's CSV", async () => {
    renderSection();
    const invoice = await screen.findByRole("link", { name: "INV-000001" });
    expect(invoice.getAttribute("href")).toBe("/api/admin/invoices/INV-000001.pdf");
    expect(screen.getByRole("link", { name: "CN-000001" }).getAttribute("href")).toBe("/api/admin/credit-notes/CN-000001.pdf");
    expect(screen.getByText(/Against INV-000001: Two days without service/)).toBeTruthy();
    // R250 invoiced less R100 credited; VAT R32.61 less R13.04.
    expect(screen.getByText(/2 documents · R150 including R19\.57 VAT/)).toBeTruthy();
    const month = (screen.getByLabelText("Month") as HTMLInputElement).value;
    expect(screen.getByRole("link", { name: /CSV for the bookkeeper/ }).getAttribute("href")).toBe(
      `/api/admin/billing/export.csv?month=${month}`,
    );
    fireEvent.change(screen.getByLabelText("Month"), { target: { value: "2026-10" } });
    await waitFor(() => expect(requests.some((r) => r.path === "/api/admin/invoices" && r.search === "?month=2026-10")).toBe(true));
  });

  it("refuses a percentage coupon without its percentage beside the field, then creates it", async () => {
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "New coupon" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText(/^Code/), { target: { value: "save10" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save coupon" }));
    expect(await within(dialog).findByText("Enter a percentage from 1 to 100")).toBeTruthy();
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Percentage off/), { target: { value: "10" } });
    fireEvent.change(within(dialog).getByLabelText(/^Most uses in all/), { target: { value: "50" } });
    fireEvent.change(within(dialog).getByLabelText(/^Last day it works/), { target: { value: "2026-12-31" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save coupon" }));
    await waitFor(() => expect(requests.some((r) => r.method === "POST" && r.path === "/api/admin/coupons")).toBe(true));
    const sent = requests.find((r) => r.method === "POST")?.body;
    expect(sent).toMatchObject({ code: "SAVE10", kind: "percent", percent_off: 10, max_uses: 50, expires_at: "2026-12-31T23:59:59+02:00" });
  });

  it("shows the server's refusal to move numbering back beside its field", async () => {
    renderSection();
    const next = await screen.findByLabelText("Next invoice number");
    fireEvent.change(next, { target: { value: "1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save numbering" }));
    expect(await screen.findByText("Invoices are numbered up to 1 already: the next must be 2 or more.")).toBeTruthy();
  });
});
