// Issue 41: a one-time code goes only where it arrives now (lib/code-route.ts, codeRoute), on a
// shop's first day too. Against the fake WhatsApp Cloud API and the SMTP sink over real
// connections: by e-mail while no code template is approved, as the authentication template once
// one is, as free text inside the number's open window; with no route at all the flow says so and
// nothing is issued; and a code is never put in the owner's "To send on WhatsApp" queue.
// Runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeWhatsAppCloud } from "@/server/adapters/fake-whatsapp-cloud";
import { leads, outbox, trials, verificationCodes, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { codeSentTo, makeClient, nextIp, PUBLIC_URL, signIn } from "@/server/modules/client/test-helpers";
import { submitOrder } from "@/server/modules/orders/service";
import { identifyLookupsSettled } from "@/server/modules/payments/service";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { eventually } from "@/server/testing";
import { CODE_ROUTE_MESSAGES, identifyMessage, identifySentTo, type OrderForm } from "@/shared/schemas";
import { TRIAL_SETTINGS } from "@/shared/trial-schemas";
import { codeRoute } from "./code-route";
import { issueCode, VERIFICATION_KIND } from "./verification";

const TEMPLATE = "sd_login_code";
let t: MessagingTestApp & { whatsapp: FakeWhatsAppCloud };
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  t = await createMessagingTestApp({
    whatsapp: { token: "EAAG-code-test", phoneNumberId: "109800000041" },
    config: { PUBLIC_URL, LOG_LEVEL: "error" },
    build: { seed: true },
  });
  admin = await signInAdmin(t.app);
  const set = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: TRIAL_SETTINGS.mode, value: "instant" } });
  expect([200, 201], set.body).toContain(set.statusCode);
  await eventually(async () => expect((await loadBusiness(t.app)).settings[TRIAL_SETTINGS.mode]).toBe("instant"));
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  // a fresh shop: no code template approved, nobody has written to us
  await t.app.db.delete(whatsappTemplates);
  await t.app.db.delete(whatsappWindows);
});

function person() {
  n += 1;
  const digits = String(4_100_000 + n);
  return {
    name: `Code Person ${n}`,
    email: `code.${n}@example.co.za`,
    whatsapp: `082 ${digits.slice(0, 3)} ${digits.slice(3)}`,
    stored: `2782${digits}`,
    ip: `10.41.${n}.7`,
  };
}
type Person = ReturnType<typeof person>;

const order = (p: Person) =>
  t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: { name: p.name, email: p.email, whatsapp: p.whatsapp, duration: "free-trial", formType: "free-trial" },
    remoteAddress: p.ip,
    headers: { origin: PUBLIC_URL },
  });
const post = (url: string, payload: object, cookie: string) =>
  t.app.inject({ method: "POST", url, payload, headers: { origin: PUBLIC_URL, cookie }, remoteAddress: nextIp() });

/** The code rows queued on WhatsApp that wait in the owner's queue: there must never be one. */
const codesInOwnerQueue = () =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, VERIFICATION_KIND), eq(outbox.status, "owner")));

async function approveCodeTemplate() {
  await t.app.db
    .insert(whatsappTemplates)
    .values({ kind: VERIFICATION_KIND, template_name: TEMPLATE, language_code: "en", params: ["secret"] });
  t.whatsapp.approve(TEMPLATE, "en", 1);
}

describe("a free trial's code on a shop's first day", () => {
  it("with the Cloud API connected and no code template approved, the code is e-mailed: it arrives at the sink, and nothing waits in the owner's queue", async () => {
    const p = person();
    const res = await order(p);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().sentTo).toBe(`c***@example.co.za`);
    const code = await codeSentTo(t.app, p.email);
    await t.app.outbox.drain();
    const mail = await eventually(() => {
      const found = t.mails.find((m) => m.to.includes(p.email) && m.text.includes(code));
      expect(found).toBeDefined();
      return found;
    });
    expect(mail?.text).toContain("It works for 10 minutes, once.");
    expect(t.whatsapp.messages.filter((m) => m.to === p.stored)).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, p.stored))).toEqual([]);
    expect(await codesInOwnerQueue()).toEqual([]);
    // the trial page says the same place
    const page = await t.app.inject({ method: "GET", url: `/api/trials/${res.json().trialId}` });
    expect(page.json().sentTo).toBe("c***@example.co.za");
  });

  it("once the authentication template is approved, the code goes to their WhatsApp as that template with its copy-code button, and starts the trial", async () => {
    await approveCodeTemplate();
    const p = person();
    const res = await order(p);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().sentTo).toBe(`WhatsApp ending ${p.stored.slice(-4)}`);
    const code = await codeSentTo(t.app, p.stored);
    await t.app.outbox.drain();
    const [sent] = await eventually(() => {
      const found = t.whatsapp.messages.filter((m) => m.to === p.stored);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(sent).toMatchObject({ type: "template", template: { name: TEMPLATE, language: "en", parameters: [code], button: code } });
    expect(t.mails.filter((m) => m.to.includes(p.email))).toEqual([]);
    const verified = await t.app.inject({
      method: "POST",
      url: `/api/trials/${res.json().trialId}/verify`,
      payload: { code },
      headers: { origin: PUBLIC_URL },
    });
    expect(verified.statusCode, verified.body).toBe(201);
  });

  it("with no e-mail on the path and no way to WhatsApp, the shop confirms the trial instead: a sentence to read, no trial, no code, no code message", async () => {
    const p = person();
    const form = {
      name: p.name,
      email: "",
      whatsapp: p.whatsapp,
      duration: "free-trial",
      formType: "free-trial",
      package: "",
      device: "",
      internetPlatform: "",
      otherPlatform: "",
      internetSpeed: "",
      marketingOptIn: false,
    } as unknown as OrderForm;
    const saved = await submitOrder(t.app, form, { ip: p.ip, idempotencyKey: null, payload: {} });
    expect(saved.trial).toBeUndefined();
    expect(saved.notice).toBe(CODE_ROUTE_MESSAGES.trialApprove);
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, saved.id));
    expect(lead).toMatchObject({ form_type: "free-trial", status: "new" });
    expect(await t.app.db.select().from(trials).where(eq(trials.lead_id, saved.id))).toEqual([]);
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.lead_id, saved.id))).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.lead_id, saved.id), eq(outbox.kind, VERIFICATION_KIND))),
    ).toEqual([]);
  });
});

describe("the portal's new number", () => {
  async function signedInClient() {
    n += 1;
    const client = await makeClient(t.app, {
      username: `code.client${n}`,
      full_name: `Code Client ${n}`,
      whatsapp: `278250${String(41_000 + n)}`,
      email: `code.client${n}@example.co.za`,
    });
    return { client, cookie: await signIn(t.app, client) };
  }

  it("inside the number's open 24-hour window, the code goes as free text and confirms the change", async () => {
    const { client, cookie } = await signedInClient();
    const number = `2783${String(4_100_000 + n)}`;
    await t.app.db.insert(whatsappWindows).values({ number, last_inbound_at: new Date(Date.now() - 60 * 60_000) });
    const started = await post("/api/client/contact-change", { whatsapp: `+${number}` }, cookie);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toEqual({ sentTo: `WhatsApp ending ${number.slice(-4)}`, channel: "whatsapp" });
    const code = await codeSentTo(t.app, number);
    await t.app.outbox.drain();
    const [sent] = await eventually(() => {
      const found = t.whatsapp.messages.filter((m) => m.to === number);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(sent.type).toBe("text");
    expect(sent.text).toContain(code);
    expect(await codesInOwnerQueue()).toEqual([]);
    const done = await post("/api/client/contact-change/confirm", { code }, cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.whatsapp).toBe(number);
    expect(await codesInOwnerQueue()).toEqual([]);
    expect((await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.client_id, client.id)))[0].used_at).not.toBeNull();
  });

  it("with no code template and no open window, the new number is refused in plain words on its field (409), with no code row and no outbox row", async () => {
    const { client, cookie } = await signedInClient();
    // a window that closed (older than 24 hours) does not count
    const number = `2783${String(4_100_000 + n)}`;
    await t.app.db.insert(whatsappWindows).values({ number, last_inbound_at: new Date(Date.now() - 25 * 3_600_000) });
    const started = await post("/api/client/contact-change", { whatsapp: `+${number}` }, cookie);
    expect(started.statusCode).toBe(409);
    expect(started.json().error).toMatchObject({ code: "no_code_route", fields: { whatsapp: CODE_ROUTE_MESSAGES.whatsappWindow } });
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.client_id, client.id))).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.client_id, client.id))).toEqual([]);
  });
});

describe("the payer's code", () => {
  it("goes only where it arrives and the answer names: the e-mail typed (the recorded one) while WhatsApp has no code template, both once it has", async () => {
    n += 1;
    const number = `278260${String(41_000 + n)}`;
    const client = await makeClient(t.app, {
      username: `payer${n}`,
      full_name: `Payer ${n}`,
      whatsapp: number,
      email: `payer${n}@example.co.za`,
    });
    const ask = () =>
      t.app.inject({
        method: "POST",
        url: "/api/payments/identify",
        payload: { whatsapp: `+${number}`, email: `payer${n}@example.co.za` },
        headers: { origin: PUBLIC_URL },
        remoteAddress: nextIp(),
      });
    const sentTo = async () => {
      await identifyLookupsSettled();
      const rows = await t.app.db
        .select({ recipient: outbox.recipient })
        .from(outbox)
        .where(and(eq(outbox.kind, VERIFICATION_KIND), eq(outbox.client_id, client.id)));
      return rows.map((row) => row.recipient).sort();
    };
    // the answer names what was typed that a code reaches, for anyone (issue 46); the code rows say where it went
    const mail = `p***@example.co.za`;
    const wa = `WhatsApp ending ${number.slice(-4)}`;
    expect((await ask()).json()).toEqual({ message: identifyMessage([mail], false, wa), sentTo: identifySentTo([mail], wa) });
    // the number has not written to us: its window is shut, so only the e-mail got the code
    expect(await sentTo()).toEqual([`payer${n}@example.co.za`]);
    await approveCodeTemplate();
    // ten minutes pass: the first code has run out (a live one is re-used, never sent again)
    await t.app.db
      .update(verificationCodes)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(and(eq(verificationCodes.client_id, client.id), isNull(verificationCodes.used_at)));
    const both = [wa, mail];
    expect((await ask()).json()).toEqual({ message: identifyMessage(both, false), sentTo: both.join(" and ") });
    expect(await sentTo()).toEqual([number, `payer${n}@example.co.za`, `payer${n}@example.co.za`].sort());
  });

  it("with no template approved, goes as WhatsApp text into a client's open window; the answer names that condition alike for a stranger, and a shut window gets nothing", async () => {
    n += 1;
    const number = `278260${String(41_000 + n)}`;
    const stranger = `278261${String(41_000 + n)}`;
    const client = await makeClient(t.app, { username: `windowpayer${n}`, full_name: `Window Payer ${n}`, whatsapp: number });
    const ask = (digits: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/payments/identify",
        payload: { whatsapp: `+${digits}` },
        headers: { origin: PUBLIC_URL },
        remoteAddress: nextIp(),
      });
    const shut = await ask(number);
    await identifyLookupsSettled();
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.client_id, client.id))).toEqual([]);

    // the client writes to us an hour ago: the same question now sends the code as text
    await t.app.db.insert(whatsappWindows).values({ number, last_inbound_at: new Date(Date.now() - 60 * 60_000) });
    const open = await ask(number);
    const wa = `WhatsApp ending ${number.slice(-4)}`;
    expect(open.json()).toEqual(shut.json());
    expect(open.json()).toEqual({ message: identifyMessage([], true, wa), sentTo: identifySentTo([], wa) });
    expect(open.json().message).toBe(
      `If ${wa} is on an account with us and has written to us on WhatsApp in the last 24 hours, we've sent a code there: enter it below. If not, add the e-mail address on your account above and ask again to get a code there. Or sign in to your client portal, or continue as a new customer.`,
    );
    const code = await codeSentTo(t.app, number);
    await t.app.outbox.drain();
    const [sent] = await eventually(() => {
      const found = t.whatsapp.messages.filter((m) => m.to === number);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(sent.type).toBe("text");
    expect(sent.text).toContain(code);
    expect(await codesInOwnerQueue()).toEqual([]);

    // a stranger's number with the same last digits' shape: the same words, nothing sent
    const other = await ask(stranger);
    expect(other.json().message).toBe(open.json().message.replace(number.slice(-4), stranger.slice(-4)));
    await identifyLookupsSettled();
    expect(t.whatsapp.messages.filter((m) => m.to === stranger)).toEqual([]);
  });
});

describe("the outbox worker", () => {
  it("fails a WhatsApp code it can no longer send (its template switched off since) at once: never the owner's queue, never an e-mail copy", async () => {
    await approveCodeTemplate();
    n += 1;
    const number = `278270${String(41_000 + n)}`;
    const client = await makeClient(t.app, {
      username: `late${n}`,
      full_name: `Late ${n}`,
      whatsapp: number,
      email: `late${n}@example.co.za`,
    });
    const to = await codeRoute(t.app.db, [{ channel: "whatsapp", recipient: number }], { cloudApi: true, email: true });
    expect(to).toEqual([{ channel: "whatsapp", recipient: number }]);
    await issueCode(t.app.db, await loadBusiness(t.app), {
      purpose: "payment-identify",
      to,
      clientId: client.id,
      requester: `client:${client.id}`,
    });
    await t.app.db.update(whatsappTemplates).set({ enabled: false }).where(eq(whatsappTemplates.kind, VERIFICATION_KIND));
    await t.app.outbox.drain();
    const rows = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, VERIFICATION_KIND), eq(outbox.client_id, client.id)));
    expect(rows.map((r) => [r.channel, r.status])).toEqual([["whatsapp", "failed"]]);
    expect(rows[0].last_error).toContain("a code cannot reach them");
    expect(t.whatsapp.messages.filter((m) => m.to === number)).toEqual([]);
    expect(await codesInOwnerQueue()).toEqual([]);
  });
});
