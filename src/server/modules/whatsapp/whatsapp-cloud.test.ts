// WhatsApp through the Cloud API, pointed at the local fake (adapters/fake-whatsapp-cloud.ts)
// over real HTTP: Meta's webhook handshake and signatures, the 24-hour window (free text inside,
// the kind's approved template outside), fallbacks when no template fits, delivery statuses
// applied to the rows, and secrets that reach the recipient but never the row.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  deliveryStatus,
  type FakeWhatsAppCloud,
  hubSignature,
  inboundMessage,
  webhookPayload,
} from "@/server/adapters/fake-whatsapp-cloud";
import { auditLog, clients, outbox, siteSettings, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { enqueue, type OutboxMessage, SECRET_PLACEHOLDER } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient, nextIp } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import type { ReceivedMail } from "@/server/test-support/smtp-sink";
import { eventually } from "@/server/testing";

const TOKEN = "EAAG-test-token";
const PHONE_NUMBER_ID = "109876543210";
const APP_SECRET = "meta-app-secret";
const VERIFY_TOKEN = "verify-me-please";

let fake: FakeWhatsAppCloud;
let t: MessagingTestApp;
let cookie: string;
let mails: ReceivedMail[];
let lerato: { id: string };
let sizwe: { id: string };

beforeAll(async () => {
  const started = await createMessagingTestApp({
    whatsapp: { token: TOKEN, phoneNumberId: PHONE_NUMBER_ID },
    config: { WHATSAPP_APP_SECRET: APP_SECRET, WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN },
    build: { seed: true },
  });
  t = started;
  fake = started.whatsapp;
  mails = started.mails;
  cookie = (await signedInAdmin(t.app)).cookie;
  lerato = await makeClient(t.app, {
    username: "lerato.d",
    full_name: "Lerato Dlamini",
    email: "lerato@example.co.za",
    whatsapp: "27825551001",
  });
  sizwe = await makeClient(t.app, { username: "sizwe.n", full_name: "Sizwe Ndlovu", whatsapp: "27825551002" });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.app.db.delete(whatsappWindows);
  await t.app.db.delete(whatsappTemplates);
  fake.messages.length = 0;
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;

function webhook(body: string, signature: string | null = hubSignature(body, APP_SECRET)) {
  return t.app.inject({
    method: "POST",
    url: "/api/whatsapp/webhook",
    headers: { "content-type": "application/json", ...(signature ? { "x-hub-signature-256": signature } : {}) },
    payload: body,
  });
}
const postEvent = (value: Parameters<typeof webhookPayload>[0]) => webhook(JSON.stringify(webhookPayload(value)));

/** Queue one message and run the worker; answers its row afterwards. */
async function send(message: Partial<OutboxMessage> & { recipient: string; kind: string }) {
  const dedupe = `test:${Math.random().toString(36).slice(2)}`;
  await enqueue(t.app.db, { channel: "whatsapp", body: "Hello from StreamDesk", ...message, dedupe_key: dedupe });
  await t.app.outbox.drain();
  const [row] = await t.app.db.select().from(outbox).where(eq(outbox.dedupe_key, dedupe));
  return row;
}

const setTemplate = (kind: string, body: Json) =>
  t.app.inject({
    method: "PUT",
    url: `/api/admin/whatsapp/templates/${kind}`,
    headers: { origin: "http://localhost:8080", cookie },
    payload: body,
  });

describe("GET /api/whatsapp/webhook (Meta's verification)", () => {
  const verify = (query: string) => t.app.inject({ method: "GET", url: `/api/whatsapp/webhook?${query}` });

  it("answers the challenge as plain text when the token matches", async () => {
    const res = await verify(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toBe("1158201444");
  });

  it("refuses a wrong or missing token, or another mode, with 403", async () => {
    for (const query of [
      "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1",
      "hub.mode=subscribe&hub.challenge=1",
      `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
    ]) {
      const res = await verify(query);
      expect(res.statusCode, query).toBe(403);
      expect(res.body).not.toContain("1158201444");
    }
  });
});

describe("POST /api/whatsapp/webhook", () => {
  it("refuses a missing or wrong signature (401), checked over the raw bytes", async () => {
    const body = JSON.stringify(webhookPayload({ messages: [inboundMessage("27825551001", "hi")] }));
    expect((await webhook(body, null)).statusCode).toBe(401);
    expect((await webhook(body, hubSignature(body, "another-secret"))).statusCode).toBe(401);
    expect((await webhook(body, "sha256=zz")).statusCode).toBe(401);
    // the same JSON re-spaced is other bytes: its signature does not carry over
    expect((await webhook(JSON.stringify(JSON.parse(body), null, 2), hubSignature(body, APP_SECRET))).statusCode).toBe(401);
    expect(await t.app.db.select().from(whatsappWindows)).toEqual([]);
  });

  it("answers 400 to a signed body that is not JSON or not Meta's shape, and logs no token or body", async () => {
    const warn = vi.spyOn(t.app.log, "warn");
    try {
      for (const body of [
        "not json at all",
        '{"object":"page","entry":[]}',
        '{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{}}]}]}',
      ]) {
        const res = await webhook(body);
        expect(res.statusCode, body).toBe(400);
        expect(res.json().error.code).toBe("bad_request");
      }
      const logged = JSON.stringify(warn.mock.calls);
      expect(logged).not.toContain(APP_SECRET);
      expect(logged).not.toContain(TOKEN);
      expect(logged).not.toContain("not json at all");
    } finally {
      warn.mockRestore();
    }
  });

  it("records an inbound message as the opening of that number's 24-hour window", async () => {
    const res = await postEvent({ messages: [inboundMessage("27825551001", "Hi, is my line working?")] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, inbound: 1, statuses: 0 });
    const [window] = await t.app.db.select().from(whatsappWindows);
    expect(window.number).toBe("27825551001");
    expect(Date.now() - window.last_inbound_at.getTime()).toBeLessThan(5_000);
    // an older message arriving late does not move the window back
    await postEvent({ messages: [inboundMessage("27825551001", "earlier", new Date(Date.now() - 3 * 3_600_000))] });
    const [after] = await t.app.db.select().from(whatsappWindows);
    expect(after.last_inbound_at.getTime()).toBe(window.last_inbound_at.getTime());
  });
});

describe("sending through the Cloud API", () => {
  it("inside the window: free text, with the wamid the API answered kept on the row", async () => {
    await postEvent({ messages: [inboundMessage("27825551001", "hello")] });
    const row = await send({ recipient: "27825551001", body: "Your line is back on.", kind: "line-restored", client_id: lerato.id });
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatchObject({ to: "27825551001", type: "text", text: "Your line is back on." });
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/v21.0/${PHONE_NUMBER_ID}/messages`,
      authorization: `Bearer ${TOKEN}`,
      status: 200,
    });
    expect(row).toMatchObject({ status: "sent", sent_via: "cloud-text", wamid: fake.messages[0].id });
  });

  it("outside the window: the approved template set for the kind, with its positional parameters", async () => {
    fake.approve("expiry_reminder", "en_US", 3);
    const saved = await setTemplate("reminder-7d", {
      template_name: "expiry_reminder",
      language_code: "en_US",
      params: ["name", "days", "business"],
    });
    expect(saved.statusCode).toBe(200);
    // a window that closed 25 hours ago
    await postEvent({ messages: [inboundMessage("27825551001", "old", new Date(Date.now() - 25 * 3_600_000))] });
    const row = await send({
      recipient: "27825551001",
      body: "Your subscription ends in 7 days.\nRenew: http://localhost:8080/client?renew=1",
      kind: "reminder-7d",
      client_id: lerato.id,
      vars: { days: "7" },
    });
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatchObject({
      to: "27825551001",
      type: "template",
      template: { name: "expiry_reminder", language: "en_US", parameters: ["Lerato", "7", "StreamDesk"] },
    });
    expect(fake.messages[0].raw.template).toEqual({
      name: "expiry_reminder",
      language: { code: "en_US" },
      components: [
        {
          type: "body",
          parameters: [
            { type: "text", text: "Lerato" },
            { type: "text", text: "7" },
            { type: "text", text: "StreamDesk" },
          ],
        },
      ],
    });
    expect(row).toMatchObject({ status: "sent", sent_via: "cloud-template:expiry_reminder", wamid: fake.messages[0].id });
  });

  it("with no usable template: an e-mail copy for a person with an address, else the owner's queue", async () => {
    const byMail = await send({ recipient: "27825551001", body: "Your receipt: R450 paid.", kind: "receipt", client_id: lerato.id });
    expect(byMail.status).toBe("rerouted");
    expect(byMail.note).toContain("No WhatsApp template is set for receipt messages");
    expect(byMail.note).toContain("An e-mail copy was queued to lerato@example.co.za.");
    await eventually(
      () => expect(mails.some((m) => m.to.includes("lerato@example.co.za") && m.raw.includes("R450 paid"))).toBe(true),
      10_000,
    );

    // switched off counts as no template; Sizwe has no e-mail: the owner sends it by hand
    await setTemplate("receipt", { template_name: "payment_receipt", language_code: "en", params: [], enabled: false });
    const byOwner = await send({ recipient: "27825551002", body: "Your receipt: R150 paid.", kind: "receipt", client_id: sizwe.id });
    expect(byOwner).toMatchObject({
      status: "owner",
      wa_link: `https://wa.me/27825551002?text=${encodeURIComponent("Your receipt: R150 paid.")}`,
    });
    expect(byOwner.note).toContain("switched off");
    expect(byOwner.note).toContain("Send it from the dashboard");
    expect(fake.messages).toHaveLength(0);
  });

  it("fails only the message whose template names a value it lacks, with the reason shown; the batch goes on", async () => {
    fake.approve("line_details", "en", 2);
    await setTemplate("credentials", { template_name: "line_details", language_code: "en", params: ["name", "line_username"] });
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825551002",
      body: "Login details",
      kind: "credentials",
      client_id: sizwe.id,
    });
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825551001",
      body: "Login details",
      kind: "credentials",
      client_id: lerato.id,
      vars: { line_username: "lerato123" },
    });
    await t.app.outbox.drain();
    const rows = await t.app.db.select().from(outbox).where(eq(outbox.kind, "credentials"));
    const broken = rows.find((r) => r.client_id === sizwe.id);
    const fine = rows.find((r) => r.client_id === lerato.id);
    expect(broken).toMatchObject({ status: "failed", attempts: 1 });
    expect(broken?.last_error).toContain("uses {{line_username}}, which this message does not have");
    expect(fine).toMatchObject({ status: "sent", sent_via: "cloud-template:line_details" });
    expect(fake.messages.map((m) => m.template?.parameters)).toEqual([["Lerato", "lerato123"]]);
    // and the overview counts it as a real failure
    const stats = (
      await t.app.inject({ method: "GET", url: "/api/admin/stats", headers: { origin: "http://localhost:8080", cookie } })
    ).json();
    expect(stats.outbox_failed).toBeGreaterThanOrEqual(1);
  });

  it("fails a message the API refuses as wrong at once, and retries one refused for a passing reason", async () => {
    await postEvent({ messages: [inboundMessage("27825551002", "hi")] });
    // Sizwe writing opened his window: what waited in the owner's queue for him (the receipt above) goes first
    await t.app.outbox.drain();
    fake.failNext(400, 131009, "(#131009) Parameter value is not valid");
    const refused = await send({ recipient: "27825551002", body: "x", kind: "line-restored", client_id: sizwe.id });
    expect(refused).toMatchObject({ status: "failed", attempts: 1 });
    expect(refused.last_error).toContain("WhatsApp Cloud API answered 400: (#131009)");
    fake.failNext(503, 2, "Service temporarily unavailable");
    const later = await send({ recipient: "27825551002", body: "y", kind: "line-restored", client_id: sizwe.id });
    expect(later).toMatchObject({ status: "pending", attempts: 1 });
    expect(later.last_error).toContain("503");
    expect(later.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  it("applies delivery statuses to the rows by wamid: forward only, and 'failed' as a failure", async () => {
    await postEvent({ messages: [inboundMessage("27825551001", "hello")] });
    const a = await send({ recipient: "27825551001", body: "First", kind: "line-restored", client_id: lerato.id });
    const b = await send({ recipient: "27825551001", body: "Second", kind: "line-restored", client_id: lerato.id });
    const wamidA = a.wamid as string;
    const wamidB = b.wamid as string;
    const res = await postEvent({
      statuses: [
        deliveryStatus(wamidA, "delivered", "27825551001"),
        deliveryStatus(wamidA, "read", "27825551001"),
        // a late 'sent' does not move a read message back
        deliveryStatus(wamidA, "sent", "27825551001"),
        deliveryStatus(wamidB, "failed", "27825551001", { code: 131026, title: "Message undeliverable" }),
        deliveryStatus("wamid.unknown", "delivered", "27825551001"),
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ statuses: 3 });
    const [rowA] = await t.app.db.select().from(outbox).where(eq(outbox.id, a.id));
    const [rowB] = await t.app.db.select().from(outbox).where(eq(outbox.id, b.id));
    expect(rowA).toMatchObject({ status: "sent", delivery_status: "read" });
    expect(rowA.delivery_updated_at).not.toBeNull();
    expect(rowB).toMatchObject({
      status: "failed",
      delivery_status: "failed",
      last_error: "WhatsApp could not deliver it: (#131026) Message undeliverable",
    });
    // the admin list shows them
    const listed = (
      await t.app.inject({
        method: "GET",
        url: "/api/admin/outbox?channel=whatsapp&status=failed",
        headers: { origin: "http://localhost:8080", cookie },
      })
    ).json();
    expect((listed.data as Json[]).some((m) => m.id === b.id && m.delivery_status === "failed")).toBe(true);
  });

  it("tells the owner once, on their alert address, when WhatsApp reports a message undeliverable, however often Meta repeats it", async () => {
    await t.app.db
      .insert(siteSettings)
      .values({ key: "secret_owner_alert_email", value: "owner@example.co.za" })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value: "owner@example.co.za" } });
    t.app.cache.clear();
    await postEvent({ messages: [inboundMessage("27825551001", "hello again")] });
    const c = await send({ recipient: "27825551001", body: "Third", kind: "line-restored", client_id: lerato.id });
    const failed = deliveryStatus(c.wamid as string, "failed", "27825551001", { code: 131026, title: "Message undeliverable" });
    expect((await postEvent({ statuses: [failed] })).statusCode).toBe(200);
    // Meta sends webhooks again when unsure: the same status, twice more
    expect((await postEvent({ statuses: [failed] })).statusCode).toBe(200);
    expect((await postEvent({ statuses: [failed] })).statusCode).toBe(200);
    const alerts = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `owner-alert:outbox-failed:${c.id}`));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ channel: "email", recipient: "owner@example.co.za", kind: "owner-alert" });
    expect(alerts[0].subject).toBe("Not sent: Line restored WhatsApp message to Lerato Dlamini");
    expect(alerts[0].body).toContain("The reason: WhatsApp could not deliver it: (#131026) Message undeliverable");
    expect(alerts[0].body).toContain("/admin/outbox?status=failed");
  });

  it("sends a reset link in the WhatsApp text while the row keeps only {{secret}}", async () => {
    await t.app.db.update(clients).set({ email: "" }).where(eq(clients.id, sizwe.id));
    await postEvent({ messages: [inboundMessage("27825551002", "I forgot my password")] });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/client/password-reset/request",
      payload: { identifier: "sizwe.n" },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    await eventually(async () => {
      await t.app.outbox.drain();
      expect(fake.messages).toHaveLength(1);
    }, 10_000);
    const delivered = fake.messages[0].text ?? "";
    const link = /http:\/\/localhost:8080\/client-password-reset\?token=([A-Za-z0-9_-]{43})/.exec(delivered);
    expect(link).not.toBeNull();
    const [row] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "password-reset"), eq(outbox.client_id, sizwe.id)));
    expect(row).toMatchObject({ status: "sent", sent_via: "cloud-text" });
    expect(row.body).toContain(SECRET_PLACEHOLDER);
    expect(row.body).not.toContain(link?.[1]);
    expect(row.secret_enc).not.toContain(link?.[1]);
    expect(JSON.stringify(await t.app.db.select().from(auditLog))).not.toContain(link?.[1]);
  });
});

describe("the dashboard's template settings", () => {
  it("lists the kinds and variables, saves (audited), validates and deletes", async () => {
    const empty = (
      await t.app.inject({ method: "GET", url: "/api/admin/whatsapp/templates", headers: { origin: "http://localhost:8080", cookie } })
    ).json();
    expect(empty).toMatchObject({ data: [], cloud_api: true, variables: ["name", "business", "body", "secret"] });
    expect(empty.kinds).toContainEqual({
      kind: "reminder-7d",
      label: "Expiry reminder (7 days)",
      variables: ["end_date", "days", "package", "renew_link"],
    });

    const bad = await setTemplate("receipt", { template_name: "Payment Receipt", language_code: "english", params: ["Name!"] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(["language_code", "params.0", "template_name"]);
    expect((await setTemplate("Not A Kind", { template_name: "x", language_code: "en", params: [] })).statusCode).toBe(400);

    const saved = await setTemplate("receipt", { template_name: "payment_receipt", language_code: "en", params: ["name", "body"] });
    expect(saved.json().data).toMatchObject({ kind: "receipt", template_name: "payment_receipt", params: ["name", "body"], enabled: true });
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "whatsapp_templates"), eq(auditLog.resource_id, "receipt")));
    expect(entry).toMatchObject({ action: "create" });
    const listed = (
      await t.app.inject({ method: "GET", url: "/api/admin/whatsapp/templates", headers: { origin: "http://localhost:8080", cookie } })
    ).json();
    expect(listed.data).toHaveLength(1);

    const del = await t.app.inject({
      method: "DELETE",
      url: "/api/admin/whatsapp/templates/receipt",
      headers: { origin: "http://localhost:8080", cookie },
    });
    expect(del.statusCode).toBe(204);
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: "/api/admin/whatsapp/templates/receipt",
          headers: { origin: "http://localhost:8080", cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/admin/whatsapp/templates" })).statusCode).toBe(401);
  });
});
