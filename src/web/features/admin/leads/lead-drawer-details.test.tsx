// Issue 16 item 18: the lead drawer shows one price (the package's, or the one the form showed)
// and words for what the submission carried, never raw field names.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminLead } from "@/shared/business-schemas";
import { LeadDrawer, payloadLabel } from "./lead-drawer";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const LEAD: AdminLead = {
  id: "22222222-2222-4222-8222-222222222222",
  form_type: "order",
  name: "Lerato Dlamini",
  email: "lerato@example.co.za",
  whatsapp: "0825550000",
  whatsapp_digits: "27825550000",
  package_name: "Month to Month",
  package_price: "",
  duration: "1 Month",
  device: "android",
  internet_platform: "fibre",
  other_platform: "",
  internet_speed: "",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  payload: { shownPrice: "R650", immediateStartConsent: true, packageId: "p-1" },
  status: "new",
  client_id: null,
  client: null,
  ip: "",
  notes: "",
  created_at: "2026-11-22T06:00:00.000Z",
  updated_at: "2026-11-22T06:00:00.000Z",
  whatsapp_url: "https://wa.me/27825550000?text=Hi",
};

function renderDrawer(lead: AdminLead) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <LeadDrawer lead={lead} onOpenChange={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return within(screen.getByRole("dialog"));
}

/** The value shown beside a label in the drawer's details list. */
const shownFor = (drawer: ReturnType<typeof within>, label: string) =>
  drawer.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

afterEach(cleanup);

describe("LeadDrawer details", () => {
  it("shows the price the form showed in the one Price row, not 'Price —' beside 'Shown Price'", () => {
    const drawer = renderDrawer(LEAD);
    expect(shownFor(drawer, "Price")).toBe("R650 (as shown on the form)");
    expect(drawer.queryByText("Shown Price")).toBeNull();
    expect(drawer.queryByText(/Shown price/i, { selector: "dt" })).toBeNull();
  });

  it("says what the immediate-start consent means, in words", () => {
    const drawer = renderDrawer(LEAD);
    expect(shownFor(drawer, "Start")).toBe("At once (waived the 7-day cooling-off)");
    expect(drawer.queryByText("Immediate Start Consent")).toBeNull();
    expect(drawer.queryByText(/immediate start consent/i, { selector: "dt" })).toBeNull();
  });

  it("prefers the package's saved price, and names other fields in words", () => {
    const drawer = renderDrawer({ ...LEAD, package_price: "R1,650", payload: { otherThing: "x" } });
    expect(shownFor(drawer, "Price")).toBe("R1,650");
    expect(shownFor(drawer, "Other thing")).toBe("x");
    expect(payloadLabel("packageId")).toBe("Package (id)");
  });

  it("saves the notes through the shared schema: the button waits for a change, then PATCHes the notes", async () => {
    const patches: unknown[] = [];
    vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
      patches.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ data: { ...LEAD, notes: "Called, pays Friday" } }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    });
    const drawer = renderDrawer({ ...LEAD, notes: "" });
    const save = drawer.getByRole("button", { name: "Save notes" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.input(drawer.getByLabelText("Notes"), { target: { value: "Called, pays Friday" } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(patches).toEqual([{ notes: "Called, pays Friday" }]));
    vi.unstubAllGlobals();
  });
});
