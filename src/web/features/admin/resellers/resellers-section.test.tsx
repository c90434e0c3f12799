// The partners page (issue 45): adding a partner posts the form and shows a taken username on its
// field, the list shows each partner's credits from the panel, and giving credits posts the
// amount and note, with a refusal's balance shown in its words.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ResellerRow } from "@/shared/reseller-schemas";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, stubApi, typeInto } from "../catalogue/components/test-helpers";
import { ResellersSection } from "./resellers-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const THABO: ResellerRow = {
  id: "7a1e0000-0000-4000-8000-000000000001",
  name: "Thabo Mokoena",
  email: "thabo@example.co.za",
  whatsapp: "27825550101",
  username: "thabomokoena",
  panel_user_id: "501",
  status: "active",
  credits: 12,
  lines: 4,
  customers: 3,
  last_purchase_at: "2026-11-20T10:00:00.000Z",
  password_set: true,
  created_at: "2026-11-01T10:00:00.000Z",
};

const list = (rows: ResellerRow[]) => ({ body: { data: rows, total: rows.length, owner_credits: 88, panel_error: "" } });
/** The page's other reads: its settings form, the network view and the credit orders. */
const rest = {
  "/api/admin/resellers/settings": { body: { member_group_id: "4", pricing: null } },
  "/api/admin/resellers/orders": { body: { data: [] } },
  "/api/admin/resellers/network": {
    body: {
      months: [],
      partners: [],
      runway: {
        owner_credits: 88,
        renewals_due_30d: 0,
        renewal_credits_30d: 0,
        partner_demand_30d: 0,
        credits_needed_30d: 0,
        days_left: null,
        runs_out_on: null,
      },
    },
  },
};
const page = () => document.body;
const renderPage = () => renderWithClient(<ResellersSection />, "/admin/resellers");
const card = (name: string) =>
  waitFor(() => {
    const found = page().querySelector<HTMLElement>(`article[aria-label="${name}"]`);
    if (!found) throw new Error(`no card for ${name}`);
    return found;
  });

beforeEach(() => vi.stubGlobal("EventSource", undefined));
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
});

describe("the partners page", () => {
  it("lists each partner with their credits from the panel, lines, customers and last purchase, and the owner's own credits", async () => {
    stubApi({ ...rest, "/api/admin/resellers": list([THABO]) });
    await renderPage();
    const thabo = await card("Thabo Mokoena");
    expect(thabo.querySelector("[data-testid=reseller-credits]")?.textContent).toBe("12");
    expect(thabo.textContent).toContain("thabomokoena");
    expect(thabo.textContent).toContain("+27 82 555 0101");
    expect(thabo.textContent).toContain("20 Nov 2026");
    expect(page().querySelector("[data-testid=owner-credits]")?.textContent).toContain("88");
  });

  it("adds a partner: the form is posted, a username the panel has is shown on its field, another one is added", async () => {
    let taken = true;
    const sent = stubApi({
      ...rest,
      "/api/admin/resellers": list([]),
      "POST /api/admin/resellers": () =>
        taken
          ? {
              status: 409,
              body: {
                error: {
                  code: "username_taken",
                  message: 'The username "thabo" is taken on the panel. Please choose another username.',
                  fields: { username: "That username is taken. Please choose another." },
                },
              },
            }
          : { status: 201, body: { id: THABO.id, username: "thabo.m", panel_user_id: "501" } },
    });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Add a partner']");
      if (!found) throw new Error("no form");
      return found;
    });
    await typeInto(inputByLabel(form, "Name"), "Thabo Mokoena");
    await typeInto(inputByLabel(form, "E-mail"), "thabo@example.co.za");
    await typeInto(inputByLabel(form, "WhatsApp"), "082 555 0101");
    await typeInto(inputByLabel(form, "Username"), "thabo");
    await click(getByRoleName(form, "button", "Add partner"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "Username"))).toBe("That username is taken. Please choose another."));

    taken = false;
    await typeInto(inputByLabel(form, "Username"), "thabo.m");
    await click(getByRoleName(form, "button", "Add partner"));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Partner added", expect.anything()));
    const posts = sent.filter((r) => r.method === "POST" && r.path === "/api/admin/resellers");
    expect(posts.map((r) => r.body)).toEqual([
      { name: "Thabo Mokoena", email: "thabo@example.co.za", whatsapp: "082 555 0101", username: "thabo" },
      { name: "Thabo Mokoena", email: "thabo@example.co.za", whatsapp: "082 555 0101", username: "thabo.m" },
    ]);
  });

  it("gives credits with a note, and shows a refusal's balance in its words", async () => {
    let refuse = false;
    const sent = stubApi({
      ...rest,
      "/api/admin/resellers": list([THABO]),
      [`POST /api/admin/resellers/${THABO.id}/credits`]: (body) =>
        refuse
          ? {
              status: 409,
              body: {
                error: {
                  code: "insufficient_credits",
                  message: "You have 88 credits on the panel, so you cannot give 500. Nothing was moved.",
                  fields: { balance: "88" },
                },
              },
            }
          : {
              status: 201,
              body: { data: { id: "t1", reseller_id: THABO.id, ...(body as object), partner_after: 17, status: "done" } },
            },
    });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Credits for Thabo Mokoena']");
      if (!found) throw new Error("no credits form");
      return found;
    });
    await typeInto(form.querySelector("input[inputmode=numeric]") as HTMLInputElement, "5");
    await typeInto(form.querySelectorAll("input")[1] as HTMLInputElement, "November order");
    await click(getByRoleName(form, "button", "Give"));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Gave 5 credits to Thabo Mokoena", expect.anything()));
    expect(sent.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([{ credits: 5, note: "November order" }]);

    refuse = true;
    await typeInto(form.querySelector("input[inputmode=numeric]") as HTMLInputElement, "500");
    await click(getByRoleName(form, "button", "Give"));
    await waitFor(() =>
      expect(form.querySelector("[role=alert]")?.textContent).toBe(
        "You have 88 credits on the panel, so you cannot give 500. Nothing was moved.",
      ),
    );
  });
});
