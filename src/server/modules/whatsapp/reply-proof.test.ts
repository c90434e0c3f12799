// Issue 41 item 2, the portal's contact change and the payer's identify step: with the Cloud API
// and its signed webhook set up, the answer carries a wa.me link with a code, and a message from
// the number being proved holding it proves that number (the trial's own case is in
// trials/reply-proof.test.ts). Against the fake Cloud API; PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeWhatsAppCloud, hubSignature, inboundMessage, webhookPayload } from "@/server/adapters/fake-whatsapp-cloud";
import { capturedPayments, clients, outbox, packages, verificationCodes, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { cookieFrom, makeClient, nextIp, PUBLIC_URL, signIn } from "@/server/modules/client/test-helpers";
import { identifyLookupsSettled, PAYER_CODE_REFUSED } from "@/server/modules/payments/service";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { identifyMessage, identifySentTo } from "@/shared/schemas";

const APP_SECRET = "meta-app-secret-41b";
let t: MessagingTestApp & { whatsapp: FakeWhatsAppCloud };
let monthly = "";
let n = 0;

beforeAll(async () => {
  t = await createMessagingTestApp({
    whatsapp: { token: "EAAG-reply-test-b", phoneNumberId: "109800000044" },
    config: { PUBLIC_URL, LOG_LEVEL: "error", WHATSAPP_APP_SECRET: APP_SECRET, SANDBOX_SECRET: "reply-proof-test" },
    build: { seed: true },
  });
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  monthly = pkg.id;
  // a fresh shop: no code template approved, nobody has written to us
  await t.app.db.delete(whatsappTemplates);
  await t.app.db.delete(whatsappWindows);
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: "POST", url, payload, headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) }, remoteAddress: nextIp() });

function codeIn(waLink: string): string {
  const code = (new URL(waLink).searchParams.get("text") ?? "").match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no code in ${waLink}`);
  return code;
}
async function write(from: string, text: string) {
  const body = JSON.stringify(webhookPayload({ messages: [inboundMessage(from, text)] }));
  const res = await t.app.inject({
    method: "POST",
    url: "/api/whatsapp/webhook",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function signedInClient() {
  n += 1;
  const old = `278270${String(42_000 + n)}`;
  const client = await makeClient(t.app, {
    username: `reply.client${n}`,
    full_name: `Reply Client ${n}`,
    whatsapp: old,
    email: `reply.client${n}@example.co.za`,
  });
  return { client, old, cookie: await signIn(t.app, client) };
}

describe("the portal's new number, confirmed by writing to us", () => {
  it("a new number no code can reach now is offered the link instead of 409, and a message from it with the code makes the change and tells the old number", async () => {
    const { client, old, cookie } = await signedInClient();
    const number = `2783${String(4_200_000 + n)}`;
    const started = await post("/api/client/contact-change", { whatsapp: `+${number}` }, cookie);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({
      sentTo: "",
      channel: "whatsapp",
      waLink: expect.stringMatching(/^https:\/\/wa\.me\/\d+\?text=/),
    });
    // nothing was sent anywhere: the only proof is the message from the new number
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, number))).toEqual([]);
    await write(number, `My StreamDesk code: ${codeIn(started.json().waLink)}`);
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row.whatsapp).toBe(number);
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.kind, "contact-changed")));
    expect(told.map((m) => m.recipient)).toContain(old);
  });

  it("the code written from another number (the old one) changes nothing; a replay of the right message changes it once", async () => {
    const { client, old, cookie } = await signedInClient();
    const number = `2783${String(4_200_000 + n)}`;
    const started = await post("/api/client/contact-change", { whatsapp: `+${number}` }, cookie);
    const code = codeIn(started.json().waLink);
    await write(old, code);
    expect((await t.app.db.select().from(clients).where(eq(clients.id, client.id)))[0].whatsapp).toBe(old);
    await write(number, code);
    await write(number, code);
    expect((await t.app.db.select().from(clients).where(eq(clients.id, client.id)))[0].whatsapp).toBe(number);
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.kind, "contact-changed")));
    expect(told.filter((m) => m.recipient === old)).toHaveLength(1);
  });

  it("another client's number is answered as any number's; even written from that number, the code changes nothing", async () => {
    const holder = await signedInClient();
    const { client, old, cookie } = await signedInClient();
    const started = await post("/api/client/contact-change", { whatsapp: `+${holder.old}` }, cookie);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ sentTo: "", channel: "whatsapp", waLink: expect.stringMatching(/^https:\/\/wa\.me\//) });
    // the holder writes it (only they could): the one-number-per-client rule refuses it, nothing moves
    await write(holder.old, codeIn(started.json().waLink));
    expect((await t.app.db.select().from(clients).where(eq(clients.id, client.id)))[0].whatsapp).toBe(old);
    expect((await t.app.db.select().from(clients).where(eq(clients.id, holder.client.id)))[0].whatsapp).toBe(holder.old);
  });

  it("an e-mail change has no link: writing from WhatsApp does not prove an address", async () => {
    const { cookie } = await signedInClient();
    const started = await post("/api/client/contact-change", { email: `new.${n}@example.co.za` }, cookie);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().waLink).toBeUndefined();
  });
});

describe("the payer, proven by writing to us", () => {
  it("identify answers a link for the client's recorded number; once the message from that number arrives, its code pays on the account", async () => {
    n += 1;
    const number = `278280${String(42_000 + n)}`;
    const client = await makeClient(t.app, { username: `reply.payer${n}`, full_name: "Reply Payer", whatsapp: number });
    const found = await post("/api/payments/identify", { whatsapp: `+${number}` });
    expect(found.statusCode, found.body).toBe(200);
    // the answer anyone gets; no code can go to a WhatsApp-only client today, so the link is what works
    // no template: the number is named on the window's condition (it has not written, so nothing went)
    const wa = `WhatsApp ending ${number.slice(-4)}`;
    expect(found.json()).toEqual({
      message: identifyMessage([], t.app.outbox.codeTransports.email, wa),
      sentTo: identifySentTo([], wa),
      waLink: expect.stringMatching(/^https:\/\/wa\.me\//),
    });
    await identifyLookupsSettled();
    const code = codeIn(found.json().waLink);
    const pay = () =>
      post("/api/payments/paylink", {
        packageId: monthly,
        immediateStartConsent: true,
        name: "Reply Payer",
        whatsapp: `+${number}`,
        verificationCode: code,
      });
    // before the message: refused (in the words any refused code gets), and the code still works after
    const early = await pay();
    expect(early.statusCode).toBe(400);
    expect(early.json().error.fields.verificationCode).toBe(PAYER_CODE_REFUSED);
    // from another number: nothing
    await write(`278290${String(42_000 + n)}`, code);
    expect((await pay()).statusCode).toBe(400);
    await write(number, `My StreamDesk code: ${code}`);
    const created = await pay();
    expect(created.statusCode, created.body).toBe(201);
    expect(cookieFrom(created, "sd_client")).toBeTruthy();
    const [payment] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.external_transaction_id, created.json().externalTransactionID));
    expect(payment.client_id).toBe(client.id);
    // used once
    expect((await pay()).statusCode).toBe(400);
  });

  it("a wrong code written to us proves nothing", async () => {
    n += 1;
    const number = `278280${String(42_000 + n)}`;
    const client = await makeClient(t.app, { username: `reply.payer${n}`, full_name: "Reply Payer", whatsapp: number });
    const found = await post("/api/payments/identify", { whatsapp: `+${number}` });
    await identifyLookupsSettled();
    const code = codeIn(found.json().waLink);
    await write(number, `My StreamDesk code: ${String((Number(code) + 7) % 1_000_000).padStart(6, "0")}`);
    const [row] = await t.app.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.client_id, client.id), eq(verificationCodes.purpose, "reply:payment-identify")));
    expect(row.payload.proved_at).toBeUndefined();
    expect(row.used_at).toBeNull();
  });
});

describe("the login's channel the pages promise (issue 41 item 7)", () => {
  it("GET /api/payments/methods says 'email' until the Cloud API has an approved template for the login, then 'whatsapp'", async () => {
    const channel = async () => (await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json().data.loginChannel;
    expect(await channel()).toBe("email");
    await t.app.db
      .insert(whatsappTemplates)
      .values({ kind: "credentials", template_name: "sd_login", language_code: "en", params: ["body"] });
    expect(await channel()).toBe("whatsapp");
    await t.app.db.update(whatsappTemplates).set({ enabled: false }).where(eq(whatsappTemplates.kind, "credentials"));
    expect(await channel()).toBe("email");
    await t.app.db.delete(whatsappTemplates);
  });
});
