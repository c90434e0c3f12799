// The trial settings (issue 27): trial_mode and the limits are checked where settings are saved
// (a 400 on value, nothing written), and the mode defaults to instant only when the panel makes
// lines by itself and a panel package is chosen for trials.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "@/server/db/schema";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { TRIAL_SETTING_MESSAGES, TRIAL_SETTINGS } from "@/shared/trial-schemas";
import { trialMode } from "./mode";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const save = (key: string, value: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/settings",
    headers: { origin: "http://localhost:8080", cookie },
    payload: { key, value },
  });
const stored = async (key: string) => (await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, key)))[0]?.value;

describe("trial settings where they are saved", () => {
  it.each([
    [TRIAL_SETTINGS.mode, ["instant", "approve", ""], ["auto", "INSTANT!", "yes"], TRIAL_SETTING_MESSAGES.mode],
    // empty is the default again (the card says "Not set: 2, the default"), as for the mode
    [TRIAL_SETTINGS.perNetwork, ["1", "2", "10", ""], ["0", "-1", "abc", "2.5"], TRIAL_SETTING_MESSAGES.perNetwork],
    [TRIAL_SETTINGS.dailyCap, ["1", "50", "500", ""], ["0", "abc", "1e3"], TRIAL_SETTING_MESSAGES.dailyCap],
    [TRIAL_SETTINGS.disposable, ["on", "off"], ["yes", "", "1"], TRIAL_SETTING_MESSAGES.disposable],
  ] as const)("%s accepts %j and refuses %j with a 400 on value", async (key, good, bad, message) => {
    for (const value of good) {
      const res = await save(key, value);
      expect([200, 201], res.body).toContain(res.statusCode);
    }
    const last = good[good.length - 1];
    for (const value of bad) {
      const res = await save(key, value);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ value: message });
      expect(await stored(key)).toBe(last);
    }
    await t.app.db.delete(siteSettings).where(eq(siteSettings.key, key));
  });
});

describe("the default mode", () => {
  it("is approve until a trial package is chosen on a panel that makes lines, then instant; the owner's choice wins", async () => {
    expect(t.app.provisioning.panel.mode).toBe("sandbox");
    // the settings reach the cached reads through the change feed (asynchronous on PostgreSQL)
    const modeBecomes = (mode: string) => eventually(async () => expect(await trialMode(t.app)).toBe(mode));
    await modeBecomes("approve");
    await t.app.db.insert(siteSettings).values({ key: TRIAL_PACKAGE_SETTING, value: "sbx-trial", is_active: false });
    await modeBecomes("instant");
    expect((await save(TRIAL_SETTINGS.mode, "approve")).statusCode).toBe(201);
    await modeBecomes("approve");
    expect((await save(TRIAL_SETTINGS.mode, "")).statusCode).toBe(200);
    await modeBecomes("instant");
  });
});
