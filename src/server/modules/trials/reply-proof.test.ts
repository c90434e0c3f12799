// Issue 41 item 2, the free trial: with the Cloud API and its signed webhook set up, the order's
// answer carries a wa.me link with a code; that code written to us from the number being proved
// (Meta signs the webhook) starts the trial exactly as typing the e-mailed code would, once. From
// another number, wrong, or expired, it proves nothing; a replayed webhook starts nothing more.
// Against the fake Cloud API; runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeWhatsAppCloud, hubSignature, inboundMessage, webhookPayload } from "@/server/adapters/fake-whatsapp-cloud";
import { clients, leads, provisioningJobs, trials, verificationCodes } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { CODE_MINUTES } from "@/server/lib/verification";
import { signInAdmin } from "@/server/modules/admin-business/test-admin";
import { PUBLIC_URL } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { eventually } from "@/server/testing";
import { TRIAL_SETTINGS } from "@/shared/trial-schemas";

const APP_SECRET = "meta-app-secret-41";
let t: MessagingTestApp & { whatsapp: FakeWhatsAppCloud };
let n = 0;

beforeAll(async () => {
  t = await createMessagingTestApp({
    whatsapp: { token: "EAAG-reply-test", phoneNumberId: "109800000042" },
    config: { PUBLIC_URL, LOG_LEVEL: "error", WHATSAPP_APP_SECRET: APP_SECRET },
    build: { seed: true },
  });
  const admin = await signInAdmin(t.app);
  const set = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: TRIAL_SETTINGS.mode, value: "instant" } });
  expect([200, 201], set.body).toContain(set.statusCode);
  await eventually(async () => expect((await loadBusiness(t.app)).settings[TRIAL_SETTINGS.mode]).toBe("instant"));
});
afterAll(async () => {
  await t?.close();
});

function person() {
  n += 1;
  const digits = String(4_200_000 + n);
  return {
    name: `Reply Person ${n}`,
    email: `reply.${n}@example.co.za`,
    whatsapp: `082 ${digits.slice(0, 3)} ${digits.slice(3)}`,
    stored: `2782${digits}`,
    ip: `10.42.${n}.7`,
  };
}
type Person = ReturnType<typeof person>;

async function order(p: Person, app = t.app) {
  const res = await app.inject({
    method: "POST",
    url: "/api/orders",
    payload: { name: p.name, email: p.email, whatsapp: p.whatsapp, duration: "free-trial", formType: "free-trial" },
    remoteAddress: p.ip,
    headers: { origin: PUBLIC_URL },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { trialId: string; sentTo: string; waLink?: string | null };
}

/** The code in a wa.me link's text. */
function codeIn(waLink: string): string {
  const text = new URL(waLink).searchParams.get("text") ?? "";
  const code = text.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no code in ${waLink}`);
  return code;
}

function webhookBody(from: string, text: string): string {
  return JSON.stringify(
    webhookPayload({ contacts: [{ wa_id: from, profile: { name: "Visitor" } }], messages: [inboundMessage(from, text)] }),
  );
}
async function deliver(body: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/whatsapp/webhook",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const trialRow = async (id: string) => (await t.app.db.select().from(trials).where(eq(trials.id, id)))[0];
const trialPage = async (id: string) => (await t.app.inject({ method: "GET", url: `/api/trials/${id}` })).json();

describe("verify by writing to us: the free trial", () => {
  it("the order's answer carries a wa.me link to the shop's number whose text holds a code, beside the e-mailed code", async () => {
    const opened = await order(person());
    expect(opened.sentTo).toBe(`r***@example.co.za`);
    const business = await loadBusiness(t.app);
    expect(opened.waLink).toMatch(new RegExp(`^https://wa\\.me/${business.whatsappNumber.replace(/\D/g, "")}\\?text=`));
    expect(new URL(opened.waLink as string).searchParams.get("text")).toMatch(/^My .+ code: \d{6}$/);
  });

  it("the code written from the number being proved starts the trial: the client is made in trial, the trial row is started, and the page moves on", async () => {
    const p = person();
    const opened = await order(p);
    expect((await trialPage(opened.trialId)).state).toBe("awaiting-code");
    await deliver(webhookBody(p.stored, `My StreamDesk code: ${codeIn(opened.waLink as string)}`));
    const trial = await trialRow(opened.trialId);
    expect(trial.started_at).not.toBeNull();
    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, trial.client_id as string));
    expect(client).toMatchObject({ status: "trial", whatsapp: p.stored, email: p.email });
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, trial.lead_id));
    expect(lead).toMatchObject({ status: "converted", client_id: client.id });
    expect((await trialPage(opened.trialId)).state).not.toBe("awaiting-code");
  });

  it("a trial asked for with a client's number carries a link like anyone's, and the client writing its code to us starts nothing: no trial, no second account", async () => {
    const p = person();
    const [client] = await t.app.db
      .insert(clients)
      .values({ username: `reply-client${n}`, password_hash: "x", full_name: "Reply Client", whatsapp: p.stored, status: "active" })
      .returning();
    const opened = await order(p);
    const business = await loadBusiness(t.app);
    expect(opened.waLink).toMatch(new RegExp(`^https://wa\\.me/${business.whatsappNumber.replace(/\D/g, "")}\\?text=`));
    await deliver(webhookBody(p.stored, `My StreamDesk code: ${codeIn(opened.waLink as string)}`));
    expect((await trialRow(opened.trialId)).started_at).toBeNull();
    expect((await trialPage(opened.trialId)).state).toBe("awaiting-code");
    const withNumber = await t.app.db.select({ id: clients.id }).from(clients).where(eq(clients.whatsapp, p.stored));
    expect(withNumber).toEqual([{ id: client.id }]);
  });

  it("the browser that asked for the trial sees its login once the number writes the code to us; anyone else holding the id does not", async () => {
    const p = person();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: { name: p.name, email: p.email, whatsapp: p.whatsapp, duration: "free-trial", formType: "free-trial" },
      remoteAddress: p.ip,
      headers: { origin: PUBLIC_URL },
    });
    expect(res.statusCode, res.body).toBe(202);
    const opened = res.json() as { trialId: string; waLink: string };
    const cookie = String(res.headers["set-cookie"]).split(";")[0];
    expect(cookie.startsWith(`sd_trial=${opened.trialId}.`)).toBe(true);
    const asked = () => t.app.inject({ method: "GET", url: `/api/trials/${opened.trialId}`, headers: { cookie } });
    expect((await asked()).json()).toMatchObject({ state: "awaiting-code", line: null });

    await deliver(webhookBody(p.stored, `My StreamDesk code: ${codeIn(opened.waLink)}`));
    await t.app.provisioning.drain();
    const trial = await trialRow(opened.trialId);
    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, trial.client_id as string));
    const mine = (await asked()).json();
    expect(mine).toMatchObject({ state: "ready", line: { username: client.line_username, password: client.line_password } });
    expect(client.line_password).toBeTruthy();
    const theirs = await trialPage(opened.trialId);
    expect(theirs).toMatchObject({ state: "ready", line: null });
  });

  it("a replayed webhook starts the trial once: one client, one create_line", async () => {
    const p = person();
    const opened = await order(p);
    const body = webhookBody(p.stored, codeIn(opened.waLink as string));
    await deliver(body);
    await deliver(body);
    const trial = await trialRow(opened.trialId);
    expect(await t.app.db.select().from(clients).where(eq(clients.whatsapp, p.stored))).toHaveLength(1);
    const jobs = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(and(eq(provisioningJobs.client_id, trial.client_id as string), eq(provisioningJobs.action, "create_line")));
    expect(jobs).toHaveLength(1);
  });

  it("the same code written from another number proves nothing, and the right number can still write it", async () => {
    const p = person();
    const stranger = person();
    const opened = await order(p);
    const code = codeIn(opened.waLink as string);
    await deliver(webhookBody(stranger.stored, `My StreamDesk code: ${code}`));
    expect((await trialRow(opened.trialId)).started_at).toBeNull();
    expect(await t.app.db.select().from(clients).where(eq(clients.whatsapp, p.stored))).toEqual([]);
    await deliver(webhookBody(p.stored, code));
    expect((await trialRow(opened.trialId)).started_at).not.toBeNull();
  });

  it("a wrong code in the message proves nothing and the visitor can try again", async () => {
    const p = person();
    const opened = await order(p);
    const code = codeIn(opened.waLink as string);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 6; i++) await deliver(webhookBody(p.stored, `My StreamDesk code: ${wrong}`));
    expect((await trialRow(opened.trialId)).started_at).toBeNull();
    await deliver(webhookBody(p.stored, `My StreamDesk code: ${code}`));
    expect((await trialRow(opened.trialId)).started_at).not.toBeNull();
  });

  it(`an expired code (older than ${CODE_MINUTES} minutes) proves nothing`, async () => {
    const p = person();
    const opened = await order(p);
    const trial = await trialRow(opened.trialId);
    await t.app.db
      .update(verificationCodes)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(verificationCodes.lead_id, trial.lead_id), eq(verificationCodes.purpose, "reply:trial")));
    await deliver(webhookBody(p.stored, codeIn(opened.waLink as string)));
    expect((await trialRow(opened.trialId)).started_at).toBeNull();
    expect((await trialPage(opened.trialId)).state).toBe("awaiting-code");
  });

  it("the reply code is kept hashed, bound to the number being proved", async () => {
    const p = person();
    const opened = await order(p);
    const trial = await trialRow(opened.trialId);
    const [row] = await t.app.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.lead_id, trial.lead_id), eq(verificationCodes.purpose, "reply:trial")));
    expect(row.recipient).toBe(p.stored);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(codeIn(opened.waLink as string));
  });

  it("a new code from 'Send a new code' carries a new link and voids the old reply code", async () => {
    const p = person();
    const opened = await order(p);
    const res = await t.app.inject({ method: "POST", url: `/api/trials/${opened.trialId}/resend`, remoteAddress: p.ip });
    expect(res.statusCode, res.body).toBe(202);
    const again = res.json() as { waLink: string };
    expect(again.waLink).toMatch(/^https:\/\/wa\.me\//);
    const oldCode = codeIn(opened.waLink as string);
    if (oldCode !== codeIn(again.waLink)) {
      await deliver(webhookBody(p.stored, oldCode));
      expect((await trialRow(opened.trialId)).started_at).toBeNull();
    }
    await deliver(webhookBody(p.stored, codeIn(again.waLink)));
    expect((await trialRow(opened.trialId)).started_at).not.toBeNull();
  });
});

describe("waLink only when the webhook is set up", () => {
  it("without the app secret (no signed webhook, so nothing written to us would arrive) the answer has no waLink", async () => {
    const bare = await createMessagingTestApp({
      whatsapp: { token: "EAAG-reply-test-2", phoneNumberId: "109800000043" },
      config: { PUBLIC_URL, LOG_LEVEL: "error" },
      build: { seed: true },
    });
    try {
      const admin = await signInAdmin(bare.app);
      await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: TRIAL_SETTINGS.mode, value: "instant" } });
      await eventually(async () => expect((await loadBusiness(bare.app)).settings[TRIAL_SETTINGS.mode]).toBe("instant"));
      const opened = await order(person(), bare.app);
      expect(opened.waLink ?? null).toBeNull();
    } finally {
      await bare.close();
    }
  });
});
