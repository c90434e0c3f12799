import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "@/server/app";
import { testConfig } from "@/server/config";
import { admins, clients, sessions } from "@/server/db/schema";
import { openTestDatabase, type TestDatabase } from "@/server/testing";
import {
  ADMIN_COOKIE,
  CLIENT_COOKIE,
  clearSessionCookie,
  createSession,
  deleteSession,
  deleteSessionsFor,
  findSession,
  isSessionLive,
  purgeExpired,
  readAdminSession,
  readClientSession,
  SLIDE_AFTER_MS,
  setSessionCookie,
} from "./sessions";

const HOUR = 60 * 60 * 1000;
let t: { app: App; database: TestDatabase };
let adminId: string;
let clientId: string;

beforeAll(async () => {
  // Built by hand (not createTestApp) so test routes can be added before ready().
  const database = await openTestDatabase();
  t = { app: await buildApp(testConfig(), { database, seed: false }), database };
  const [admin] = await t.app.db.insert(admins).values({ email: "owner@example.test", password_hash: "x" }).returning();
  const [client] = await t.app.db.insert(clients).values({ username: "thabo", password_hash: "x", full_name: "Thabo M" }).returning();
  adminId = admin.id;
  clientId = client.id;

  // Routes that exercise the Fastify helpers the way guards and login routes will.
  t.app.get("/t/admin", async (request, reply) => ({ session: await readAdminSession(t.app, request, reply) }));
  t.app.get("/t/client", async (request) => ({ session: await readClientSession(t.app, request) }));
  t.app.post<{ Body: { token: string; expiresAt: string; secure: boolean } }>("/t/login", async (request, reply) => {
    setSessionCookie(reply, "client", request.body.token, new Date(request.body.expiresAt), request.body.secure);
    return { ok: true };
  });
  t.app.post("/t/logout", async (_request, reply) => {
    clearSessionCookie(reply, "admin");
    return { ok: true };
  });
  await t.app.ready();
});

afterAll(async () => {
  await t?.app.close();
  await t?.database.close();
});

describe("session store", () => {
  it("creates a session whose token is stored only as a hash, and finds it by token", async () => {
    const now = new Date("2030-01-01T10:00:00Z");
    const { token, expiresAt } = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 12 }, now);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(expiresAt.toISOString()).toBe("2030-01-01T22:00:00.000Z");

    const rows = await t.app.db.select().from(sessions).where(eq(sessions.admin_id, adminId));
    const row = rows.find((r) => r.expires_at.getTime() === expiresAt.getTime());
    expect(row).toBeDefined();
    expect(row?.token_hash).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const found = await findSession(t.app.db, token, "admin", { now: new Date(now.getTime() + 60_000) });
    expect(found).toMatchObject({ id: row?.id, kind: "admin", adminId, clientId: null });
    expect(found?.expiresAt.toISOString()).toBe(expiresAt.toISOString());
  });

  it("two sessions never share a token", async () => {
    const a = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 });
    const b = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 });
    expect(a.token).not.toBe(b.token);
  });

  it("answers null for a missing, malformed, expired or other-kind token", async () => {
    const now = new Date("2030-02-01T00:00:00Z");
    const { token } = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 2 }, now);
    const soon = new Date(now.getTime() + 60_000);
    expect(await findSession(t.app.db, token, "client", { now: soon })).toMatchObject({ clientId, adminId: null });
    expect(await findSession(t.app.db, token, "admin", { now: soon })).toBeNull();
    expect(await findSession(t.app.db, undefined, "client")).toBeNull();
    expect(await findSession(t.app.db, "not-a-token", "client")).toBeNull();
    expect(await findSession(t.app.db, "A".repeat(43), "client", { now: soon })).toBeNull();
    // A token differing in one character is another (unknown) token.
    const other = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(await findSession(t.app.db, other, "client", { now: soon })).toBeNull();
    // At and after the expiry instant the session is gone.
    expect(await findSession(t.app.db, token, "client", { now: new Date(now.getTime() + 2 * HOUR) })).toBeNull();
    expect(await findSession(t.app.db, token, "client", { now: new Date(now.getTime() + 3 * HOUR) })).toBeNull();
  });

  it("slides the expiry only when it was last extended more than 5 minutes ago", async () => {
    const start = new Date("2030-03-01T08:00:00Z");
    const { token, expiresAt } = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 12 }, start);
    const readRow = async () => (await t.app.db.select().from(sessions).where(eq(sessions.expires_at, expiresAt)))[0];
    const { id } = await readRow();
    const rowById = async () => (await t.app.db.select().from(sessions).where(eq(sessions.id, id)))[0];

    // Within five minutes: no write.
    const early = new Date(start.getTime() + SLIDE_AFTER_MS - 1000);
    const first = await findSession(t.app.db, token, "admin", { now: early });
    expect(first?.expiresAt.toISOString()).toBe(expiresAt.toISOString());
    expect((await rowById()).last_seen_at.toISOString()).toBe(start.toISOString());

    // Later: expires_at = now + ttl (the session's own 12 h window), last_seen_at = now.
    const later = new Date(start.getTime() + 3 * HOUR);
    const slid = await findSession(t.app.db, token, "admin", { now: later });
    expect(slid?.expiresAt.toISOString()).toBe(new Date(later.getTime() + 12 * HOUR).toISOString());
    const row = await rowById();
    expect(row.last_seen_at.toISOString()).toBe(later.toISOString());
    expect(row.expires_at.toISOString()).toBe(new Date(later.getTime() + 12 * HOUR).toISOString());

    // Past the original expiry, the slid session still lives.
    const pastOriginal = new Date(expiresAt.getTime() + HOUR);
    expect(await findSession(t.app.db, token, "admin", { now: pastOriginal })).not.toBeNull();

    // An explicit ttl (the configured SESSION_TTL_HOURS) wins over the stored window.
    const withTtl = new Date(pastOriginal.getTime() + SLIDE_AFTER_MS + 1000);
    const slidTtl = await findSession(t.app.db, token, "admin", { now: withTtl, ttlHours: 1 });
    expect(slidTtl?.expiresAt.toISOString()).toBe(new Date(withTtl.getTime() + HOUR).toISOString());
  });

  it("tells whether a session is live without sliding it", async () => {
    const start = new Date("2030-04-01T08:00:00Z");
    const { token } = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 1 }, start);
    const session = await findSession(t.app.db, token, "admin", { now: start });
    const id = session?.id as string;
    const later = new Date(start.getTime() + 30 * 60 * 1000);
    expect(await isSessionLive(t.app.db, id, later)).toBe(true);
    const [row] = await t.app.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row.last_seen_at.toISOString()).toBe(start.toISOString());
    expect(await isSessionLive(t.app.db, id, new Date(start.getTime() + HOUR))).toBe(false);
    await deleteSession(t.app.db, token);
    expect(await isSessionLive(t.app.db, id, later)).toBe(false);
  });

  it("deletes one session, all sessions of a person, and expired sessions", async () => {
    const now = new Date();
    const one = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 });
    const two = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 });
    const adminSession = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 1 });

    expect(await deleteSession(t.app.db, one.token)).toBe(true);
    expect(await deleteSession(t.app.db, one.token)).toBe(false);
    expect(await deleteSession(t.app.db, "junk")).toBe(false);
    expect(await findSession(t.app.db, one.token, "client")).toBeNull();
    expect(await findSession(t.app.db, two.token, "client")).not.toBeNull();

    expect(await deleteSessionsFor(t.app.db, { clientId })).toBeGreaterThanOrEqual(1);
    expect(await findSession(t.app.db, two.token, "client")).toBeNull();
    expect(await t.app.db.select().from(sessions).where(eq(sessions.client_id, clientId))).toHaveLength(0);
    expect(await findSession(t.app.db, adminSession.token, "admin")).not.toBeNull();

    const stale = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 1 }, new Date(now.getTime() - 2 * HOUR));
    const purged = await purgeExpired(t.app.db);
    expect(purged).toBeGreaterThanOrEqual(1);
    const remaining = await t.app.db.select().from(sessions);
    expect(remaining.every((r) => r.expires_at.getTime() > Date.now())).toBe(true);
    expect(await findSession(t.app.db, adminSession.token, "admin")).not.toBeNull();
    expect(await deleteSession(t.app.db, stale.token)).toBe(false);

    expect(await deleteSessionsFor(t.app.db, { adminId })).toBeGreaterThanOrEqual(1);
    expect(await findSession(t.app.db, adminSession.token, "admin")).toBeNull();
  });
});

describe("Fastify helpers", () => {
  it("reads the admin session from the sd_admin cookie only", async () => {
    const { token, expiresAt } = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 12 });
    const ok = await t.app.inject({ url: "/t/admin", cookies: { [ADMIN_COOKIE]: token } });
    expect(ok.json().session).toMatchObject({ adminId, expiresAt: expiresAt.toISOString() });
    expect(ok.json().session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // Fresh session: no slide, so the cookie is not re-issued.
    expect(ok.headers["set-cookie"]).toBeUndefined();

    expect((await t.app.inject({ url: "/t/admin" })).json().session).toBeNull();
    expect((await t.app.inject({ url: "/t/admin", cookies: { [CLIENT_COOKIE]: token } })).json().session).toBeNull();
    expect((await t.app.inject({ url: "/t/client", cookies: { [CLIENT_COOKIE]: token } })).json().session).toBeNull();
  });

  it("reads the client session from the sd_client cookie", async () => {
    const { token } = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 12 });
    const res = await t.app.inject({ url: "/t/client", cookies: { [CLIENT_COOKIE]: token } });
    expect(res.json().session).toMatchObject({ clientId });
    expect((await t.app.inject({ url: "/t/admin", cookies: { [ADMIN_COOKIE]: token } })).json().session).toBeNull();
  });

  it("re-issues the cookie with the new expiry when a session slides", async () => {
    const { token } = await createSession(t.app.db, { kind: "admin", adminId, ttlHours: 2 }, new Date(Date.now() - HOUR));
    const res = await t.app.inject({ url: "/t/admin", cookies: { [ADMIN_COOKIE]: token } });
    const expiresAt = new Date(res.json().session.expiresAt);
    // Slid to now + SESSION_TTL_HOURS (12 in the test config).
    expect(Math.abs(expiresAt.getTime() - (Date.now() + 12 * HOUR))).toBeLessThan(60_000);
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toContain(`${ADMIN_COOKIE}=${token}`);
    expect(cookie).toContain(`Expires=${expiresAt.toUTCString()}`);
    expect(cookie).toContain("HttpOnly");
  });

  it("sets and clears cookies httpOnly, SameSite=Lax, path /, Secure only when asked", async () => {
    const expiresAt = new Date("2031-05-06T07:08:09Z");
    const plain = await t.app.inject({ method: "POST", url: "/t/login", payload: { token: "tok", expiresAt, secure: false } });
    const plainCookie = String(plain.headers["set-cookie"]);
    expect(plainCookie).toMatch(/^sd_client=tok;/);
    expect(plainCookie).toContain("Path=/");
    expect(plainCookie).toContain("HttpOnly");
    expect(plainCookie).toContain("SameSite=Lax");
    expect(plainCookie).toContain(`Expires=${expiresAt.toUTCString()}`);
    expect(plainCookie).not.toContain("Secure");

    const secure = await t.app.inject({ method: "POST", url: "/t/login", payload: { token: "tok", expiresAt, secure: true } });
    expect(String(secure.headers["set-cookie"])).toContain("Secure");

    const cleared = String((await t.app.inject({ method: "POST", url: "/t/logout" })).headers["set-cookie"]);
    expect(cleared).toMatch(/^sd_admin=;/);
    expect(cleared).toContain("Path=/");
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
