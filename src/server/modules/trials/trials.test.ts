// Instant free trials (issue 27) against the fake Xtream-family panel: the storefront's free-trial
// order answers 202 with a code sent where it arrives now (here, with no Cloud API: the e-mail
// address the customer gave; codes-delivery.test.ts has WhatsApp); the right code makes the client
// in 'trial' and queues exactly one create_line with trial=1 on the trial package (also when the
// code is sent twice at once); a wrong or expired code creates nothing; the result screen shows
// the line to the browser that entered the code; each limit refuses in its own words and is
// counted for the owner; approve mode keeps today's flow.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { clients, leads, outbox, provisioningJobs, siteSettings, trialRefusals, trials, verificationCodes } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { PER_REQUESTER_PER_HOUR, TOO_MANY_CODES_MESSAGE } from "@/server/lib/verification";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { codeSentTo } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { eventually } from "@/server/testing";
import { VERIFICATION_CODE_MESSAGES } from "@/shared/schemas";
import { TRIAL_SETTINGS } from "@/shared/trial-schemas";
import { TRIAL_AGAIN_KIND } from "./again";
import { TRIAL_LIMIT_MESSAGES } from "./limits";
import { RETURNING_CLIENT_KIND, TRIAL_MESSAGES } from "./service";

const PUBLIC_URL = "http://localhost:8080";
let t: MessagingTestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createMessagingTestApp({
    config: {
      PUBLIC_URL,
      PANEL_API_URL: fake.url,
      PANEL_API_KEY: fake.apiKey,
      PANEL_STREAM_URL: "http://stream.example.net:8080",
      PANEL_TIMEOUT_MS: 500,
    },
    build: { seed: true },
  });
  admin = await signInAdmin(t.app);
  // The trial package is mapped on a connected panel: the default mode is instant.
  await t.app.db.insert(siteSettings).values({ key: TRIAL_PACKAGE_SETTING, value: "9", is_active: false });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function setSetting(key: string, value: string) {
  const res = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key, value } });
  expect([200, 201], res.body).toContain(res.statusCode);
  // the cached settings follow through the change feed (asynchronous on PostgreSQL)
  await eventually(async () => expect((await loadBusiness(t.app)).settings[key] ?? "").toBe(value));
}

beforeEach(async () => {
  await setSetting(TRIAL_SETTINGS.mode, "");
  await setSetting(TRIAL_SETTINGS.perNetwork, "2");
  await setSetting(TRIAL_SETTINGS.dailyCap, "50");
});

/** A new person on a network of their own (unless one is given). */
function person(overrides: Record<string, string> = {}) {
  n += 1;
  const digits = String(5_000_000 + n).padStart(7, "0");
  return {
    name: `Trial Person ${n}`,
    email: `trial.${n}@example.co.za`,
    whatsapp: `082 ${digits.slice(0, 3)} ${digits.slice(3)}`,
    stored: `2782${digits}`,
    ip: `10.${20 + Math.floor(n / 200)}.${n % 200}.7`,
    ...overrides,
  };
}
type Person = ReturnType<typeof person>;

const order = (p: Person, key?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: { name: p.name, email: p.email, whatsapp: p.whatsapp, duration: "free-trial", formType: "free-trial" },
    remoteAddress: p.ip,
    headers: { origin: PUBLIC_URL, ...(key ? { "idempotency-key": key } : {}) },
  });
const verify = (trialId: string, code: string, ip = "10.99.0.1") =>
  t.app.inject({
    method: "POST",
    url: `/api/trials/${trialId}/verify`,
    payload: { code },
    remoteAddress: ip,
    headers: { origin: PUBLIC_URL },
  });
const view = (trialId: string, cookie?: string) =>
  t.app.inject({ method: "GET", url: `/api/trials/${trialId}`, ...(cookie ? { headers: { cookie } } : {}) });

async function ordered(p: Person) {
  const res = await order(p);
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { success: true; id: string; trialId: string; sentTo: string };
}
const jobsOf = (clientId: string) => t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId));
const clientsOf = (p: Person) => t.app.db.select().from(clients).where(eq(clients.whatsapp, p.stored));
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("an instant free trial", () => {
  it("answers the order with 202 {trialId, sentTo} and, with no WhatsApp Cloud API, e-mails the code to the address they gave; nothing is made yet", async () => {
    const p = person();
    const answer = await ordered(p);
    expect(answer.sentTo).toBe(`${p.email.slice(0, 1)}***@example.co.za`);
    const code = await codeSentTo(t.app, p.email);
    expect(code).toMatch(/^\d{6}$/);
    // it reached their mailbox (the SMTP sink), not a queue
    await eventually(() =>
      expect(t.mails.filter((m) => m.to.includes(p.email)).map((m) => m.text)).toEqual([expect.stringContaining(code)]),
    );
    // the owner still sees the request; the customer's only message is the code, not "we'll be in touch"
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, answer.id));
    expect(lead).toMatchObject({ form_type: "free-trial", status: "new" });
    const toCustomer = await t.app.db
      .select({ kind: outbox.kind, channel: outbox.channel, status: outbox.status })
      .from(outbox)
      .where(inArray(outbox.recipient, [p.email, p.stored]));
    expect(toCustomer).toEqual([{ kind: "verification-code", channel: "email", status: "sent" }]);
    const screen = await view(answer.trialId);
    expect(screen.json()).toMatchObject({ state: "awaiting-code", line: null, sentTo: answer.sentTo });
    expect(await clientsOf(p)).toHaveLength(0);
  });

  it("the right code makes the client in trial and exactly one trial create_line, even when sent twice at once; the line shows to that browser", async () => {
    const p = person();
    const { trialId, id: leadId } = await ordered(p);
    const code = await codeSentTo(t.app, p.email);
    const [a, b] = await Promise.all([verify(trialId, code), verify(trialId, code)]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(201);
    expect([400, 409]).toContain(statuses[1]);
    const won = a.statusCode === 201 ? a : b;
    expect(won.json()).toMatchObject({ id: trialId, state: "provisioning" });

    const [client] = await clientsOf(p);
    expect(client.status).toBe("trial");
    expect(client.subscription_end).not.toBeNull();
    const jobs = await jobsOf(client.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ action: "create_line", trial: true, cause_key: `trial:${leadId}:create_line` });
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, leadId));
    expect(lead).toMatchObject({ status: "converted", client_id: client.id });
    // the welcome with a link to choose a portal password
    const welcome = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.kind, "welcome")));
    expect(welcome.length).toBeGreaterThan(0);

    await t.app.provisioning.drain();
    const creates = fake.callsOf("create_line").filter((c) => c.form.trial === "1");
    expect(creates).toHaveLength(1);
    expect(creates[0].form.package).toBe("9");

    const cookie = String(won.headers["set-cookie"]).split(";")[0];
    const mine = (await view(trialId, cookie)).json();
    expect(mine).toMatchObject({ state: "ready", line: { server_url: "http://stream.example.net:8080" } });
    const [lined] = await clientsOf(p);
    expect(mine.line).toMatchObject({ username: lined.line_username, password: lined.line_password });
    expect(mine.line.m3u_url).toContain(`username=${encodeURIComponent(lined.line_username)}`);
    // anyone else holding the id sees that it is ready, not the login
    const theirs = (await view(trialId)).json();
    expect(theirs).toMatchObject({ state: "ready", line: null, message: TRIAL_MESSAGES.readyElsewhere });

    // a later verify is a 409 that says so; still one line
    const again = await verify(trialId, code);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(TRIAL_MESSAGES.started);
    await t.app.provisioning.drain();
    expect(fake.callsOf("create_line").filter((c) => c.form.trial === "1")).toHaveLength(1);
  });

  it("a wrong code, a code for another trial or an expired code creates nothing (400 with the reason)", async () => {
    const p = person();
    const q = person();
    const mine = await ordered(p);
    const other = await ordered(q);
    const code = await codeSentTo(t.app, p.email);
    const otherCode = await codeSentTo(t.app, q.email);

    const bad = await verify(mine.trialId, wrong(code));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.code).toBe(`${VERIFICATION_CODE_MESSAGES.wrong} 4 tries left.`);
    if (otherCode !== code) {
      const crossed = await verify(mine.trialId, otherCode);
      expect(crossed.statusCode).toBe(400);
    }
    const malformed = await verify(mine.trialId, "12ab");
    expect(malformed.statusCode).toBe(400);

    await t.app.db
      .update(verificationCodes)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.lead_id, mine.id));
    const expired = await verify(mine.trialId, code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.fields.code).toBe(VERIFICATION_CODE_MESSAGES.expired);

    expect(await clientsOf(p)).toHaveLength(0);
    const [trial] = await t.app.db.select().from(trials).where(eq(trials.id, mine.trialId));
    expect(trial.started_at).toBeNull();
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, mine.id));
    expect(lead.status).toBe("new");

    // a new code works (and the other trial's own code still does for it)
    const resent = await t.app.inject({
      method: "POST",
      url: `/api/trials/${mine.trialId}/resend`,
      remoteAddress: p.ip,
      headers: { origin: PUBLIC_URL },
    });
    expect(resent.statusCode).toBe(202);
    expect((await verify(mine.trialId, await codeSentTo(t.app, p.email))).statusCode).toBe(201);
    expect((await verify(other.trialId, otherCode)).statusCode).toBe(201);
  });

  it("an unknown trial id is a 404, a malformed one a 400", async () => {
    expect((await verify("00000000-0000-4000-8000-000000000000", "123456")).statusCode).toBe(404);
    expect((await view("00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await view("not-an-id")).statusCode).toBe(400);
  });

  it("a retried order (same Idempotency-Key) answers the same trial without another code", async () => {
    const p = person();
    const key = `retry-${n}`;
    const first = await order(p, key);
    const second = await order(p, key);
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.json().trialId).toBe(first.json().trialId);
    const codes = await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.lead_id, first.json().id));
    expect(codes).toHaveLength(1);
  });
});

describe("the limits", () => {
  it("refuses a throwaway e-mail address (400 on email), counted for the owner; off when the owner says so", async () => {
    const before = await t.app.db.select().from(trialRefusals).where(eq(trialRefusals.reason, "disposable-email"));
    const res = await order(person({ email: "someone@mailinator.com" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.email).toBe(TRIAL_LIMIT_MESSAGES["disposable-email"]);
    expect(await t.app.db.select().from(trialRefusals).where(eq(trialRefusals.reason, "disposable-email"))).toHaveLength(before.length + 1);
    expect((await order(person({ email: "someone@sub.yopmail.com" }))).statusCode).toBe(400);
    await setSetting(TRIAL_SETTINGS.disposable, "off");
    expect((await order(person({ email: "another@mailinator.com" }))).statusCode).toBe(202);
    await setSetting(TRIAL_SETTINGS.disposable, "on");
  });

  /** Asks for a trial from `ip` and enters its code: a trial started. */
  async function startedFrom(ip: string) {
    const p = person({ ip });
    const { trialId } = await ordered(p);
    expect((await verify(trialId, await codeSentTo(t.app, p.email))).statusCode).toBe(201);
  }

  it("allows 2 started trials a day from one /24 (IPv4) or /48 (IPv6), then refuses (409), per the setting", async () => {
    await startedFrom("198.51.100.10");
    await startedFrom("198.51.100.200");
    const third = await order(person({ ip: "198.51.100.99" }));
    expect(third.statusCode).toBe(409);
    // on the field that decides it (the free-trial choice), so a phone shows it there, not only in a toast
    expect(third.json().error).toMatchObject({
      code: "trial_limit",
      message: TRIAL_LIMIT_MESSAGES.network,
      fields: { duration: TRIAL_LIMIT_MESSAGES.network },
    });
    expect((await order(person({ ip: "198.51.101.99" }))).statusCode).toBe(202);

    await startedFrom("2001:db8:aaaa:1::5");
    await startedFrom("2001:db8:aaaa:ffff::9");
    expect((await order(person({ ip: "2001:db8:aaaa:2::1" }))).statusCode).toBe(409);
    expect((await order(person({ ip: "2001:db8:aaab::1" }))).statusCode).toBe(202);

    await setSetting(TRIAL_SETTINGS.perNetwork, "3");
    expect((await order(person({ ip: "198.51.100.42" }))).statusCode).toBe(202);
  });

  it("counts trials started, not codes asked for: requests whose code was never entered leave the network's allowance whole", async () => {
    for (const ip of ["198.51.102.1", "198.51.102.2", "198.51.102.3"]) expect((await order(person({ ip }))).statusCode).toBe(202);
    // three requests, none started: both of today's trials are still there to start
    await startedFrom("198.51.102.4");
    await startedFrom("198.51.102.5");
    expect((await order(person({ ip: "198.51.102.6" }))).statusCode).toBe(409);
  });

  it("limits the codes asked for from one network an hour on their own (429), before anything is saved", async () => {
    const net = "198.51.103";
    const asked = [];
    for (let i = 1; i <= PER_REQUESTER_PER_HOUR; i++) asked.push((await order(person({ ip: `${net}.${i}` }))).statusCode);
    expect(asked.every((s) => s === 202)).toBe(true);
    const leadsBefore = (await t.app.db.select().from(leads)).length;
    const late = person({ ip: `${net}.200` });
    const over = await order(late);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({ message: TOO_MANY_CODES_MESSAGE, fields: { email: TOO_MANY_CODES_MESSAGE } });
    // nothing saved: the number and address keep their one trial for when they ask again
    expect((await t.app.db.select().from(leads)).length).toBe(leadsBefore);
    expect((await order({ ...late, ip: "198.51.104.1" })).statusCode).toBe(202);
  });

  it("caps the trials started a day for the shop: orders are refused, and a verify after the cap is a 409 that creates nothing", async () => {
    const waiting = person();
    const { trialId } = await ordered(waiting);
    const code = await codeSentTo(t.app, waiting.email);
    const started = await t.app.db.select().from(trials);
    const startedToday = started.filter((r) => r.started_at).length;
    await setSetting(TRIAL_SETTINGS.dailyCap, String(Math.max(startedToday, 1)));
    if (startedToday === 0) {
      const first = person();
      const opened = await ordered(first);
      expect((await verify(opened.trialId, await codeSentTo(t.app, first.email))).statusCode).toBe(201);
    }
    const refused = await order(person());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(TRIAL_LIMIT_MESSAGES["daily-cap"]);

    const late = await verify(trialId, code);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(TRIAL_LIMIT_MESSAGES["daily-cap"]);
    expect(await clientsOf(waiting)).toHaveLength(0);
    // the code was not used up: once the cap allows, it works
    await setSetting(TRIAL_SETTINGS.dailyCap, "50");
    expect((await verify(trialId, code)).statusCode).toBe(201);
  });

  it("answers a client's number exactly as a stranger's (status and body, at every step), and tells the client privately instead of sending a code", async () => {
    const p = person();
    const [client] = await t.app.db
      .insert(clients)
      .values({
        username: `existing${n}`,
        password_hash: "x",
        full_name: "Existing Client",
        whatsapp: p.stored,
        email: `existing${n}@example.co.za`,
        status: "active",
      })
      .returning();
    const stranger = person();
    // both forms give an address that masks alike (t***@example.co.za): only the ids may differ
    const same = (body: string, ids: string[]) => ids.reduce((text, id) => text.replaceAll(id, "<id>"), body);

    const [asClient, asStranger] = [await order(p), await order(stranger)];
    expect(asClient.statusCode, asClient.body).toBe(202);
    expect(asStranger.statusCode, asStranger.body).toBe(202);
    const mine = asClient.json();
    const theirs = asStranger.json();
    expect(same(asClient.body, [mine.id, mine.trialId])).toBe(same(asStranger.body, [theirs.id, theirs.trialId]));
    expect(Boolean(asClient.headers["set-cookie"])).toBe(Boolean(asStranger.headers["set-cookie"]));

    // a wrong code, a resend and the result screen answer alike too
    const strangerCode = await codeSentTo(t.app, stranger.email);
    const [wrongMine, wrongTheirs] = [await verify(mine.trialId, wrong(strangerCode)), await verify(theirs.trialId, wrong(strangerCode))];
    expect(wrongMine.statusCode).toBe(400);
    expect([wrongMine.statusCode, wrongMine.body]).toEqual([wrongTheirs.statusCode, wrongTheirs.body]);
    const resend = (trialId: string) =>
      t.app.inject({ method: "POST", url: `/api/trials/${trialId}/resend`, remoteAddress: "10.98.0.1", headers: { origin: PUBLIC_URL } });
    const [againMine, againTheirs] = [await resend(mine.trialId), await resend(theirs.trialId)];
    expect(againMine.statusCode).toBe(202);
    expect([againMine.statusCode, same(againMine.body, [mine.trialId])]).toEqual([
      againTheirs.statusCode,
      same(againTheirs.body, [theirs.trialId]),
    ]);
    const [screenMine, screenTheirs] = [await view(mine.trialId), await view(theirs.trialId)];
    expect(same(screenMine.body, [mine.trialId])).toBe(same(screenTheirs.body, [theirs.trialId]));

    // the client's code was stored and counted like anyone's (the resend re-used it, live) but queued
    // nowhere; their own address was told, once however often it is asked
    const codes = await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.lead_id, mine.id));
    expect(codes.map((c) => [c.purpose, c.requester])).toEqual([["trial", expect.stringMatching(/^network:/)]]);
    const toClient = await t.app.db
      .select()
      .from(outbox)
      .where(inArray(outbox.recipient, [p.email, p.stored, client.email]));
    expect(toClient.map((m) => [m.kind, m.channel, m.recipient])).toEqual([[RETURNING_CLIENT_KIND, "email", client.email]]);
    expect(toClient[0].client_id).toBe(client.id);
    expect(toClient[0].body).toContain("You already have an account with us, so no trial was started and no code was sent.");
    expect(toClient[0].body).toContain(`${PUBLIC_URL}/client/login`);
    // nothing started for them: the one client with that number is the one they had
    expect((await clientsOf(p)).map((c) => c.id)).toEqual([client.id]);
    const [trial] = await t.app.db.select().from(trials).where(eq(trials.id, mine.trialId));
    expect(trial.started_at).toBeNull();
    // counted for the owner, never answered
    expect(await t.app.db.select().from(trialRefusals).where(eq(trialRefusals.reason, "returning-client"))).toHaveLength(1);
  });

  it("keeps one trial per number: asked again, answered as a stranger's at every step, never started, and the first trial's owner told", async () => {
    const p = person();
    // (not started: started, it would be a client's number, told about their account as above)
    await ordered(p);
    // someone else asks with that number (their own address, which masks alike), and a stranger asks
    const repeat = person({ whatsapp: p.whatsapp });
    const stranger = person();
    const same = (body: string, ids: string[]) => ids.reduce((text, id) => text.replaceAll(id, "<id>"), body);
    const [asRepeat, asStranger] = [await order(repeat), await order(stranger)];
    expect(asRepeat.statusCode, asRepeat.body).toBe(202);
    const mine = asRepeat.json();
    const theirs = asStranger.json();
    expect(same(asRepeat.body, [mine.id, mine.trialId])).toBe(same(asStranger.body, [theirs.id, theirs.trialId]));
    const strangerCode = await codeSentTo(t.app, stranger.email);
    const [wrongMine, wrongTheirs] = [
      await verify(mine.trialId, wrong(strangerCode), "10.96.1.1"),
      await verify(theirs.trialId, wrong(strangerCode), "10.96.2.1"),
    ];
    expect(wrongMine.statusCode).toBe(400);
    expect([wrongMine.statusCode, wrongMine.body]).toEqual([wrongTheirs.statusCode, wrongTheirs.body]);
    const [screenMine, screenTheirs] = [await view(mine.trialId), await view(theirs.trialId)];
    expect(same(screenMine.body, [mine.trialId])).toBe(same(screenTheirs.body, [theirs.trialId]));

    // no code went to the address typed the second time; the code stored cannot start it
    const codes = await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.lead_id, mine.id));
    expect(codes).toHaveLength(1);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, repeat.email))).toHaveLength(0);
    const [trial] = await t.app.db.select().from(trials).where(eq(trials.id, mine.trialId));
    expect(trial.started_at).toBeNull();
    // the first trial's own address is told; the owner's count has it
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, TRIAL_AGAIN_KIND), eq(outbox.recipient, p.email)));
    expect(told).toHaveLength(1);
    expect(told[0].body).toContain("yours was on");
    expect(await t.app.db.select().from(trialRefusals).where(eq(trialRefusals.reason, "already-had-trial"))).toHaveLength(1);
  });

  it("shows the owner what was asked, started and refused", async () => {
    const res = await admin.call({ method: "GET", url: "/api/admin/trials/summary" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.mode).toBe("instant");
    expect(body.today.started).toBeGreaterThan(0);
    expect(body.today.refused).toMatchObject({ network: 3, "disposable-email": 2, "daily-cap": 2, "returning-client": 1 });
    expect((await t.app.inject({ method: "GET", url: "/api/admin/trials/summary" })).statusCode).toBe(401);
  });
});

describe("approve mode", () => {
  it("keeps today's flow: the order is a lead (201 with the WhatsApp link), no code, no trial, no client", async () => {
    await setSetting(TRIAL_SETTINGS.mode, "approve");
    const p = person();
    const res = await order(p);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, whatsappUrl: expect.stringContaining("wa.me") });
    expect(await t.app.db.select().from(trials).where(eq(trials.lead_id, res.json().id))).toHaveLength(0);
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.lead_id, res.json().id))).toHaveLength(0);
    expect(await clientsOf(p)).toHaveLength(0);
    // and a throwaway address is the owner's call in approve mode
    expect((await order(person({ email: "x@mailinator.com" }))).statusCode).toBe(201);
  });
});
