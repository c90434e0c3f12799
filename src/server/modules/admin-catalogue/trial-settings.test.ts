// Issue 48 item 4: what the dashboard's Free trials card sends through the settings API. Each
// value its controls offer is saved and read back as the trials module reads it; a bad value is a
// 400 on `value` with the rule's words, by POST and by PATCH, and the stored value stays.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { explicitTrialMode, TRIAL_LIMIT_DEFAULTS, TRIAL_SETTING_MESSAGES, TRIAL_SETTINGS, trialLimits } from "@/shared/trial-schemas";

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const save = (key: string, value: string) => admin.call({ method: "POST", url: "/api/admin/settings", payload: { key, value } });
const storedRows = async () => Object.fromEntries((await t.app.db.select().from(siteSettings)).map((row) => [row.key, row.value]));

describe("the Free trials card's settings through the settings API", () => {
  it("saves each value the card offers and reads it back as the trials module does", async () => {
    for (const [key, value] of [
      [TRIAL_SETTINGS.mode, "approve"],
      [TRIAL_SETTINGS.perNetwork, "3"],
      [TRIAL_SETTINGS.dailyCap, "120"],
      [TRIAL_SETTINGS.disposable, "off"],
    ]) {
      const res = await save(key, value);
      expect(res.statusCode, res.body).toBe(201);
    }
    const stored = await storedRows();
    expect(explicitTrialMode(stored)).toBe("approve");
    expect(trialLimits(stored)).toEqual({ perNetwork: 3, dailyCap: 120, blockDisposable: false });
    // the mode's "Automatic" entry is the empty value: the default again
    expect((await save(TRIAL_SETTINGS.mode, "")).statusCode).toBe(200);
    expect(explicitTrialMode(await storedRows())).toBeNull();
    // so are the limits' empty values: the owner can go back to the defaults the card names
    expect((await save(TRIAL_SETTINGS.perNetwork, "")).statusCode).toBe(200);
    expect((await save(TRIAL_SETTINGS.dailyCap, " ")).statusCode).toBe(200);
    expect(trialLimits(await storedRows())).toEqual({ ...TRIAL_LIMIT_DEFAULTS, blockDisposable: false });
  });

  it.each([
    [TRIAL_SETTINGS.mode, "sometimes", TRIAL_SETTING_MESSAGES.mode],
    [TRIAL_SETTINGS.perNetwork, "0", TRIAL_SETTING_MESSAGES.perNetwork],
    [TRIAL_SETTINGS.dailyCap, "100001", TRIAL_SETTING_MESSAGES.dailyCap],
    [TRIAL_SETTINGS.disposable, "maybe", TRIAL_SETTING_MESSAGES.disposable],
  ])("refuses %s = %j with a 400 on value, by POST and by PATCH, and keeps what was stored", async (key, bad, message) => {
    const before = (await storedRows())[key];
    const posted = await save(key, bad);
    expect(posted.statusCode).toBe(400);
    expect(posted.json().error.fields).toEqual({ value: message });
    const [row] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, key));
    const patched = await admin.call({ method: "PATCH", url: `/api/admin/settings/${row.id}`, payload: { value: bad } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.fields).toEqual({ value: message });
    expect((await storedRows())[key]).toBe(before);
  });
});
