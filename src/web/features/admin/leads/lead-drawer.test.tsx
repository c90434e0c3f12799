// A lead from a returning client says whose it is (linking to them) until it is converted, and
// its next step is renewing that client rather than making a second account.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminLead } from "@/shared/business-schemas";
import { cleanup, getByRoleName, waitFor } from "@/web/testing/render";
import { renderWithClient, stubApi } from "../catalogue/components/test-helpers";
import { LeadDrawer } from "./lead-drawer";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const LEAD: AdminLead = {
  id: "11111111-1111-4111-8111-111111111111",
  form_type: "order",
  name: "Thabo Mokoena",
  email: "thabo@example.co.za",
  whatsapp: "0825551234",
  whatsapp_digits: "27825551234",
  package_name: "3 Months",
  package_price: "1650",
  duration: "3 Months",
  device: "android",
  internet_platform: "fibre",
  other_platform: "",
  internet_speed: "50 Mbps",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  payload: {},
  status: "new",
  client_id: "c9",
  client: { id: "c9", username: "thabo.m", full_name: "Thabo Mokoena", status: "expired" },
  ip: "",
  notes: "",
  created_at: "2026-11-22T06:00:00.000Z",
  updated_at: "2026-11-22T06:00:00.000Z",
  whatsapp_url: "https://wa.me/27825551234?text=Hi",
};

const body = () => document.body;

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("LeadDrawer", () => {
  it("marks a returning client's lead and offers to renew them", async () => {
    stubApi({});
    await renderWithClient(<LeadDrawer lead={LEAD} onOpenChange={() => {}} />);
    await waitFor(() => expect(body().textContent).toContain("Returning client: Thabo Mokoena (thabo.m)"));
    expect(body().querySelector('a[href="/admin/client/c9"]')?.textContent).toBe("Thabo Mokoena (thabo.m)");
    expect(getByRoleName(body(), "button", "Renew client")).toBeTruthy();
    expect(() => getByRoleName(body(), "link", "Open client")).toThrow();
  });

  it("once converted, the lead opens its client and the note is gone", async () => {
    stubApi({});
    await renderWithClient(<LeadDrawer lead={{ ...LEAD, status: "converted" }} onOpenChange={() => {}} />);
    await waitFor(() => expect(getByRoleName(body(), "link", "Open client")).toBeTruthy());
    expect(body().textContent).not.toContain("Returning client");
    expect(() => getByRoleName(body(), "button", "Renew client")).toThrow();
  });
});
