// The "Your alerts" settings (issue 25 item 5): the shared rule's message beside a bad address or
// number before anything is sent, the server's refusal beside its field, and what is posted for
// a valid number and a switched-off alert.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { OWNER_ALERT_CAUSES, OWNER_ALERT_MESSAGES, OWNER_ALERT_SETTINGS } from "@/shared/owner-alerts";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import {
  fieldError,
  inputByLabel,
  type Recorded,
  renderWithClient,
  shimSelectDefaults,
  stubApi,
  typeInto,
} from "../components/test-helpers";
import { SettingsSection } from "./settings-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== "GET");
/** The "Your alerts" form. */
const alertsForm = () =>
  waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-labelledby="group-owner-alerts"]');
    if (!form) throw new Error("no alerts form");
    return form;
  });

beforeAll(shimSelectDefaults);
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("Your alerts", () => {
  it("shows the rule's message beside a number that is not South African, and sends nothing", async () => {
    const requests = stubApi({ "/api/admin/settings": { body: { data: [] } } });
    await renderWithClient(<SettingsSection />);
    const form = await alertsForm();
    await typeInto(inputByLabel(form, "Alert WhatsApp number"), "+44 20 7946 0000");
    await typeInto(inputByLabel(form, "Summary hour (South African time)"), "25");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "Alert WhatsApp number"))).toBe(OWNER_ALERT_MESSAGES.whatsapp));
    expect(fieldError(inputByLabel(form, "Summary hour (South African time)"))).toBe(OWNER_ALERT_MESSAGES.digestHour);
    expect(writes(requests)).toEqual([]);
  });

  it("shows, in the empty alerts e-mail, the first admin's address the alerts go to meanwhile", async () => {
    stubApi({
      "/api/admin/settings": { body: { data: [] } },
      "/api/admin/alerts-email": { body: { data: { email: "first@owner.example", first_admin: "first@owner.example" } } },
    });
    await renderWithClient(<SettingsSection />);
    const form = await alertsForm();
    const field = inputByLabel(form, "Alerts e-mail");
    await waitFor(() => expect(field.placeholder).toBe("Not set: first@owner.example, the first admin's address"));
    expect(field.value).toBe("");
  });

  it("posts the number and a switched-off alert by key, and puts the server's refusal beside the e-mail", async () => {
    const requests = stubApi({
      "/api/admin/settings": { body: { data: [] } },
      "POST /api/admin/settings": (body) => {
        const { key, value } = body as { key: string; value: string };
        if (key === OWNER_ALERT_SETTINGS.email) {
          return { status: 400, body: { error: { code: "validation", message: "Refused", fields: { value: "The server says no" } } } };
        }
        return { status: 201, body: { id: key, key, value, description: "", is_active: true } };
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await alertsForm();
    await typeInto(inputByLabel(form, "Alerts e-mail"), "owner@example.co.za");
    await typeInto(inputByLabel(form, "Alert WhatsApp number"), "082 555 0100");
    await typeInto(inputByLabel<HTMLSelectElement>(form, OWNER_ALERT_CAUSES["eft-order"].label), "off");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(writes(requests)).toHaveLength(3));
    expect(writes(requests).map((r) => r.body)).toEqual([
      { key: OWNER_ALERT_SETTINGS.email, value: "owner@example.co.za" },
      { key: OWNER_ALERT_SETTINGS.whatsapp, value: "082 555 0100" },
      { key: OWNER_ALERT_CAUSES["eft-order"].setting, value: "off" },
    ]);
    await waitFor(() => expect(fieldError(inputByLabel(form, "Alerts e-mail"))).toBe("The server says no"));
  });
});
