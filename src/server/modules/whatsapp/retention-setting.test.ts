// The whatsapp_retention_months setting (issue 26, POPIA) where settings are saved: a whole number
// of months from 1 to 120, else a 400 on value and the stored value untouched; the purge job reads
// what was saved.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings, whatsappMessages } from "@/server/db/schema";
import { purgeWhatsAppMessages } from "@/server/jobs/whatsapp-retention";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { WHATSAPP_RETENTION_MESSAGE, WHATSAPP_RETENTION_SETTING } from "@/shared/inbox-schemas";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const headers = () => ({ origin: "http://localhost:8080", cookie });
const save = (value: string) =>
  t.app.inject({ method: "POST", url: "/api/admin/settings", headers: headers(), payload: { key: WHATSAPP_RETENTION_SETTING, value } });
const stored = async () => (await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, WHATSAPP_RETENTION_SETTING)))[0]?.value;

describe("whatsapp_retention_months where settings are saved", () => {
  it("accepts a whole number of months from 1 to 120", async () => {
    for (const value of ["1", "120", " 24 ", "6"]) {
      const res = await save(value);
      expect([200, 201], res.body).toContain(res.statusCode);
      expect(await stored()).toBe(value.trim()); // values are stored trimmed
    }
  });

  it("refuses anything else with a 400 on value, the stored value untouched", async () => {
    expect([200, 201]).toContain((await save("6")).statusCode);
    for (const value of ["0", "121", "-3", "2.5", "abc", "", "   ", "1e2", "twelve", "0012x"]) {
      const res = await save(value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().error.fields).toEqual({ value: WHATSAPP_RETENTION_MESSAGE });
      expect(await stored()).toBe("6");
    }
  });

  it("PATCH checks the new value, and a key renamed to it, as the row will read", async () => {
    await save("6");
    const [row] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, WHATSAPP_RETENTION_SETTING));
    const patch = (payload: Record<string, string>, id = row.id) =>
      t.app.inject({ method: "PATCH", url: `/api/admin/settings/${id}`, headers: headers(), payload });
    const refused = await patch({ value: "500" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ value: WHATSAPP_RETENTION_MESSAGE });
    expect(await stored()).toBe("6");

    const draft = (
      await t.app.inject({
        method: "POST",
        url: "/api/admin/settings",
        headers: headers(),
        payload: { key: "retention_draft", value: "999" },
      })
    ).json();
    await t.app.db.delete(siteSettings).where(eq(siteSettings.key, WHATSAPP_RETENTION_SETTING));
    const renamed = await patch({ key: WHATSAPP_RETENTION_SETTING }, draft.id);
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.fields).toEqual({ value: WHATSAPP_RETENTION_MESSAGE });
    expect(await stored()).toBeUndefined();
  });

  it("the purge job keeps messages for the saved number of months", async () => {
    const month = 30 * 86_400_000;
    await t.app.db.insert(whatsappMessages).values([
      { number: "27825559001", direction: "in", wamid: "wamid.ret.4", text: "4 months ago", sent_at: new Date(Date.now() - 4 * month) },
      { number: "27825559001", direction: "in", wamid: "wamid.ret.2", text: "2 months ago", sent_at: new Date(Date.now() - 2 * month) },
    ]);
    expect([200, 201]).toContain((await save("3")).statusCode);
    // the saved value reaches the cached settings through the change feed (asynchronous on PostgreSQL)
    await eventually(async () => {
      await purgeWhatsAppMessages(t.app);
      const left = await t.app.db.select({ wamid: whatsappMessages.wamid }).from(whatsappMessages);
      expect(left).toEqual([{ wamid: "wamid.ret.2" }]);
    });
  });
});
