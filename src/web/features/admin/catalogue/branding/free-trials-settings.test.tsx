// Issue 48 item 4: the free-trial settings (how a trial starts, the per-network and daily limits,
// throwaway e-mail addresses, with the length and the rules) have their own card with labelled,
// explained controls, saved through POST /api/admin/settings and checked by the same rule as the
// server; the keys no longer show as raw rows under "Other settings".
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TRIAL_SETTING_MESSAGES, TRIAL_SETTINGS } from "@/shared/trial-schemas";
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
const setting = (key: string, value: string) => ({ id: key, key, value, description: "", is_active: true });
const trialsForm = () =>
  waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-labelledby="group-free-trials"]');
    if (!form) throw new Error("no Free trials form");
    return form;
  });
const LABELS = {
  mode: "How a trial starts",
  perNetwork: "Trials a day from one internet connection",
  dailyCap: "Trials a day for the whole shop",
  disposable: "Throwaway e-mail addresses",
} as const;

beforeAll(shimSelectDefaults);
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the Free trials card", () => {
  it("shows each trial setting as a labelled control with a sentence saying what it does, and none under Other settings", async () => {
    stubApi({
      "/api/admin/settings": {
        body: {
          data: [setting(TRIAL_SETTINGS.mode, "approve"), setting(TRIAL_SETTINGS.dailyCap, "20"), setting("some_new_feature", "x")],
        },
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await trialsForm();
    expect(inputByLabel<HTMLSelectElement>(form, LABELS.mode).value).toBe("approve");
    expect(inputByLabel(form, LABELS.dailyCap).value).toBe("20");
    expect(inputByLabel(form, LABELS.perNetwork).placeholder).toBe("Not set: 2, the default");
    // not stored: refusing throwaway addresses, the default, shows as chosen
    expect(inputByLabel<HTMLSelectElement>(form, LABELS.disposable).value).toBe("on");
    for (const label of Object.values(LABELS)) {
      const hint = inputByLabel(form, label)
        .getAttribute("aria-describedby")
        ?.split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ");
      expect(hint, label).toMatch(/\w+ \w+ \w+/);
    }
    // "Other settings" lists the keys no card shows: the new feature's, not the trial's
    await waitFor(() => expect(document.body.textContent).toContain("some_new_feature"));
    for (const key of Object.values(TRIAL_SETTINGS)) expect(document.body.textContent ?? "", key).not.toContain(key);
  });

  it("saves each setting by its key: the mode, both limits and letting throwaway addresses through", async () => {
    const requests = stubApi({
      "/api/admin/settings": { body: { data: [] } },
      "POST /api/admin/settings": (body) => {
        const { key, value } = body as { key: string; value: string };
        return { status: 201, body: setting(key, value) };
      },
    });
    await renderWithClient(<SettingsSection />);
    const form = await trialsForm();
    await typeInto(inputByLabel<HTMLSelectElement>(form, LABELS.mode), "instant");
    await typeInto(inputByLabel(form, LABELS.perNetwork), "3");
    await typeInto(inputByLabel(form, LABELS.dailyCap), "120");
    await typeInto(inputByLabel<HTMLSelectElement>(form, LABELS.disposable), "off");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(writes(requests)).toHaveLength(4));
    expect(writes(requests).map((r) => r.body)).toEqual([
      { key: TRIAL_SETTINGS.mode, value: "instant" },
      { key: TRIAL_SETTINGS.perNetwork, value: "3" },
      { key: TRIAL_SETTINGS.dailyCap, value: "120" },
      { key: TRIAL_SETTINGS.disposable, value: "off" },
    ]);
  });

  it("shows the rule's message beside a limit that is not a whole number in range, and sends nothing", async () => {
    const requests = stubApi({ "/api/admin/settings": { body: { data: [] } } });
    await renderWithClient(<SettingsSection />);
    const form = await trialsForm();
    await typeInto(inputByLabel(form, LABELS.perNetwork), "0");
    await typeInto(inputByLabel(form, LABELS.dailyCap), "lots");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(fieldError(inputByLabel(form, LABELS.perNetwork))).toBe(TRIAL_SETTING_MESSAGES.perNetwork));
    expect(fieldError(inputByLabel(form, LABELS.dailyCap))).toBe(TRIAL_SETTING_MESSAGES.dailyCap);
    expect(writes(requests)).toEqual([]);
  });

  it("puts the server's refusal beside its field", async () => {
    stubApi({
      "/api/admin/settings": { body: { data: [] } },
      "POST /api/admin/settings": () => ({
        status: 400,
        body: { error: { code: "validation", message: "Refused", fields: { value: TRIAL_SETTING_MESSAGES.dailyCap } } },
      }),
    });
    await renderWithClient(<SettingsSection />);
    const form = await trialsForm();
    await typeInto(inputByLabel(form, LABELS.dailyCap), "90");
    await click(getByRoleName(form, "button", "Save"));
    await waitFor(() => expect(fieldError(inputByLabel(form, LABELS.dailyCap))).toBe(TRIAL_SETTING_MESSAGES.dailyCap));
  });
});
