// The shop's WhatsApp templates submitted to Meta from the dashboard (templates.ts), against the
// fake Cloud API's template endpoints: each template created once however often it is submitted,
// Meta's review read back (approved switches the kind's template on for the outbox, a rejection
// shows Meta's reason, a state we do not know stays unknown), Meta's refusal shown in its own
// words, the owner's words before submitting, and the setting a submit needs.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeWhatsAppCloud, startFakeWhatsAppCloud } from "@/server/adapters/fake-whatsapp-cloud";
import { createTemplateManager, WhatsAppTemplateError } from "@/server/adapters/whatsapp";
import { outbox, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { refreshWhatsAppTemplates } from "@/server/jobs/whatsapp-templates";
import { enqueue } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import { SHOP_TEMPLATES } from "@/shared/whatsapp-templates";

const TOKEN = "EAAG-templates-token";
const PHONE_NUMBER_ID = "109876543777";
const WABA = "102290129340398";

let fake: FakeWhatsAppCloud;
let t: TestApp;
let cookie: string;
let naledi: { id: string };

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;

beforeAll(async () => {
  fake = await startFakeWhatsAppCloud({ token: TOKEN, phoneNumberId: PHONE_NUMBER_ID, businessAccountId: WABA });
  t = await createTestApp(
    { WHATSAPP_TOKEN: TOKEN, WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID, WHATSAPP_API_URL: fake.url, WHATSAPP_BUSINESS_ACCOUNT_ID: WABA },
    { seed: false },
  );
  cookie = (await signedInAdmin(t.app)).cookie;
  naledi = await makeClient(t.app, { username: "naledi.k", full_name: "Naledi Khumalo", whatsapp: "27825553001" });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(async () => {
  await t.app.db.delete(whatsappTemplates);
  await t.app.db.delete(whatsappWindows);
  await t.app.db.delete(outbox);
  fake.templates.length = 0;
  fake.messages.length = 0;
});

const headers = () => ({ origin: "http://localhost:8080", cookie });
const post = (url: string) => t.app.inject({ method: "POST", url, headers: headers() });
const submit = () => post("/api/admin/whatsapp/templates/submit");
const refresh = () => post("/api/admin/whatsapp/templates/refresh");
const shop = async () => (await t.app.inject({ method: "GET", url: "/api/admin/whatsapp/templates", headers: headers() })).json().shop;
const templateCalls = () => fake.requests.filter((r) => r.path.endsWith("/message_templates")).length;
const view = (s: Json, kind: string) => s.templates.find((x: Json) => x.kind === kind);

describe("submitting templates to Meta", () => {
  it("creates each template the shop uses once: an authentication one for codes, utility ones for the rest", async () => {
    const res = await submit();
    expect(res.statusCode).toBe(200);
    const kinds = SHOP_TEMPLATES.map((x) => x.kind);
    expect(res.json().data.created.sort()).toEqual([...kinds].sort());
    expect(fake.templates.map((x) => x.name).sort()).toEqual(kinds.map((k) => k.replace(/-/g, "_")).sort());
    const code = fake.templates.find((x) => x.name === "verification_code");
    expect(code).toMatchObject({ category: "AUTHENTICATION", status: "PENDING" });
    expect(code?.components).toContainEqual({ type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE", text: "Copy code" }] });
    const receipt = fake.templates.find((x) => x.name === "receipt");
    expect(receipt?.category).toBe("UTILITY");
    expect(receipt?.components[0]).toMatchObject({
      type: "BODY",
      text: "Hello {{1}}, thank you for your payment to {{2}}. {{3}} Reply to this message if you need us.",
      example: { body_text: [["Thandi", "StreamDesk", expect.any(String)]] },
    });
    const rows = await t.app.db.select().from(whatsappTemplates);
    expect(rows).toHaveLength(kinds.length);
    const receiptRow = rows.find((r) => r.kind === "receipt");
    expect(receiptRow).toMatchObject({
      template_name: "receipt",
      params: ["name", "business", "body"],
      meta_status: "PENDING",
      enabled: false,
    });
    expect(rows.find((r) => r.kind === "verification-code")).toMatchObject({ category: "AUTHENTICATION", params: ["secret"] });
    expect(view(await shop(), "receipt")).toMatchObject({ state: "pending", editable: false });
  });

  it("a second submit creates nothing new", async () => {
    await submit();
    const before = { templates: fake.templates.length, calls: templateCalls() };
    const again = await submit();
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ created: [], existing: [], refused: {} });
    expect(fake.templates).toHaveLength(before.templates);
    // only the list was read again
    expect(templateCalls()).toBe(before.calls + 1);
  });

  it("a template Meta already has under our name counts as submitted, its state read from Meta", async () => {
    await submit();
    fake.review("receipt", "APPROVED");
    await t.app.db.delete(whatsappTemplates); // our rows lost: Meta answers "already exists"
    const res = await submit();
    expect(res.json().data.created).toEqual([]);
    expect(res.json().data.existing).toHaveLength(SHOP_TEMPLATES.length);
    expect(fake.templates).toHaveLength(SHOP_TEMPLATES.length);
    expect(view(res.json().shop, "receipt")).toMatchObject({ state: "approved" });
    expect(view(res.json().shop, "welcome")).toMatchObject({ state: "pending" });
  });

  it("approval in Meta → refresh → our row approved, and the outbox sends that kind as the template", async () => {
    await submit();
    fake.review("receipt", "APPROVED");
    const res = await refresh();
    expect(res.statusCode).toBe(200);
    expect(res.json().data.changed).toBe(1);
    expect(view(res.json().shop, "receipt")).toMatchObject({ state: "approved", meta_status: "APPROVED" });
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "receipt"));
    expect(row.enabled).toBe(true);
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825553001",
      body: "R150.00 received.",
      kind: "receipt",
      client_id: naledi.id,
    });
    await t.app.outbox.drain();
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatchObject({
      type: "template",
      template: { name: "receipt", language: "en", parameters: ["Naledi", "StreamDesk", "R150.00 received."] },
    });
    const [sent] = await t.app.db.select().from(outbox);
    expect(sent).toMatchObject({ status: "sent", sent_via: "cloud-template:receipt" });
  });

  it("a pending template is not used: the message is rerouted, not sent as the template", async () => {
    await submit();
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825553001",
      body: "R150.00 received.",
      kind: "receipt",
      client_id: naledi.id,
    });
    await t.app.outbox.drain();
    expect(fake.messages).toEqual([]);
  });

  it("a rejection shows Meta's reason", async () => {
    await submit();
    fake.review("welcome", "REJECTED", "INVALID_FORMAT");
    const res = await refresh();
    expect(view(res.json().shop, "welcome")).toMatchObject({ state: "rejected", rejected_reason: "INVALID_FORMAT" });
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "welcome"));
    expect(row.enabled).toBe(false);
  });

  it("a status we do not know stays unknown, never approved", async () => {
    await submit();
    fake.review("credentials", "IN_APPEAL");
    const res = await refresh();
    expect(view(res.json().shop, "credentials")).toMatchObject({ state: "unknown", meta_status: "IN_APPEAL" });
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "credentials"));
    expect(row.enabled).toBe(false);
  });

  it("Meta's refusal of a template is shown in Meta's own words, and the rest are still created", async () => {
    fake.refuseNextCreate("The template body contains content that violates WhatsApp policy.");
    const res = await submit();
    expect(res.statusCode).toBe(200);
    const first = SHOP_TEMPLATES[0].kind;
    expect(res.json().data.refused).toEqual({ [first]: "The template body contains content that violates WhatsApp policy." });
    expect(view(res.json().shop, first)).toMatchObject({
      state: "refused",
      error: "The template body contains content that violates WhatsApp policy.",
    });
    expect(fake.templates).toHaveLength(SHOP_TEMPLATES.length - 1);
    // the next submit tries the refused one again
    const again = await submit();
    expect(again.json().data.created).toEqual([first]);
  });

  it("leaves a template set by hand alone: not submitted, its setting kept", async () => {
    await t.app.db.insert(whatsappTemplates).values({ kind: "receipt", template_name: "receipt", params: ["name", "body"], enabled: true });
    const res = await submit();
    expect(res.json().data.created).not.toContain("receipt");
    expect(fake.templates.map((x) => x.name)).not.toContain("receipt");
    expect(view(res.json().shop, "receipt")).toMatchObject({ set_by_hand: true, editable: false });
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "receipt"));
    expect(row).toMatchObject({ params: ["name", "body"], enabled: true, meta_status: null });
  });

  it("the fake answers a bad create in Meta's error shape, which the adapter reads as Meta's own message", async () => {
    const manager = createTemplateManager(fake.url, WABA, TOKEN);
    const error = await manager
      .create({ name: "Bad Name", language: "en", category: "UTILITY", components: [{ type: "BODY", text: "Hi there." }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WhatsAppTemplateError);
    expect(error).toMatchObject({
      status: 400,
      code: 100,
      message: "Template names can only contain lowercase alphanumeric characters and underscores.",
    });
    const ending = await manager
      .create({
        name: "ends_badly",
        language: "en",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Hello {{1}}", example: { body_text: [["Thandi"]] } }],
      })
      .catch((e: unknown) => e);
    expect(ending).toMatchObject({ subcode: 2388299, message: "Variables can't be at the start or end of the template." });
    expect(fake.templates).toEqual([]);
  });

  it("the daily job reads Meta's states when the last read is a day old, and not before", async () => {
    await submit();
    fake.review("receipt", "APPROVED");
    expect(await refreshWhatsAppTemplates(t.app)).toBe(0);
    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    expect(await refreshWhatsAppTemplates(t.app, tomorrow)).toBe(1);
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "receipt"));
    expect(row).toMatchObject({ meta_status: "APPROVED", enabled: true });
  });
});

describe("the owner's words", () => {
  const words = (kind: string, payload: Json) =>
    t.app.inject({ method: "PUT", url: `/api/admin/whatsapp/templates/${kind}/words`, headers: headers(), payload });

  it("are submitted as Meta's numbered parameters, each variable behind its number", async () => {
    const res = await words("reminder-3d", { words: "Hi {{name}}, {{package}} ends {{end_date}}. Renew: {{renew_link}} Thanks!" });
    expect(res.statusCode).toBe(200);
    expect(view(res.json().shop, "reminder-3d")).toMatchObject({ state: "not_submitted", editable: true });
    await submit();
    expect(fake.templates.find((x) => x.name === "reminder_3d")?.components[0].text).toBe(
      "Hi {{1}}, {{2}} ends {{3}}. Renew: {{4}} Thanks!",
    );
    const [row] = await t.app.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, "reminder-3d"));
    expect(row.params).toEqual(["name", "package", "end_date", "renew_link"]);
  });

  it("refuse a variable the message lacks, one at the very end, and any change once Meta has it", async () => {
    expect((await words("receipt", { words: "Hi {{name}}, {{password}} ok" })).json().error.fields.words).toMatch(
      /\{\{password\}\} is not a variable/,
    );
    expect((await words("receipt", { words: "Thanks {{name}}" })).statusCode).toBe(400);
    expect((await words("verification-code", { words: "Your code {{secret}} ok" })).statusCode).toBe(409);
    await submit();
    expect((await words("receipt", { words: "Thanks {{name}}, paid." })).statusCode).toBe(409);
  });
});

describe("without WHATSAPP_BUSINESS_ACCOUNT_ID", () => {
  it("a submit is a 409 naming the missing setting, and nothing reaches Meta", async () => {
    const bare = await createTestApp(
      { WHATSAPP_TOKEN: TOKEN, WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID, WHATSAPP_API_URL: fake.url },
      { seed: false },
    );
    try {
      const admin = await signedInAdmin(bare.app);
      const before = fake.requests.length;
      const res = await bare.app.inject({
        method: "POST",
        url: "/api/admin/whatsapp/templates/submit",
        headers: { origin: "http://localhost:8080", cookie: admin.cookie },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toContain("WHATSAPP_BUSINESS_ACCOUNT_ID");
      expect(fake.requests.length).toBe(before);
    } finally {
      await bare.close();
    }
  });
});
