// A setting still at the seed's placeholder ("Set in Admin › Settings") shows as an empty field
// marked "Not filled in yet": the owner types the real value instead of first deleting ours, and
// saving another field never writes the placeholder back or blanks it.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SETTING_PLACEHOLDER } from "@/shared/constants";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { inputByLabel, type Recorded, renderWithClient, shimSelectDefaults, stubApi, typeInto } from "../components/test-helpers";
import { NOT_FILLED_IN } from "./settings-group-form";
import { SettingsSection } from "./settings-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== "GET");
const eftForm = () =>
  waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-labelledby="group-eft"]');
    if (!form) throw new Error("no EFT form");
    return form;
  });
const setting = (key: string, value: string) => ({ id: key, key, value, description: "", is_active: true });

beforeAll(shimSelectDefaults);
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("Site settings: values still at the seed's placeholder", () => {
  it("shows them as empty fields marked not filled in, and real values as they are", async () => {
    stubApi({
      "/api/admin/settings": {
        body: { data: [setting("eft_bank_name", SETTING_PLACEHOLDER), setting("eft_account_name", "Example Media (Pty) Ltd")] },
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await eftForm();
    const bank = inputByLabel(form, "Bank");
    expect(bank.value).toBe("");
    expect(bank.placeholder).toBe(NOT_FILLED_IN);
    const holder = inputByLabel(form, "Account holder");
    expect(holder.value).toBe("Example Media (Pty) Ltd");
    expect(holder.placeholder).toBe("");
  });

  it("posts only what the owner typed: the typed bank, never the placeholder or a blank for untouched fields", async () => {
    const requests = stubApi({
      "/api/admin/settings": {
        body: { data: [setting("eft_bank_name", SETTING_PLACEHOLDER), setting("eft_account_number", SETTING_PLACEHOLDER)] },
      },
      "POST /api/admin/settings": (body) => {
        const { key, value } = body as { key: string; value: string };
        return { status: 201, body: setting(key, value) };
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await eftForm();
    await typeInto(inputByLabel(form, "Bank"), "FNB");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    expect(writes(requests)[0]?.body).toEqual({ key: "eft_bank_name", value: "FNB" });
  });
});

describe("Site settings: the VAT card", () => {
  it("each yes/no has its own words, and no hint speaks in stored values ('true', 'false', vat_note)", async () => {
    stubApi({
      "/api/admin/settings": {
        body: {
          data: [
            {
              ...setting("prices_include_vat", "true"),
              description: "'true' if the prices shown include VAT, 'false' if not. Keep it in line with vat_note.",
            },
            setting("vat_vendor", "false"),
          ],
        },
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await waitFor(() => {
      const found = document.querySelector<HTMLFormElement>('form[aria-labelledby="group-vat"]');
      if (!found) throw new Error("no VAT form");
      return found;
    });
    const prices = inputByLabel<HTMLSelectElement>(form, "Do the prices shown include VAT?");
    expect([...prices.options].map((o) => o.textContent)).toEqual([
      "Not said",
      "Yes: the prices include VAT",
      "No: not registered for VAT, or VAT is added",
    ]);
    expect(prices.value).toBe("true");
    const vendor = inputByLabel<HTMLSelectElement>(form, "Registered for VAT (a VAT vendor)");
    expect([...vendor.options].map((o) => o.textContent)).toEqual(["Not said", "Yes: registered for VAT", "No: not registered"]);
    expect(vendor.value).toBe("false");
    expect(form.textContent).not.toMatch(/'true'|'false'|vat_note/);
  });
});
