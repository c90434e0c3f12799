// The WhatsApp inbox with the Cloud API configured (the fake, adapters/fake-whatsapp-cloud.ts):
// inbound messages kept once per wamid and tied to a client or a new lead, the thread (inbox and
// outbox), replies inside and outside the 24-hour window, the owner's queue flushed when a number
// writes, delivery statuses (reaching an admin's change stream live), the line details resent,
// retention and bad input.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  deliveryStatus,
  type FakeWhatsAppCloud,
  hubSignature,
  inboundMessage,
  startFakeWhatsAppCloud,
  webhookPayload,
} from "@/server/adapters/fake-whatsapp-cloud";
import { openDatabase } from "@/server/db/client";
import {
  auditLog,
  capturedPayments,
  clients,
  leads,
  outbox,
  siteSettings,
  verificationCodes,
  whatsappMessages,
  whatsappTemplates,
  whatsappWindows,
} from "@/server/db/schema";
import { purgeWhatsAppMessages } from "@/server/jobs/whatsapp-retention";
import { enqueue } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import type { ChangeEvent } from "@/shared/api";
import { flushOwnerQueue } from "./inbox";

const TOKEN = "EAAG-inbox-token";
const PHONE_NUMBER_ID = "109876543299";
const APP_SECRET = "inbox-app-secret";

let fake: FakeWhatsAppCloud;
let t: TestApp;
let cookie: string;
let thandi: { id: string };

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;

beforeAll(async () => {
  fake = await startFakeWhatsAppCloud({ token: TOKEN, phoneNumberId: PHONE_NUMBER_ID });
  t = await createTestApp(
    {
      WHATSAPP_TOKEN: TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: "verify",
    },
    { seed: false },
  );
  cookie = (await signedInAdmin(t.app)).cookie;
  thandi = await makeClient(t.app, {
    username: "thandi.m",
    full_name: "Thandi Mokoena",
    whatsapp: "27825552001",
    status: "active",
    package_name: "Month to Month",
    line_username: "thandi_line",
    subscription_end: new Date("2027-01-31T22:00:00Z"),
  });
  await t.app.db.insert(capturedPayments).values(
    [1, 2, 3, 4].map((n) => ({
      provider: "manual",
      external_transaction_id: `INBOX-${n}`,
      amount: 100 * n,
      package_name: "Month to Month",
      client_id: thandi.id,
      status: "paid",
      paid_at: new Date(Date.UTC(2026, n, 1)),
    })),
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(async () => {
  await t.app.db.delete(whatsappMessages);
  await t.app.db.delete(whatsappWindows);
  await t.app.db.delete(outbox);
  fake.messages.length = 0;
});

const headers = () => ({ origin: "http://localhost:8080", cookie });

function webhook(value: Parameters<typeof webhookPayload>[0], app = t.app) {
  const body = JSON.stringify(webhookPayload(value));
  return app.inject({
    method: "POST",
    url: "/api/whatsapp/webhook",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
    payload: body,
  });
}
const contact = (wa_id: string, name: string) => ({ wa_id, profile: { name } });
const get = (url: string) => t.app.inject({ method: "GET", url, headers: headers() });
const reply = (number: string, payload: unknown) =>
  t.app.inject({ method: "POST", url: `/api/admin/inbox/${number}/reply`, headers: headers(), payload: payload as Json });

describe("inbound messages", () => {
  it("keeps each message once, even when Meta replays the webhook, tied to the client with that number", async () => {
    const message = inboundMessage("27825552001", "Is my line working?");
    const first = await webhook({ messages: [message], contacts: [contact("27825552001", "Thandi")] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, inbound: 1, statuses: 0 });
    const replayed = await webhook({ messages: [message], contacts: [contact("27825552001", "Thandi")] });
    expect(replayed.statusCode).toBe(200);
    const rows = await t.app.db.select().from(whatsappMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      number: "27825552001",
      direction: "in",
      wamid: message.id,
      type: "text",
      text: "Is my line working?",
      client_id: thandi.id,
      lead_id: null,
      profile_name: "Thandi",
      read_at: null,
    });
  });

  it("announces each new message on the change feed, so an open dashboard refreshes", async () => {
    const seen: string[] = [];
    const stop = t.app.changes.onChange((change) => {
      if (change.table === "whatsapp_messages") seen.push(change.op);
    });
    try {
      await webhook({ messages: [inboundMessage("27825552001", "ping")] });
      await eventually(() => expect(seen).toContain("INSERT"), 5_000);
    } finally {
      stop();
    }
  });

  it("keeps button replies and media (type, caption, media id)", async () => {
    const at = String(Math.floor(Date.now() / 1000));
    await webhook({
      messages: [
        { from: "27825552001", id: "wamid.btn1", timestamp: at, type: "button", button: { text: "Renew now", payload: "RENEW" } },
        {
          from: "27825552001",
          id: "wamid.int1",
          timestamp: at,
          type: "interactive",
          interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes please" } },
        },
        {
          from: "27825552001",
          id: "wamid.img1",
          timestamp: at,
          type: "image",
          image: { id: "MEDIA-123", mime_type: "image/jpeg", sha256: "x", caption: "My screen shows this" },
        },
      ],
    });
    const rows = await t.app.db.select().from(whatsappMessages).orderBy(whatsappMessages.wamid);
    expect(rows.map((r) => [r.wamid, r.type, r.text, r.media_id, r.media_mime])).toEqual([
      ["wamid.btn1", "button", "Renew now", null, null],
      ["wamid.img1", "image", "My screen shows this", "MEDIA-123", "image/jpeg"],
      ["wamid.int1", "interactive", "Yes please", null, null],
    ]);
  });

  it("makes a number nobody has into a lead (the profile name, 'WhatsApp enquiry'), once", async () => {
    await webhook({ messages: [inboundMessage("27835550999", "How much is a month?")], contacts: [contact("27835550999", "Sipho K")] });
    await webhook({ messages: [inboundMessage("27835550999", "And for 3 months?")], contacts: [contact("27835550999", "Sipho K")] });
    const made = await t.app.db.select().from(leads).where(eq(leads.whatsapp_digits, "27835550999"));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ name: "Sipho K", notes: "WhatsApp enquiry", form_type: "whatsapp", whatsapp: "27835550999" });
    const rows = await t.app.db.select().from(whatsappMessages).where(eq(whatsappMessages.number, "27835550999"));
    expect(rows.map((r) => r.lead_id)).toEqual([made[0].id, made[0].id]);
    const list = (await get("/api/admin/inbox")).json();
    expect(list.data[0]).toMatchObject({
      number: "27835550999",
      name: "Sipho K",
      lead_id: made[0].id,
      client_id: null,
      last_text: "And for 3 months?",
      unread: 2,
    });
  });

  it("still answers 400 to a body of the wrong shape", async () => {
    const body = '{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"from":"x"}]}}]}]}';
    const res = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(await t.app.db.select().from(whatsappMessages)).toEqual([]);
  });
});

describe("the inbox API", () => {
  it("lists conversations newest first with unread counts; the thread shows inbox and outbox and marks it read", async () => {
    await webhook({ messages: [inboundMessage("27825552001", "Hello", new Date(Date.now() - 60_000))] });
    await webhook({ messages: [inboundMessage("27835550111", "Hi there")], contacts: [contact("27835550111", "Nomsa")] });
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825552001",
      body: "Your receipt: R400 paid.",
      kind: "receipt",
      client_id: thandi.id,
    });
    const list = (await get("/api/admin/inbox")).json();
    expect(list.data.map((c: Json) => c.number)).toEqual(["27835550111", "27825552001"]);
    expect(list.data[1]).toMatchObject({ name: "Thandi Mokoena", client_id: thandi.id, unread: 1, last_text: "Hello" });
    expect((await get("/api/admin/inbox/unread")).json()).toEqual({ data: { unread: 2 } });

    const res = await get("/api/admin/inbox/27825552001");
    expect(res.statusCode).toBe(200);
    const thread = res.json().data;
    expect(thread).toMatchObject({ number: "27825552001", name: "Thandi Mokoena", client_id: thandi.id, cloud_api: true });
    expect(thread.window_open_until).not.toBeNull();
    expect(thread.messages.map((m: Json) => [m.source, m.direction, m.text])).toEqual([
      ["inbox", "in", "Hello"],
      ["outbox", "out", "Your receipt: R400 paid."],
    ]);
    expect(thread.messages[1]).toMatchObject({ status: "pending", type: "receipt" });
    expect(thread.customer).toMatchObject({
      kind: "client",
      status: "active",
      package: "Month to Month",
      panel_username: "thandi_line",
      subscription_end: "2027-01-31T22:00:00.000Z",
    });
    expect(thread.customer.payments.map((p: Json) => p.amount)).toEqual([400, 300, 200]);
    expect((await get("/api/admin/inbox/unread")).json()).toEqual({ data: { unread: 1 } });
  });

  it("answers 404 for a number that is not international digits", async () => {
    for (const number of ["0825552001x", "%2B27825552001", "abc", "0000", "1234567890123456"]) {
      expect((await get(`/api/admin/inbox/${number}`)).statusCode, number).toBe(404);
      expect((await reply(number, { text: "hi" })).statusCode, number).toBe(404);
    }
  });

  it("refuses an empty or too long reply with 400 on text", async () => {
    for (const payload of [{}, { text: "" }, { text: "   " }, { text: "x".repeat(4097) }, { text: 42 }]) {
      const res = await reply("27825552001", payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(Object.keys(res.json().error.fields)).toEqual(["text"]);
    }
    expect(fake.messages).toHaveLength(0);
  });
});

describe("replying", () => {
  it("inside the window: one free-text send, kept in the thread with its wamid and delivery statuses, audited", async () => {
    await webhook({ messages: [inboundMessage("27825552001", "Line is down")] });
    const res = await reply("27825552001", { text: "  We're restarting it now.  " });
    expect(res.statusCode).toBe(200);
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]).toMatchObject({ to: "27825552001", type: "text", text: "We're restarting it now." });
    const sent = res.json().data;
    expect(sent).toMatchObject({ waLink: null, message: { direction: "out", status: "sent", wamid: fake.messages[0].id } });

    const statuses = await webhook({
      statuses: [
        deliveryStatus(fake.messages[0].id, "delivered", "27825552001"),
        deliveryStatus(fake.messages[0].id, "read", "27825552001"),
      ],
    });
    expect(statuses.json()).toMatchObject({ statuses: 2 });
    const thread = (await get("/api/admin/inbox/27825552001")).json().data;
    expect(thread.messages.at(-1)).toMatchObject({
      source: "inbox",
      direction: "out",
      text: "We're restarting it now.",
      wamid: fake.messages[0].id,
      delivery_status: "read",
    });
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, sent.message.id));
    expect(entry).toMatchObject({ action: "reply", resource: "whatsapp_messages" });
  });

  it("outside the window: 409 saying a template is needed, nothing sent", async () => {
    await webhook({ messages: [inboundMessage("27825552001", "old", new Date(Date.now() - 25 * 3_600_000))] });
    const res = await reply("27825552001", { text: "Hello?" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain("template");
    // a number that never wrote: the same
    expect((await reply("27835550123", { text: "Hello?" })).statusCode).toBe(409);
    expect(fake.messages).toHaveLength(0);
  });
});

/** The change feed as a browser's EventSource reads it, over real HTTP. */
function openStream(base: string, path: string, headers: Record<string, string> = {}) {
  const events: ChangeEvent[] = [];
  let buffer = "";
  let opened = () => {};
  /** resolves with the stream's first bytes (its retry frame): from then on it hears every change */
  const ready = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const request = http.get(`${base}${path}`, { headers: { accept: "text/event-stream", ...headers }, agent: false }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      opened();
      buffer += chunk;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        for (const line of buffer.slice(0, cut).split("\n")) if (line.startsWith("data: ")) events.push(JSON.parse(line.slice(6)));
        buffer = buffer.slice(cut + 2);
      }
    });
    res.on("error", () => {});
  });
  request.on("error", () => {});
  return { events, ready, close: () => request.destroy() };
}

describe("the line details resent, and their delivery states live", () => {
  it("sends the line login once as text inside the window; Meta's statuses reach an admin's change stream (not the public one) and the thread", async () => {
    await t.app.db
      .update(clients)
      .set({
        panel_line_id: "line-1",
        line_password: "pw Secret/9",
        line_portal_url: "http://line.example.test:8080",
        line_enabled: true,
      })
      .where(eq(clients.id, thandi.id));
    await webhook({ messages: [inboundMessage("27825552001", "I lost my login")] });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const admin = openStream(base, "/api/events?tables=outbox", { cookie });
    const anonymous = openStream(base, "/api/events?tables=outbox,packages");
    await Promise.all([admin.ready, anonymous.ready]);
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/inbox/27825552001/resend-line-details",
        headers: { ...headers(), "idempotency-key": "tap-1" },
      });
      expect(res.statusCode).toBe(201);
      const [queued] = res.json().data.queued;
      expect(res.json().data).toMatchObject({ cloud_api: true, queued: [{ channel: "whatsapp", hint: "ending 2001" }] });
      await eventually(() => expect(admin.events).toContainEqual({ table: "outbox", op: "INSERT", id: queued.id }));
      await t.app.outbox.drain();
      // a retry of the tap sends nothing more
      expect(
        (
          await t.app.inject({
            method: "POST",
            url: "/api/admin/inbox/27825552001/resend-line-details",
            headers: { ...headers(), "idempotency-key": "tap-1" },
          })
        ).statusCode,
      ).toBe(200);
      await t.app.outbox.drain();
      expect(fake.messages).toHaveLength(1);
      expect(fake.messages[0]).toMatchObject({ to: "27825552001", type: "text" });
      // the password is put in as it is sent, URL-encoded inside the absolute M3U link
      expect(fake.messages[0].text).toContain("pw Secret/9");
      expect(fake.messages[0].text).toContain(
        `http://line.example.test:8080/get.php?username=thandi_line&password=${encodeURIComponent("pw Secret/9")}`,
      );

      admin.events.length = 0;
      await webhook({ statuses: [deliveryStatus(fake.messages[0].id, "delivered", "27825552001")] });
      await eventually(() => expect(admin.events).toContainEqual({ table: "outbox", op: "UPDATE", id: queued.id }), 1000);
      const thread = (await get("/api/admin/inbox/27825552001")).json().data;
      expect(thread.messages.find((m: Json) => m.id === queued.id)).toMatchObject({
        source: "outbox",
        type: "credentials",
        status: "sent",
        delivery_status: "delivered",
      });
      expect(anonymous.events.filter((e) => e.table === "outbox")).toEqual([]);
    } finally {
      admin.close();
      anonymous.close();
    }
  });
});

describe("an opened window flushes the owner's queue", () => {
  async function ownerRows(n: number) {
    for (let i = 0; i < n; i++) {
      await enqueue(t.app.db, {
        channel: "whatsapp",
        recipient: "27825552001",
        body: `Waiting ${i}`,
        kind: "receipt",
        client_id: thandi.id,
      });
    }
    await t.app.db.update(outbox).set({ status: "owner", note: "The owner sends it." });
  }

  it("sends what waited as free text once the number writes, each message once", async () => {
    await ownerRows(2);
    await enqueue(t.app.db, { channel: "whatsapp", recipient: "27835550777", body: "Someone else", kind: "receipt" });
    await t.app.db.update(outbox).set({ status: "owner" }).where(eq(outbox.recipient, "27835550777"));
    await webhook({ messages: [inboundMessage("27825552001", "hi")] });
    await t.app.outbox.drain();
    expect(fake.messages.map((m) => [m.to, m.type, m.text]).sort()).toEqual([
      ["27825552001", "text", "Waiting 0"],
      ["27825552001", "text", "Waiting 1"],
    ]);
    const rows = await t.app.db.select().from(outbox);
    expect(rows.filter((r) => r.recipient === "27825552001").map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(rows.find((r) => r.recipient === "27835550777")?.status).toBe("owner");
    // a second message (or a replay) finds nothing left to flush
    await webhook({ messages: [inboundMessage("27825552001", "hello again")] });
    await t.app.outbox.drain();
    expect(fake.messages).toHaveLength(2);
  });

  it("two webhooks from the number sent together (taking turns on PGlite's one connection) send what waited once", async () => {
    await ownerRows(2);
    await Promise.all([
      webhook({ messages: [inboundMessage("27825552001", "one")] }),
      webhook({ messages: [inboundMessage("27825552001", "two")] }),
    ]);
    await Promise.all([t.app.outbox.drain(), t.app.outbox.drain()]);
    expect(fake.messages.map((m) => m.text).sort()).toEqual(["Waiting 0", "Waiting 1"]);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): webhooks from the number on two processes at the same moment send what waited once",
    async () => {
      const other = await secondProcess(t);
      try {
        await ownerRows(2);
        // each webhook's flush of the owner's queue waits behind the lock on the outbox, then both go
        const answers = await startTogether(t.database.url as string, "LOCK TABLE outbox IN EXCLUSIVE MODE", 2, () =>
          Promise.all([
            webhook({ messages: [inboundMessage("27825552001", "one")] }, t.app),
            webhook({ messages: [inboundMessage("27825552001", "two")] }, other.app),
          ]),
        );
        expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
        await Promise.all([t.app.outbox.drain(), other.app.outbox.drain()]);
        expect(fake.messages.map((m) => m.text).sort()).toEqual(["Waiting 0", "Waiting 1"]);
        const rows = await t.app.db.select().from(outbox).where(eq(outbox.recipient, "27825552001"));
        expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
        expect((await t.app.db.select().from(whatsappMessages)).filter((m) => m.direction === "in")).toHaveLength(2);
      } finally {
        await other.close();
      }
    },
  );

  it("sends a message rerouted to e-mail only as free text once the number writes, once however often the webhook is replayed", async () => {
    await enqueue(t.app.db, { channel: "whatsapp", recipient: "27825552001", body: "Your receipt", kind: "receipt", client_id: thandi.id });
    await t.app.db.update(outbox).set({ status: "rerouted", note: "No WhatsApp template is set for receipt messages." });
    const message = inboundMessage("27825552001", "hi");
    await webhook({ messages: [message] });
    await webhook({ messages: [message] });
    await Promise.all([t.app.outbox.drain(), t.app.outbox.drain()]);
    await webhook({ messages: [message] });
    await t.app.outbox.drain();
    expect(fake.messages.map((m) => [m.to, m.type, m.text])).toEqual([["27825552001", "text", "Your receipt"]]);
    const [row] = await t.app.db.select().from(outbox).where(eq(outbox.channel, "whatsapp"));
    expect(row).toMatchObject({ status: "sent", sent_via: "cloud-text" });
  });

  it("never sends a one-time code that has expired when the number writes (a live one still goes)", async () => {
    fake.approve("streamdesk_code", "en", 1);
    await t.app.db.insert(whatsappTemplates).values({ kind: "verification-code", template_name: "streamdesk_code", params: ["secret"] });
    const code = (expiresAt: Date) => ({
      purpose: "payment-identify",
      channel: "whatsapp",
      recipient: "27825552001",
      requester: "ip:127.0.0.1",
      code_hash: "x",
      expires_at: expiresAt,
    });
    const [expired, live] = await t.app.db
      .insert(verificationCodes)
      .values([code(new Date(Date.now() - 60_000)), code(new Date(Date.now() + 600_000))])
      .returning();
    for (const [row, secret] of [
      [expired, "111111"],
      [live, "222222"],
    ] as const) {
      await enqueue(t.app.db, {
        channel: "whatsapp",
        recipient: "27825552001",
        body: "Your code is {{secret}}.",
        secret,
        kind: "verification-code",
        dedupe_key: `verification:${row.id}:whatsapp`,
      });
    }
    await t.app.db.update(outbox).set({ status: "owner" });
    await webhook({ messages: [inboundMessage("27825552001", "hi")] });
    await t.app.outbox.drain();
    // the live code goes once (inside the window the worker may send it as text or through the template); the expired one never
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0].text ?? fake.messages[0].template?.parameters.join(" ")).toContain("222222");
    expect(JSON.stringify(fake.messages)).not.toContain("111111");
    const [left] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `verification:${expired.id}:whatsapp`));
    expect(left.status).toBe("owner");
    await t.app.db.delete(verificationCodes);
    await t.app.db.delete(whatsappTemplates);
  });

  it("two flushes called together (taking turns on PGlite's one connection) take each row once", async () => {
    await ownerRows(3);
    await t.app.db.insert(whatsappWindows).values({ number: "27825552001", last_inbound_at: new Date() });
    const [a, b] = await Promise.all([flushOwnerQueue(t.app.db, "27825552001"), flushOwnerQueue(t.app.db, "27825552001")]);
    expect(a.length + b.length).toBe(3);
    expect(new Set([...a, ...b]).size).toBe(3);
    await Promise.all([t.app.outbox.drain(), t.app.outbox.drain()]);
    expect(fake.messages).toHaveLength(3);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): flushes on two connections at the same moment take each row once; every row sent once",
    async () => {
      const second = await openDatabase({ databaseUrl: t.database.url, poolSize: 2 });
      try {
        await ownerRows(3);
        await t.app.db.insert(whatsappWindows).values({ number: "27825552001", last_inbound_at: new Date() });
        const [a, b] = await startTogether(t.database.url as string, "LOCK TABLE outbox IN EXCLUSIVE MODE", 2, () =>
          Promise.all([flushOwnerQueue(t.app.db, "27825552001"), flushOwnerQueue(second.db, "27825552001")]),
        );
        // both answered: what one took the other did not (one may take all three, the other then none)
        expect(a.length + b.length).toBe(3);
        expect(new Set([...a, ...b]).size).toBe(3);
        await t.app.outbox.drain();
        expect(fake.messages).toHaveLength(3);
        const rows = await t.app.db.select().from(outbox).where(eq(outbox.recipient, "27825552001"));
        expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
      } finally {
        await second.close();
      }
    },
  );
});

describe("retention", () => {
  it("purges inbox messages older than whatsapp_retention_months (default 12)", async () => {
    const now = Date.now();
    const month = 30 * 86_400_000;
    await t.app.db.insert(whatsappMessages).values([
      { number: "27825552001", direction: "in", wamid: "wamid.old", text: "old", sent_at: new Date(now - 13 * month) },
      { number: "27825552001", direction: "in", wamid: "wamid.mid", text: "mid", sent_at: new Date(now - 7 * month) },
      { number: "27825552001", direction: "in", wamid: "wamid.new", text: "new", sent_at: new Date(now - month) },
    ]);
    expect(await purgeWhatsAppMessages(t.app)).toBe(1);
    expect(await purgeWhatsAppMessages(t.app)).toBe(0);
    await t.app.db.insert(siteSettings).values({ key: "whatsapp_retention_months", value: "6" });
    t.app.cache.clear();
    expect(await purgeWhatsAppMessages(t.app)).toBe(1);
    const left = await t.app.db.select({ wamid: whatsappMessages.wamid }).from(whatsappMessages);
    expect(left).toEqual([{ wamid: "wamid.new" }]);
    await t.app.db.execute(sql`delete from site_settings where key = 'whatsapp_retention_months'`);
  });
});
