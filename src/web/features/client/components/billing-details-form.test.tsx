// 'Invoice details' in the portal: what is saved shows, a VAT number of the wrong shape is
// refused beside its field before anything is sent, and a good one is sent without its spaces.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VAT_NUMBER_MESSAGE } from "@/shared/billing";
import { BillingDetailsCard } from "./billing-details-form";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const sent: unknown[] = [];

function renderCard() {
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "PUT") {
      const body = JSON.parse(String(init.body));
      sent.push(body);
      return new Response(
        JSON.stringify({ data: { company: body.company ?? "", address: body.address ?? "", vatNumber: body.vatNumber ?? "" } }),
        {
          status: 200,
          headers: { "content-type": "application/json" },
        },
      );
    }
    return new Response(JSON.stringify({ data: { company: "Acme", address: "", vatNumber: "" } }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BillingDetailsCard />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sent.length = 0;
});

describe("BillingDetailsCard", () => {
  it("shows what is saved, refuses a VAT number of the wrong shape, and saves a good one without spaces", async () => {
    renderCard();
    const company = (await screen.findByLabelText("Company name")) as HTMLInputElement;
    expect(company.value).toBe("Acme");
    fireEvent.change(screen.getByLabelText("VAT number"), { target: { value: "5123456789" } });
    fireEvent.click(screen.getByRole("button", { name: "Save invoice details" }));
    expect(await screen.findByText(VAT_NUMBER_MESSAGE)).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("VAT number"), { target: { value: "4123 456 789" } });
    fireEvent.click(screen.getByRole("button", { name: "Save invoice details" }));
    await waitFor(() => expect(sent).toEqual([{ company: "Acme", vatNumber: "4123456789" }]));
  });
});
