// 'New client' and 'Edit client' on react-hook-form over the shared schemas: no status or
// dates to type (the lifecycle owns them), how a new client starts, the server's field errors
// beside their fields, and an edit sending only what changed.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminClient } from "@/shared/business-schemas";
import { MAC_MESSAGE } from "@/shared/device-lines";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, shimSelectDefaults, stubApi, typeInto } from "../catalogue/components/test-helpers";
import { CreateClientDialog } from "./create-client-dialog";
import { EditClientDialog } from "./edit-client-dialog";
import { LineMacDialog } from "./line-mac-dialog";
import { ResetPasswordDialog } from "./reset-password-dialog";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
shimSelectDefaults();

const PKG = "00000000-0000-4000-8000-000000000002";
const PACKAGES = [{ id: PKG, name: "3 Months", price: 1650, price_today: 1450, duration: "3 Months", duration_months: 3, is_active: true }];
const SETTINGS = [{ id: "s1", key: "free_trial_hours", value: "48", description: "", is_active: true }];

const CLIENT: AdminClient = {
  id: "c1",
  username: "thandi.n",
  full_name: "Thandi Nkosi",
  email: "thandi@example.test",
  whatsapp: "0821234567",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  marketing_opt_in_at: null,
  package_id: PKG,
  package_name: "3 Months",
  status: "active",
  subscription_start: "2026-11-01T10:00:00.000Z",
  subscription_end: "2027-02-01T10:00:00.000Z",
  device: "firestick",
  internet_platform: "fibre",
  line_username: "",
  line_password: "",
  line_portal_url: "",
  panel_line_id: null,
  line_expires_at: null,
  line_enabled: false,
  line_is_test: false,
  line_sync_issue: "",
  line_type: "m3u",
  line_mac: "",
  possible_duplicate_of: null,
  merged_into: null,
  notes: "",
  created_at: "2026-11-01T10:00:00.000Z",
  updated_at: "2026-11-01T10:00:00.000Z",
};

const body = () => document.body;
const dialog = () =>
  waitFor(() => {
    const found = body().querySelector<HTMLElement>("[role=dialog]");
    if (!found) throw new Error("no dialog");
    return found;
  });

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("New client", () => {
  it("offers how they start instead of a status and dates, checks the form, and places the server's field errors", async () => {
    let answers = 0;
    const requests = stubApi({
      "/api/admin/packages": { body: { data: PACKAGES } },
      "/api/admin/settings": { body: { data: SETTINGS } },
      "POST /api/admin/clients": () =>
        ++answers === 1
          ? {
              status: 409,
              body: { error: { code: "conflict", message: "That username is taken", fields: { username: "That username is taken" } } },
            }
          : { status: 201, body: { client: { ...CLIENT, status: "trial" }, queued_to: [{ channel: "whatsapp", hint: "ending 4567" }] } },
    });
    await renderWithClient(<CreateClientDialog open onOpenChange={() => {}} />);
    const form = await dialog();

    expect(form.querySelector("input[type=date]")).toBeNull();
    expect(() => inputByLabel(form, "Status")).toThrow();
    const pending = form.querySelector<HTMLInputElement>("input[type=radio][value=pending]");
    const trial = form.querySelector<HTMLInputElement>("input[type=radio][value=trial]");
    expect(pending?.checked).toBe(true);
    expect(pending?.closest("label")?.textContent).toContain("Waiting for first payment");
    expect(trial?.closest("label")?.textContent).toContain("Free trial now");
    await waitFor(() => expect(trial?.closest("label")?.textContent).toContain("48 hours from now"));
    // the package list shows today's price
    await waitFor(() => expect(form.querySelector(`option[value="${PKG}"]`)?.textContent).toBe("3 Months · R1,450 (special)"));

    // the shared schema: a full name is needed; nothing is sent without one
    await click(getByRoleName(form, "button", "Create client"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "Full name"))).toBe("Please enter the client's full name"));
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    await typeInto(inputByLabel(form, "Full name"), "Thandi Nkosi");
    await typeInto(inputByLabel(form, "Portal username"), "thandi.n");
    await click(trial);
    await click(getByRoleName(form, "button", "Create client"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "Portal username"))).toBe("That username is taken"));
    const sent = requests.find((r) => r.method === "POST")?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ full_name: "Thandi Nkosi", username: "thandi.n", start: "trial", package_id: null });
    for (const gone of ["status", "subscription_start", "subscription_end"]) expect(sent).not.toHaveProperty(gone);

    await typeInto(inputByLabel(form, "Portal username"), "thandi.nk");
    await click(getByRoleName(form, "button", "Create client"));
    // no password to copy by hand: where the link to choose one was queued, masked
    await waitFor(() =>
      expect(body().querySelector("[data-testid=queued-to]")?.textContent).toContain(
        "A link to choose a password was queued to WhatsApp ending 4567.",
      ),
    );
    expect(body().querySelector("[data-testid=one-time-password]")).toBeNull();
  });
});

describe("Edit client", () => {
  it("has no status, start or dates, and sends only the fields that changed", async () => {
    const requests = stubApi({
      "/api/admin/packages": { body: { data: PACKAGES } },
      "PATCH /api/admin/clients/c1": (patch) => ({ body: { data: { ...CLIENT, ...(patch as object) } } }),
    });
    await renderWithClient(<EditClientDialog client={CLIENT} open onOpenChange={() => {}} />);
    const form = await dialog();
    expect(form.querySelector("input[type=date], input[type=radio]")).toBeNull();
    expect(() => inputByLabel(form, "Status")).toThrow();
    // the stored choices show once the packages are there
    await waitFor(() => expect(inputByLabel<HTMLSelectElement>(form, "Package").value).toBe(PKG));
    expect(inputByLabel<HTMLSelectElement>(form, "Device").value).toBe("firestick");

    await typeInto(inputByLabel(form, "WhatsApp number"), "0839876543");
    await click(getByRoleName(form, "button", "Save changes"));
    await waitFor(() => expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({ whatsapp: "0839876543" }));
  });
});

describe("Reset password", () => {
  it("asks first, then says where the link to choose a new password was queued: no password shown", async () => {
    const requests = stubApi({
      "POST /api/admin/clients/c1/reset-password": () => ({ body: { queued_to: [{ channel: "whatsapp", hint: "ending 4567" }] } }),
    });
    await renderWithClient(<ResetPasswordDialog client={CLIENT} open onOpenChange={() => {}} />);
    const form = await dialog();
    expect(form.textContent).toContain("they are sent a link to choose a new one");
    await click(getByRoleName(form, "button", "Reset password"));
    await waitFor(() =>
      expect(body().querySelector("[data-testid=queued-to]")?.textContent).toContain(
        "A link to choose a new password was queued to WhatsApp ending 4567.",
      ),
    );
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(body().querySelector("[data-testid=one-time-password]")).toBeNull();
  });
});

describe("The box's MAC (owner's tool)", () => {
  it("a client with no line yet: chooses the box and its MAC, checked by the shared schema, and sends both", async () => {
    const requests = stubApi({
      "POST /api/admin/clients/c1/line-mac": {
        status: 200,
        body: { data: { line_type: "enigma2", line_mac: "AA:BB:CC:DD:EE:01", change: null } },
      },
    });
    const done = vi.fn();
    await renderWithClient(<LineMacDialog client={{ ...CLIENT, panel_line_id: null }} open onOpenChange={done} />);
    const form = await dialog();
    await click(getByRoleName(form, "button", "Save MAC address"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "New MAC address"))).toBe(MAC_MESSAGE));
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    await typeInto(inputByLabel(form, "Device") as HTMLSelectElement, "enigma2");
    await typeInto(inputByLabel(form, "New MAC address"), "aa-bb-cc-dd-ee-01");
    await click(getByRoleName(form, "button", "Save MAC address"));
    await waitFor(() => expect(done).toHaveBeenCalledWith(false));
    expect(requests.find((r) => r.method === "POST")?.body).toEqual({ mac: "AA:BB:CC:DD:EE:01", lineType: "enigma2" });
  });

  it("a box's line on the panel: only the MAC is sent, a warning outside 00:1A:79, and the server's refusal lands on the field", async () => {
    const requests = stubApi({
      "POST /api/admin/clients/c1/line-mac": {
        status: 409,
        body: {
          error: {
            code: "conflict",
            message: "That is already this client's MAC address.",
            fields: { mac: "That is already this client's MAC address." },
          },
        },
      },
    });
    const box = { ...CLIENT, panel_line_id: "77", line_type: "mag", line_mac: "00:1A:79:00:00:01" };
    await renderWithClient(<LineMacDialog client={box} open onOpenChange={() => {}} />);
    const form = await dialog();
    expect(() => inputByLabel(form, "Device")).toThrow();
    await typeInto(inputByLabel(form, "New MAC address"), "12:34:56:78:9A:BC");
    await waitFor(() => expect(form.querySelector("[data-testid=mac-warning]")?.textContent).toContain("start with 00:1A:79"));
    await click(getByRoleName(form, "button", "Change MAC address"));
    await waitFor(() => expect(fieldError(inputByLabel(form, "New MAC address"))).toBe("That is already this client's MAC address."));
    expect(requests.find((r) => r.method === "POST")?.body).toEqual({ mac: "12:34:56:78:9A:BC" });
  });
});
