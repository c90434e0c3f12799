// The overview's launch checklist: a seeded shop starts with every item to do, and each item
// turns done when the owner sets what it names (bank details, legal facts, contacts, demo
// reviews) or the server is connected (card provider, panel).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteBranding, testimonialsManaged } from "@/server/db/schema";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";
import type { LaunchChecklist } from "@/shared/business-schemas";
import { type SignedIn, signInAdmin } from "./test-admin";

let shop: TestApp;
let live: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  shop = await createTestApp({}, { seed: true });
  admin = await signInAdmin(shop.app);
  // A shop whose server has iKhokha keys and runs its panel by hand.
  live = await createTestApp({ IKHOKHA_APP_ID: "app", IKHOKHA_APP_SECRET: "secret", PANEL_MODE: "manual" }, { seed: false });
});
afterAll(async () => {
  await shop?.close();
  await live?.close();
});

async function checklist(as: SignedIn): Promise<LaunchChecklist> {
  const res = await as.call({ method: "GET", url: "/api/admin/launch-checklist" });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
const item = (list: LaunchChecklist, id: string) => list.items.find((i) => i.id === id);

describe("GET /api/admin/launch-checklist", () => {
  it("is for signed-in admins only", async () => {
    expect((await shop.app.inject({ method: "GET", url: "/api/admin/launch-checklist" })).statusCode).toBe(401);
  });

  it("lists everything a freshly seeded shop still has to set, each with where to set it", async () => {
    const list = await checklist(admin);
    expect(list.done).toBe(false);
    expect(list.items.map((i) => [i.id, i.done])).toEqual([
      ["bank", false],
      ["legal", false],
      ["whatsapp", false],
      ["support_email", false],
      ["payments", false],
      ["panel", false],
      ["demo_content", false],
    ]);
    expect(item(list, "legal")?.detail).toContain("Available on request");
    expect(item(list, "legal")?.detail).toContain("physical address");
    expect(item(list, "payments")?.detail).toContain("TEST checkout");
    expect(item(list, "demo_content")?.detail).toMatch(/seeded reviews/);
    for (const entry of list.items) expect(entry.href).toMatch(/^\/admin\/[a-z-]+$/);
  });

  it("ticks items off as the owner sets them", async () => {
    await fillBankDetails(shop.app, {
      eft_bank_name: "FNB",
      eft_account_name: "Owner (Pty) Ltd",
      eft_account_number: "62000000009",
      eft_branch_code: "250655",
      business_legal_name: "Owner Media (Pty) Ltd",
      business_address: "1 Long Street, Cape Town, 8001",
      information_officer_name: "Thandi Owner",
      information_officer_email: "privacy@owner.example",
    });
    await shop.app.db.update(siteBranding).set({ setting_value: "27825550123" }).where(eq(siteBranding.setting_name, "whatsapp_number"));
    await shop.app.db
      .update(siteBranding)
      .set({ setting_value: "help@owner.example" })
      .where(eq(siteBranding.setting_name, "support_email"));
    await shop.app.db.delete(testimonialsManaged);
    shop.app.cache.clear();
    const list = await checklist(admin);
    expect(item(list, "bank")).toMatchObject({ done: true, detail: "FNB, account 62000000009" });
    expect(item(list, "legal")?.done).toBe(true);
    expect(item(list, "whatsapp")?.done).toBe(true);
    expect(item(list, "support_email")).toMatchObject({ done: true, detail: "help@owner.example" });
    // the rating line and the VAT note are demo text too
    expect(item(list, "demo_content")?.done).toBe(false);
    expect(item(list, "demo_content")?.detail).not.toMatch(/reviews/);
    // the server's own configuration: still the test checkout and the sandbox panel
    expect(item(list, "payments")?.done).toBe(false);
    expect(item(list, "panel")?.done).toBe(false);
  });

  it("counts a live card provider and a panel run by hand as done", async () => {
    const list = await checklist(await signInAdmin(live.app));
    expect(item(list, "payments")).toMatchObject({ done: true, detail: "iKhokha is connected: card payments are real." });
    expect(item(list, "panel")?.done).toBe(true);
    expect(item(list, "panel")?.detail).toContain("Manual mode");
  });
});
