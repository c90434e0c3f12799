// Owner-assisted WhatsApp, with no Cloud API configured: every WhatsApp message moves to the
// owner's "To send on WhatsApp" queue with its wa.me link, an e-mail copy goes at once to whoever
// has an address (through a real SMTP server on loopback), the overview counts the queue, and
// the owner marks each one sent — once, audited.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, leads, outbox } from "@/server/db/schema";
import { enqueue, SECRET_PLACEHOLDER } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import type { ReceivedMail } from "@/server/test-support/smtp-sink";
import { eventually } from "@/server/testing";

let t: MessagingTestApp;
let cookie: string;
let mails: ReceivedMail[];

beforeAll(async () => {
  t = await createMessagingTestApp({ build: { seed: true } });
  mails = t.mails;
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;
const get = (url: string) => t.app.inject({ method: "GET", url, headers: { origin: "http://localhost:8080", cookie } });
const post = (url: string) => t.app.inject({ method: "POST", url, headers: { origin: "http://localhost:8080", cookie } });
const rowsOf = (kind: string) => t.app.db.select().from(outbox).where(eq(outbox.kind, kind));
/** Quoted-printable soft line breaks and '=3D' undone. */
const decoded = (data: string) => data.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

describe("no Cloud API: the owner's queue", () => {
  it("gives each WhatsApp message its wa.me link and e-mails a copy to a client who has an address", async () => {
    const thandi = await makeClient(t.app, {
      username: "thandi.m",
      full_name: "Thandi Mokoena",
      email: "Thandi@Example.co.za",
      whatsapp: "27825550101",
    });
    const body = "Hi Thandi,\n\nYour line is ready & waiting: 100% HD.";
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825550101",
      body,
      kind: "credentials",
      client_id: thandi.id,
      dedupe_key: `credentials:${thandi.id}`,
    });
    t.app.outbox.nudge();
    await eventually(async () => {
      const mail = mails.find((m) => m.to.includes("thandi@example.co.za"));
      expect(mail).toBeDefined();
      expect(decoded(mail?.raw ?? "")).toContain("Your line is ready & waiting: 100% HD.");
    }, 10_000);

    // The mail server has the copy a moment before the worker records it sent.
    const [whatsapp, copy] = await eventually(async () => {
      const rows = [
        ...(await rowsOf("credentials")).filter((r) => r.channel === "whatsapp"),
        ...(await rowsOf("credentials")).filter((r) => r.channel === "email"),
      ];
      expect(rows[1]?.status).toBe("sent");
      return rows;
    }, 5_000);
    expect(whatsapp).toMatchObject({
      status: "owner",
      wa_link: `https://wa.me/27825550101?text=${encodeURIComponent(body)}`,
    });
    expect(whatsapp.note).toContain("An e-mail copy was queued to thandi@example.co.za.");
    expect(copy).toMatchObject({
      status: "sent",
      recipient: "thandi@example.co.za",
      dedupe_key: `credentials:${thandi.id}:email-copy`,
      client_id: thandi.id,
      body,
    });
    expect(copy.subject).toMatch(/^StreamDesk: /);
  });

  it("e-mails a lead's copy too, and makes none when the person has no address or already got it by e-mail", async () => {
    const [lead] = await t.app.db
      .insert(leads)
      .values({
        form_type: "order",
        name: "Sipho Lead",
        email: "sipho@example.co.za",
        whatsapp: "0825550202",
        whatsapp_digits: "27825550202",
      })
      .returning();
    const noEmail = await makeClient(t.app, { username: "no.mail", full_name: "No Mail", whatsapp: "27825550303" });
    const both = await makeClient(t.app, {
      username: "both.ways",
      full_name: "Both Ways",
      email: "both@example.co.za",
      whatsapp: "27825550404",
    });
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825550202",
      body: "About your order",
      kind: "order-confirmation",
      lead_id: lead.id,
    });
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825550303",
      body: "Renew here",
      kind: "renewal-link",
      client_id: noEmail.id,
    });
    // the sender queued both channels in one transaction (as the welcome does): the e-mail is the copy
    await t.app.db.transaction(async (tx) => {
      await enqueue(tx, {
        channel: "email",
        recipient: "both@example.co.za",
        subject: "Hi",
        body: "Both",
        kind: "welcome",
        client_id: both.id,
      });
      await enqueue(tx, { channel: "whatsapp", recipient: "27825550404", body: "Both", kind: "welcome", client_id: both.id });
    });
    await t.app.outbox.drain();

    const [leadCopy] = (await rowsOf("order-confirmation")).filter((r) => r.channel === "email");
    expect(leadCopy).toMatchObject({ recipient: "sipho@example.co.za", lead_id: lead.id });
    expect(leadCopy.dedupe_key).toMatch(/^outbox:[0-9a-f-]{36}:email-copy$/);
    expect((await rowsOf("renewal-link")).map((r) => [r.channel, r.status])).toEqual([["whatsapp", "owner"]]);
    const welcome = await rowsOf("welcome");
    expect(welcome.filter((r) => r.channel === "email")).toHaveLength(1);
    expect(welcome.find((r) => r.channel === "whatsapp")?.note).toContain("The same message went by e-mail to both@example.co.za.");
  });

  it("sends no e-mail copy of an old message (one left waiting from before the queue): it would arrive stale", async () => {
    const client = await makeClient(t.app, {
      username: "old.news",
      full_name: "Old News",
      email: "old@example.co.za",
      whatsapp: "27825550606",
    });
    await t.app.db.insert(outbox).values({
      channel: "whatsapp",
      recipient: "27825550606",
      body: "Your subscription ends in 7 days.",
      kind: "reminder-7d",
      client_id: client.id,
      created_at: new Date(Date.now() - 20 * 86_400_000),
    });
    await t.app.outbox.drain();
    const rows = await rowsOf("reminder-7d");
    expect(rows.map((r) => [r.channel, r.status])).toEqual([["whatsapp", "owner"]]);
    // and the link, which rows from before did not keep, is made now
    expect(rows[0].wa_link).toBe(`https://wa.me/27825550606?text=${encodeURIComponent("Your subscription ends in 7 days.")}`);
    await t.app.db.delete(outbox).where(eq(outbox.id, rows[0].id));
  });

  it("lists the queue (status=owner) with each link, and counts it on the overview", async () => {
    const res = await get("/api/admin/outbox?status=owner&channel=whatsapp");
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json() as { data: Json[]; total: number };
    expect(total).toBe(4);
    expect(data.every((m) => m.status === "owner" && m.wa_link.startsWith("https://wa.me/27") && m.has_secret === false)).toBe(true);
    // what admins never receive
    expect(data.every((m) => !("secret_enc" in m) && !("template_vars" in m))).toBe(true);
    const stats = (await get("/api/admin/stats")).json();
    expect(stats.whatsapp_to_send).toBe(4);
  });

  it("marks a message sent once: audited, then 409; 404 for an unknown one", async () => {
    const [row] = (await rowsOf("credentials")).filter((r) => r.channel === "whatsapp");
    const first = await post(`/api/admin/outbox/${row.id}/mark-sent`);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ id: row.id, status: "sent", sent_via: "owner" });
    expect(first.json().data.sent_at).toEqual(expect.any(String));

    const again = await post(`/api/admin/outbox/${row.id}/mark-sent`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: "conflict", message: "This message was already sent." });
    expect((await post("/api/admin/outbox/00000000-0000-4000-8000-000000000000/mark-sent")).statusCode).toBe(404);

    const entries = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "outbox"), eq(auditLog.resource_id, row.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "mark-sent",
      before: { status: "owner", channel: "whatsapp", recipient: "27825550101", kind: "credentials" },
      after: { status: "sent", sent_via: "owner" },
    });
    expect(entries[0].admin_email).toMatch(/@example\.test$/);
    expect((await get("/api/admin/stats")).json().whatsapp_to_send).toBe(3);
    // and the owner's queue no longer holds it
    expect((await get("/api/admin/outbox?status=owner")).json().total).toBe(3);
  });

  it("keeps a secret's link out of the row; the owner gets it filled in only by asking, which is audited", async () => {
    const client = await makeClient(t.app, { username: "secret.keeper", full_name: "Secret Keeper", whatsapp: "27825550505" });
    const link = "http://localhost:8080/client-password-reset?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd";
    await enqueue(t.app.db, {
      channel: "whatsapp",
      recipient: "27825550505",
      body: `Choose a new password here: ${SECRET_PLACEHOLDER}`,
      secret: link,
      kind: "password-reset",
      client_id: client.id,
    });
    await t.app.outbox.drain();
    const [row] = (await rowsOf("password-reset")).filter((r) => r.client_id === client.id);
    expect(row).toMatchObject({ status: "owner", wa_link: null, body: "Choose a new password here: {{secret}}" });

    const listed = (await get("/api/admin/outbox?status=owner&q=password")).json().data as Json[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ has_secret: true, wa_link: null, body: "Choose a new password here: ••••••" });
    expect(JSON.stringify(listed)).not.toContain("AbCdEf");

    const chat = await post(`/api/admin/outbox/${row.id}/chat-link`);
    expect(chat.statusCode).toBe(200);
    expect(chat.json().url).toBe(`https://wa.me/27825550505?text=${encodeURIComponent(`Choose a new password here: ${link}`)}`);
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "reveal-for-whatsapp"), eq(auditLog.resource_id, row.id)));
    expect(entry).toMatchObject({ resource: "outbox", after: { kind: "password-reset", recipient: "27825550505" } });
    expect(JSON.stringify(entry)).not.toContain("AbCdEf");
  });

  it("counts real failures on the overview: given up, and retrying after an error — not the owner's queue", async () => {
    const before = (await get("/api/admin/stats")).json().outbox_failed;
    await t.app.db.insert(outbox).values([
      {
        channel: "email",
        recipient: "gone@example.co.za",
        body: "x",
        kind: "receipt",
        status: "failed",
        attempts: 8,
        last_error: "550 no such user",
      },
      {
        channel: "email",
        recipient: "later@example.co.za",
        body: "x",
        kind: "receipt",
        status: "pending",
        attempts: 2,
        last_error: "connection refused",
        next_attempt_at: new Date(Date.now() + 3_600_000),
      },
    ]);
    expect((await get("/api/admin/stats")).json().outbox_failed).toBe(before + 2);
    const failed = (await get("/api/admin/outbox?status=failed")).json() as { data: Json[]; total: number };
    expect(failed.data.map((m) => m.recipient).sort()).toEqual(["gone@example.co.za", "later@example.co.za"]);
  });
});
