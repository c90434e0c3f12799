// The overview's launch checklist (issue 28, item 1): GET /api/admin/launch-checklist answers
// {items: [{key, label, done, why, href}], done}, each item read from the facts the server acts
// on. A seeded shop starts with every item to do; an item turns done only when the shop really
// behaves that way: EFT only with no bank placeholder left (the account type too), e-mail only
// when SMTP is set and the last send went out, the panel only when connected and every paid
// package and the trial mapped, the stream URL set for manual mode, a WhatsApp template for each
// kind we start when the Cloud API is on, and no demo content left, the default logo included.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import {
  homepageContent,
  imageRegistry,
  outbox,
  packages,
  siteBranding,
  siteSettings,
  testimonialsManaged,
  whatsappTemplates,
} from "@/server/db/schema";
import { LOGO_IMAGE_KEYS } from "@/server/db/seed-content";
import { createTestApp, fillBankDetails, TEST_BANK_DETAILS, type TestApp } from "@/server/testing";
import type { LaunchChecklist } from "@/shared/business-schemas";
import { SETTING_PLACEHOLDER } from "@/shared/constants";
import { OWNER_ALERT_SETTINGS } from "@/shared/owner-alerts";
import { BUSINESS_INITIATED_KINDS } from "./launch-checklist";
import { type SignedIn, signInAdmin } from "./test-admin";

let shop: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  shop = await createTestApp({}, { seed: true });
  admin = await signInAdmin(shop.app);
});
afterAll(async () => {
  await shop?.close();
});

async function checklist(as: SignedIn): Promise<LaunchChecklist> {
  const res = await as.call({ method: "GET", url: "/api/admin/launch-checklist" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const item = (list: LaunchChecklist, key: string) => list.items.find((i) => i.key === key);

describe("GET /api/admin/launch-checklist", () => {
  it("is for signed-in admins only", async () => {
    expect((await shop.app.inject({ method: "GET", url: "/api/admin/launch-checklist" })).statusCode).toBe(401);
  });

  it("lists everything a freshly seeded shop still has to set, each with why and where to set it", async () => {
    const list = await checklist(admin);
    expect(list.done).toBe(false);
    // sandbox panel, no Cloud API: no stream URL or template items
    expect(list.items.map((i) => [i.key, i.done])).toEqual([
      ["bank", false],
      ["legal", false],
      ["whatsapp", false],
      ["support_email", false],
      ["alerts_email", true],
      ["email_delivery", false],
      ["card", false],
      ["panel", false],
      ["demo_content", false],
    ]);
    expect(item(list, "legal")?.why).toContain("Available on request");
    expect(item(list, "legal")?.why).toContain("physical address");
    expect(item(list, "card")?.why).toContain("TEST checkout");
    expect(item(list, "email_delivery")?.why).toContain("SMTP_URL");
    expect(item(list, "demo_content")?.why).toMatch(/seeded reviews/);
    expect(item(list, "demo_content")?.why).toContain("the default logo");
    for (const entry of list.items) {
      expect(entry.href).toMatch(/^\/admin\/[a-z-]+$/);
      expect(entry.label).not.toBe("");
      expect(entry.why).not.toContain(SETTING_PLACEHOLDER);
    }
  });

  it("shows where the owner's alerts go: the first admin's address, then the alerts e-mail they set, never the support address", async () => {
    const before = item(await checklist(admin), "alerts_email");
    expect(before).toMatchObject({ done: true, href: "/admin/settings" });
    expect(before?.why).toContain(`go to ${admin.email} (the first admin's address`);
    expect(before?.why).not.toContain("support@streamdesk.co.za");
    const saved = await admin.call({
      method: "POST",
      url: "/api/admin/settings",
      payload: { key: OWNER_ALERT_SETTINGS.email, value: "thandi@owner.example" },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const after = item(await checklist(admin), "alerts_email");
    expect(after?.why).toContain("go to thandi@owner.example, never to the support e-mail");
    expect(after?.why).not.toContain(admin.email);
    await shop.app.db.delete(siteSettings).where(eq(siteSettings.key, OWNER_ALERT_SETTINGS.email));
  });

  it("bank details stay to do while any field is still the seed's placeholder, the account type too", async () => {
    await fillBankDetails(shop.app, { ...TEST_BANK_DETAILS, eft_account_type: SETTING_PLACEHOLDER });
    const list = await checklist(admin);
    expect(item(list, "bank")?.done).toBe(false);
    expect(item(list, "bank")?.why).toContain("account type");
    await fillBankDetails(shop.app);
    expect(item(await checklist(admin), "bank")).toMatchObject({ done: true, why: `FNB, account ${TEST_BANK_DETAILS.eft_account_number}` });
  });

  it("ticks items off as the owner sets them; the default logo keeps the demo item open until it is replaced", async () => {
    await fillBankDetails(shop.app, {
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
    await shop.app.db.delete(homepageContent);
    await shop.app.db.update(siteSettings).set({ value: "Prices include VAT." }).where(eq(siteSettings.key, "vat_note"));
    shop.app.cache.clear();
    let list = await checklist(admin);
    expect(item(list, "legal")?.done).toBe(true);
    expect(item(list, "whatsapp")?.done).toBe(true);
    expect(item(list, "support_email")).toMatchObject({ done: true, why: "help@owner.example" });
    expect(item(list, "demo_content")).toMatchObject({
      done: false,
      why: "1 demo item is still shown: the default logo.",
      href: "/admin/images",
    });

    await shop.app.db
      .update(imageRegistry)
      .set({ image_url: "/uploads/owner-logo.png" })
      .where(inArray(imageRegistry.image_key, LOGO_IMAGE_KEYS));
    list = await checklist(admin);
    expect(item(list, "demo_content")?.done).toBe(true);
    // the server's own configuration: still the test checkout, the sandbox panel and no SMTP
    expect(item(list, "card")?.done).toBe(false);
    expect(item(list, "panel")?.done).toBe(false);
    expect(item(list, "email_delivery")?.done).toBe(false);
    expect(list.done).toBe(false);
  });
});

describe("a shop with its services connected", () => {
  let live: TestApp;
  let owner: SignedIn;
  let fake: FakeXtreamPanel;

  beforeAll(async () => {
    fake = await startFakeXtreamPanel();
    live = await createTestApp(
      {
        IKHOKHA_APP_ID: "app",
        IKHOKHA_APP_SECRET: "secret",
        PANEL_API_URL: fake.url,
        PANEL_API_KEY: fake.apiKey,
        PANEL_TIMEOUT_MS: 500,
        // nothing listens there: the worker does not run in tests, the rows below say how sends went
        SMTP_URL: "smtp://127.0.0.1:9",
        WHATSAPP_TOKEN: "token",
        WHATSAPP_PHONE_NUMBER_ID: "1234",
      },
      { seed: true },
    );
    owner = await signInAdmin(live.app);
  });
  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  it("counts a live card provider as done, and lists the WhatsApp templates the Cloud API needs", async () => {
    const list = await checklist(owner);
    expect(item(list, "card")).toMatchObject({ done: true, why: "iKhokha is connected: card payments are real." });
    const templates = item(list, "whatsapp_templates");
    expect(templates?.done).toBe(false);
    expect(templates?.why).toContain("Welcome and portal login");
    expect(templates?.why?.startsWith("Cloud API connected.")).toBe(true);
    // a real panel: the links fall back to its host, so the stream URL item is there and done
    expect(item(list, "stream_url")?.done).toBe(true);

    await live.app.db
      .insert(whatsappTemplates)
      .values(
        BUSINESS_INITIATED_KINDS.slice(1).map((kind) => ({ kind, template_name: `sd_${kind.replace(/-/g, "_")}`, language_code: "en" })),
      );
    expect(item(await checklist(owner), "whatsapp_templates")?.why).not.toContain("Line login details");
    expect(item(await checklist(owner), "whatsapp_templates")?.done).toBe(false);
    // submitted to Meta and in review: said as waiting, not as approved
    await live.app.db.insert(whatsappTemplates).values({
      kind: BUSINESS_INITIATED_KINDS[0],
      template_name: "sd_first",
      language_code: "en",
      enabled: false,
      meta_status: "PENDING",
    });
    const waiting = item(await checklist(owner), "whatsapp_templates");
    expect(waiting?.done).toBe(false);
    expect(waiting?.why).toContain("1 template is waiting for Meta's approval.");
    await live.app.db
      .update(whatsappTemplates)
      .set({ enabled: true, meta_status: "APPROVED" })
      .where(eq(whatsappTemplates.kind, BUSINESS_INITIATED_KINDS[0]));
    expect(item(await checklist(owner), "whatsapp_templates")).toMatchObject({ done: true });
  });

  it("e-mail is done only when SMTP is set and the last send went out", async () => {
    expect(item(await checklist(owner), "email_delivery")?.why).toContain("no e-mail has been sent yet");
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await live.app.db.insert(outbox).values({
      channel: "email",
      recipient: "a@example.test",
      body: "x",
      status: "sent",
      attempts: 1,
      sent_at: at(10),
      updated_at: at(10),
    });
    expect(item(await checklist(owner), "email_delivery")?.done).toBe(true);
    await live.app.db.insert(outbox).values({
      channel: "email",
      recipient: "b@example.test",
      body: "x",
      status: "pending",
      attempts: 2,
      last_error: "connect ECONNREFUSED 127.0.0.1:9",
      updated_at: at(1),
    });
    const failing = item(await checklist(owner), "email_delivery");
    expect(failing?.done).toBe(false);
    expect(failing?.why).toContain("ECONNREFUSED");
  });

  it("the panel is done only when connected and every paid package and the trial are mapped", async () => {
    let panel = item(await checklist(owner), "panel");
    expect(panel?.done).toBe(false);
    expect(panel?.why).toContain('"3 Months"');
    expect(panel?.why).toContain("the free trial");

    const paid = await live.app.db.select({ id: packages.id, price: packages.price }).from(packages).where(eq(packages.is_active, true));
    const mapping = Object.fromEntries(paid.filter((p) => Number(p.price) > 0).map((p) => [p.id, "1"]));
    const mapped = await owner.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: mapping } });
    expect(mapped.statusCode, mapped.body).toBe(200);
    panel = item(await checklist(owner), "panel");
    expect(panel?.done).toBe(false);
    expect(panel?.why).not.toContain('"3 Months"');
    expect(panel?.why).toContain("the free trial");

    await owner.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: {}, trial: "9" } });
    expect(item(await checklist(owner), "panel")).toMatchObject({ done: true });
  });
});

describe("manual panel mode", () => {
  let manual: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    manual = await createTestApp({ PANEL_MODE: "manual", PANEL_STREAM_URL: undefined }, { seed: false });
    owner = await signInAdmin(manual.app);
  });
  afterAll(async () => {
    await manual?.close();
  });

  it("the panel is done, the stream URL only once it is set", async () => {
    let list = await checklist(owner);
    expect(item(list, "panel")?.done).toBe(true);
    expect(item(list, "panel")?.why).toContain("Manual mode");
    expect(item(list, "stream_url")).toMatchObject({ done: false, href: "/admin/panel" });
    const set = await owner.call({
      method: "PUT",
      url: "/api/admin/panel/settings",
      payload: { stream_url: "http://tv.example.net:8080" },
    });
    expect(set.statusCode).toBe(200);
    list = await checklist(owner);
    expect(item(list, "stream_url")).toMatchObject({ done: true });
    expect(item(list, "stream_url")?.why).toContain("http://tv.example.net:8080");
  });
});

describe("a shop taking payments through PayFast only", () => {
  let payfast: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    // the keys only: the checklist reads which providers are on, it calls none of them
    payfast = await createTestApp(
      {
        PAYFAST_MERCHANT_ID: "10000100",
        PAYFAST_MERCHANT_KEY: "46f0cd694581a",
        PAYFAST_PASSPHRASE: "jt7NOE43FZPn",
        PAYMENTS_SANDBOX: "off",
      },
      { seed: false },
    );
    owner = await signInAdmin(payfast.app);
  });
  afterAll(async () => {
    await payfast?.close();
  });

  it("counts the hosted provider as real online payments", async () => {
    expect(item(await checklist(owner), "card")).toMatchObject({ done: true, why: "PayFast is connected: online payments are real." });
  });
});
