// Sub-resellers (issue 45 items 1, 2 and 6), the API against the fake reseller panel, on PGlite
// and (with TEST_DATABASE_URL) PostgreSQL: a partner is made on the panel once — also when the
// create's answer is lost —, credits move once under replay and under two requests with one key,
// a transfer that would take either side below 0 is refused with nothing moved, a partner reaches
// only their own, and a suspension stops their sign-in while their lines keep running.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import { auditLog, outbox, resellerCreditTransfers, resellers, siteSettings } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { randomIp } from "@/server/modules/admin-auth/test-helpers";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { MEMBER_GROUP_SETTING } from "./service";

const PUBLIC_URL = "http://localhost:8080";
const PARTNER_PASSWORD = "Partner-pass-42";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel({ existing: { m3u: 0, mag: 0, enigma2: 0 }, credits: 100 });
  fake.hangMs = 1_000;
  t = await createTestApp(
    {
      PUBLIC_URL,
      PANEL_API_URL: fake.url,
      PANEL_API_KEY: fake.apiKey,
      PANEL_TIMEOUT_MS: 500,
      LOGIN_LIMIT_PER_MIN: 10_000,
      PUBLIC_WRITE_LIMIT_PER_MIN: 10_000,
    },
    { seed: false },
  );
  await t.app.db.insert(siteSettings).values({ key: MEMBER_GROUP_SETTING, value: "4", is_active: false });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.calls.length = 0;
  fake.credits = 100;
});

const add = (payload: Record<string, unknown>, key?: string) =>
  admin.call({ method: "POST", url: "/api/admin/resellers", payload, headers: key ? { "idempotency-key": key } : {} });
const give = (id: string, credits: number, key: string, note = "") =>
  admin.call({
    method: "POST",
    url: `/api/admin/resellers/${id}/credits`,
    payload: { credits, note },
    headers: { "idempotency-key": key },
  });

/** A partner added through the API, their password chosen through their link, signed in. */
async function partner(name = `Partner ${++n}`) {
  const res = await add({ name, email: `p${n}-${Date.now()}@example.co.za`, whatsapp: "" }, `add-${name}`);
  expect(res.statusCode, res.body).toBe(201);
  const { id, username } = res.json() as { id: string; username: string };
  const [invite] = await t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "partner-invite"), eq(outbox.dedupe_key, `partner-invite:${id}`)));
  const link = await open(t.app.db, invite.secret_enc ?? "");
  const token = new URL(link).searchParams.get("token");
  const set = await t.app.inject({
    method: "POST",
    url: "/api/partner/password",
    headers: { origin: PUBLIC_URL },
    payload: { token, password: PARTNER_PASSWORD },
  });
  expect(set.statusCode, set.body).toBe(200);
  return { id, username, cookie: await login(username) };
}

async function login(username: string, password = PARTNER_PASSWORD) {
  const res = await loginRes(username, password);
  expect(res.statusCode, res.body).toBe(200);
  const line = ([res.headers["set-cookie"]].flat() as string[]).find((c) => c.startsWith(`${PARTNER_COOKIE}=`)) ?? "";
  return line.split(";")[0];
}
const loginRes = (username: string, password = PARTNER_PASSWORD) =>
  t.app.inject({
    method: "POST",
    url: "/api/partner/login",
    headers: { origin: PUBLIC_URL },
    payload: { username, password },
    remoteAddress: randomIp(),
  });
const asPartner = (cookie: string, method: "GET" | "POST", url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { origin: PUBLIC_URL, cookie }, ...(payload ? { payload } : {}) });

describe("adding a sub-reseller (item 1)", () => {
  it("makes the reseller on the panel once in the member group, sends the set-password link by e-mail and WhatsApp, and a replay of the request answers the same partner", async () => {
    const payload = { name: "Thabo Mokoena", email: "thabo@example.co.za", whatsapp: "082 555 0101" };
    const res = await add(payload, "add-thabo");
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json() as { id: string; username: string; panel_user_id: string };
    expect(made).toMatchObject({ username: "thabomokoena", panel_user_id: expect.any(String) });
    expect(fake.callsOf("create_user")).toHaveLength(1);
    expect(fake.callsOf("create_user")[0].form).toMatchObject({
      username: "thabomokoena",
      member_group_id: "4",
      email: "thabo@example.co.za",
    });

    const again = await add(payload, "add-thabo");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(made);
    expect(fake.callsOf("create_user")).toHaveLength(1);
    expect([...fake.users.values()].filter((u) => u.username === "thabomokoena")).toHaveLength(1);

    const invites = await t.app.db.select().from(outbox).where(eq(outbox.kind, "partner-invite"));
    const mine = invites.filter((row) => row.dedupe_key?.startsWith(`partner-invite:${made.id}`));
    expect(mine.map((row) => [row.channel, row.recipient]).sort()).toEqual([
      ["email", "thabo@example.co.za"],
      ["whatsapp", "27825550101"],
    ]);
    expect(await open(t.app.db, mine[0].secret_enc ?? "")).toMatch(/^http:\/\/localhost:8080\/partner\/set-password\?token=[\w-]{43}$/);
    const [row] = await t.app.db.select().from(resellers).where(eq(resellers.id, made.id));
    expect(row.panel_user_id).toBe(made.panel_user_id);
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, made.id));
    expect(audited.map((a) => a.action)).toContain("create");
  });

  it("makes the reseller once when the create's answer is lost after the panel made it: the username is looked up before anything is sent again", async () => {
    fake.loseAnswer("create_user", { when: "after", as: "5xx" });
    const res = await add({ name: "Lerato Naidoo", email: "lerato@example.co.za" });
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.callsOf("create_user")).toHaveLength(1);
    expect(fake.callsOf("get_users").length).toBeGreaterThan(0);
    expect([...fake.users.values()].filter((u) => u.username === "leratonaidoo")).toHaveLength(1);
    expect((res.json() as { panel_user_id: string }).panel_user_id).toBe(
      [...fake.users.values()].find((u) => u.username === "leratonaidoo")?.id,
    );
  });

  it("makes the reseller once when a create timed out before the panel did it: looked up, not there, sent again", async () => {
    fake.loseAnswer("create_user", { when: "before", as: "timeout" });
    const res = await add({ name: "Sipho Dlamini", email: "sipho@example.co.za" });
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.callsOf("create_user")).toHaveLength(2);
    expect([...fake.users.values()].filter((u) => u.username === "siphodlamini")).toHaveLength(1);
  });

  it("two requests adding the same partner at once (same Idempotency-Key) make one account on the panel", async () => {
    fake.delayMs = 100;
    try {
      const payload = { name: "Pieter Botha", email: "pieter@example.co.za" };
      const [a, b] = await Promise.all([add(payload, "add-pieter"), add(payload, "add-pieter")]);
      expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([200, 201]);
      expect(a.json()).toEqual(b.json());
    } finally {
      fake.delayMs = 0;
    }
    expect([...fake.users.values()].filter((u) => u.username === "pieterbotha")).toHaveLength(1);
    expect(await t.app.db.select().from(resellers).where(eq(resellers.username, "pieterbotha"))).toHaveLength(1);
    const invites = await t.app.db.select().from(outbox).where(eq(outbox.kind, "partner-invite"));
    const [row] = await t.app.db.select().from(resellers).where(eq(resellers.username, "pieterbotha"));
    expect(invites.filter((i) => i.dedupe_key === `partner-invite:${row.id}`)).toHaveLength(1);
  });

  it("a username the panel already has is a 409 asking for another, nothing kept; another username works", async () => {
    fake.users.set("9001", {
      id: "9001",
      username: "naledi",
      password: "x",
      email: "other@example.co.za",
      member_group_id: "4",
      notes: "made on the panel by hand",
      credits: 0,
      status: 1,
    });
    const taken = await add({ name: "Naledi Khumalo", email: "naledi@example.co.za", username: "naledi" });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().error).toMatchObject({ code: "username_taken", fields: { username: expect.any(String) } });
    expect(taken.json().error.message).toContain("choose another username");
    expect(await t.app.db.select().from(resellers).where(eq(resellers.username, "naledi"))).toHaveLength(0);

    const other = await add({ name: "Naledi Khumalo", email: "naledi@example.co.za", username: "naledi.k" });
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json()).toMatchObject({ username: "naledi.k" });
  });

  it("lists each partner with their credits read from the panel", async () => {
    const p = await partner();
    expect((await give(p.id, 7, `list-${p.id}`)).statusCode).toBe(201);
    const res = await admin.call({ method: "GET", url: "/api/admin/resellers" });
    expect(res.statusCode).toBe(200);
    const row = (res.json() as { data: { id: string; credits: number; password_set: boolean; last_purchase_at: string }[] }).data.find(
      (r) => r.id === p.id,
    );
    expect(row).toMatchObject({ credits: 7, password_set: true, last_purchase_at: expect.any(String) });
    expect(res.json().owner_credits).toBe(93);
  });
});

describe("credits moved exactly once (item 2)", () => {
  it("the same Idempotency-Key sent again is one transfer: one adjust_credits, one ledger row with the balances read from the panel, audited", async () => {
    const p = await partner();
    const first = await give(p.id, 5, "give-once", "first order");
    expect(first.statusCode, first.body).toBe(201);
    const replay = await give(p.id, 5, "give-once", "first order");
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data).toEqual(first.json().data);
    expect(fake.callsOf("adjust_credits")).toHaveLength(1);
    expect(fake.users.get((await row(p.id)).panel_user_id ?? "")?.credits).toBe(5);
    expect(fake.credits).toBe(95);

    const ledger = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      credits: 5,
      note: "first order",
      cause: "owner-give",
      actor: admin.email,
      status: "done",
      partner_before: 0,
      partner_after: 5,
      owner_before: 100,
      owner_after: 95,
    });
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, p.id));
    expect(audited.map((a) => a.action)).toContain("credits-done");
  });

  it("two requests with the same key at once move the credits once", async () => {
    const p = await partner();
    // On PostgreSQL the two claims really race on the ledger's unique request_key; on PGlite the
    // database answers one statement at a time, so the two claims are made one after another.
    fake.delayMs = 100;
    try {
      const [a, b] = await Promise.all([give(p.id, 4, "give-race"), give(p.id, 4, "give-race")]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
      expect(a.json().data.id).toBe(b.json().data.id);
    } finally {
      fake.delayMs = 0;
    }
    expect(fake.callsOf("adjust_credits")).toHaveLength(1);
    expect(fake.credits).toBe(96);
    const ledger = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(ledger.map((r) => [r.credits, r.status])).toEqual([[4, "done"]]);
  });

  it(`four requests with the same key at once, the panel answering at once (${onPostgres() ? "a real race on PostgreSQL" : "on PGlite the claims run one after another"}): one transfer`, async () => {
    const p = await partner();
    const answers = await Promise.all(Array.from({ length: 4 }, () => give(p.id, 2, "give-race-4")));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 201]);
    const panelId = (await row(p.id)).panel_user_id;
    expect(fake.creditLogs.filter((l) => l.user_id === panelId)).toHaveLength(1);
    expect(fake.users.get(panelId ?? "")?.credits).toBe(2);
  });

  it("a claim left pending by a process that stopped mid-call is not sent again: the same key answers 'unknown' for the owner to check", async () => {
    const p = await partner();
    await t.app.db.insert(resellerCreditTransfers).values({
      reseller_id: p.id,
      request_key: `${p.id}:give-orphan`,
      credits: 3,
      cause: "owner-give",
      actor: admin.email,
      partner_before: 0,
      created_at: new Date(Date.now() - 5 * 60_000),
    });
    const res = await give(p.id, 3, "give-orphan");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe("transfer_unknown");
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    const [saved] = await t.app.db
      .select()
      .from(resellerCreditTransfers)
      .where(eq(resellerCreditTransfers.request_key, `${p.id}:give-orphan`));
    expect(saved.status).toBe("unknown");
  });

  it("giving more than the owner has is a 409 with the owner's balance, and nothing moves", async () => {
    const p = await partner();
    fake.credits = 3;
    const res = await give(p.id, 5, "give-too-much");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({ code: "insufficient_credits", fields: { balance: "3" } });
    expect(res.json().error.message).toContain("You have 3 credits");
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    expect(fake.credits).toBe(3);
    const [saved] = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(saved).toMatchObject({ status: "refused", owner_before: 3, partner_after: null });
  });

  it("taking back more than the partner has is a 409 with the partner's balance, and nothing moves", async () => {
    const p = await partner();
    expect((await give(p.id, 2, "give-two")).statusCode).toBe(201);
    fake.calls.length = 0;
    const res = await give(p.id, -5, "take-too-much");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({ code: "insufficient_credits", fields: { balance: "2" } });
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    expect(fake.users.get((await row(p.id)).panel_user_id ?? "")?.credits).toBe(2);
    expect(fake.credits).toBe(98);
  });

  it("the panel refusing below 0 (its balance changed after ours was read) is the same 409, the row refused, nothing moved", async () => {
    const p = await partner();
    fake.failNext({ status: "STATUS_INSUFFICIENT_CREDITS" }, 1, "adjust_credits");
    const res = await give(p.id, 1, "panel-refuses");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe("insufficient_credits");
    expect(fake.credits).toBe(100);
    expect(fake.creditLogs.filter((l) => l.user_id === (fake.callsOf("adjust_credits")[0]?.form.id ?? "none"))).toHaveLength(0);
    const [saved] = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(saved.status).toBe("refused");
  });
});

describe("partner sessions (item 6)", () => {
  it("a partner signs in with their own cookie, sees their name and credits, and signs out", async () => {
    const p = await partner("Anika Botha");
    expect((await give(p.id, 2, `me-${p.id}`)).statusCode).toBe(201);
    const me = await asPartner(p.cookie, "GET", "/api/partner/me");
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ name: "Anika Botha", username: p.username, credits: 2, low_credits: true });
    const out = await asPartner(p.cookie, "POST", "/api/partner/logout");
    expect(out.statusCode).toBe(200);
    expect((await asPartner(p.cookie, "GET", "/api/partner/me")).statusCode).toBe(401);
  });

  it("a partner's session reaches nothing of the owner's: every /api/admin route tried is 401", async () => {
    const p = await partner();
    for (const [method, url] of [
      ["GET", "/api/admin/resellers"],
      ["POST", `/api/admin/resellers/${p.id}/credits`],
      ["POST", "/api/admin/resellers"],
      ["GET", "/api/admin/clients"],
    ] as const) {
      const res = await asPartner(
        p.cookie,
        method,
        url,
        method === "POST" ? { credits: 50, name: "Mine", email: "m@example.co.za" } : undefined,
      );
      expect([401, 403], `${method} ${url} → ${res.statusCode}`).toContain(res.statusCode);
    }
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    // nor is an admin session a partner's
    expect((await admin.call({ method: "GET", url: "/api/partner/me" })).statusCode).toBe(401);
  });

  it("a partner's ledger holds only their own transfers, never another partner's", async () => {
    const a = await partner();
    const b = await partner();
    expect((await give(b.id, 3, `b-${b.id}`, "for B only")).statusCode).toBe(201);
    const res = await asPartner(a.cookie, "GET", "/api/partner/ledger");
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("for B only");
    expect((res.json() as { data: unknown[] }).data).toHaveLength(0);
  });

  it("suspending a partner stops their sign-in at once (session and new logins) while their lines keep running; restoring lets them back", async () => {
    const p = await partner();
    const suspended = await admin.call({ method: "POST", url: `/api/admin/resellers/${p.id}/suspend` });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await asPartner(p.cookie, "GET", "/api/partner/me")).statusCode).toBe(401);
    const refused = await loginRes(p.username);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("suspended");
    // nothing is switched off on the panel
    expect(fake.calls.filter((c) => c.action.startsWith("disable_"))).toHaveLength(0);
    const [saved] = await t.app.db.select().from(resellers).where(eq(resellers.id, p.id));
    expect(saved.status).toBe("suspended");

    expect((await admin.call({ method: "POST", url: `/api/admin/resellers/${p.id}/restore` })).statusCode).toBe(200);
    const cookie = await login(p.username);
    expect((await asPartner(cookie, "GET", "/api/partner/me")).statusCode).toBe(200);
  });

  it("every partner action is audited under their name", async () => {
    const p = await partner();
    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, p.id));
    expect(rows.filter((r) => r.admin_email === `partner:${p.username}`).map((r) => r.action)).toEqual(
      expect.arrayContaining(["set-password", "login"]),
    );
  });
});

async function row(id: string) {
  const [found] = await t.app.db.select().from(resellers).where(eq(resellers.id, id));
  return found;
}
