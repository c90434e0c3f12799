import { count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_COOKIE, createSession } from "@/server/auth/sessions";
import { admins, auditLog, packages, rateLimits, sessions } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";
import { INVALID_CREDENTIALS, LAST_ADMIN_MESSAGE, LOGIN_LIMIT_MESSAGE } from "./routes";
import { createAdmin, randomIp, sessionCookieFrom, signIn, TEST_ADMIN_PASSWORD } from "./test-helpers";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
});
afterAll(async () => {
  await t?.close();
});
// Each test starts with fresh login counters.
beforeEach(async () => {
  await t.app.db.delete(rateLimits);
});

const login = (payload: unknown, remoteAddress = randomIp(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: "/api/admin/login", payload: payload as object, remoteAddress, headers });
const session = (cookie?: string) => t.app.inject({ method: "GET", url: "/api/admin/session", headers: cookie ? { cookie } : {} });

/** Counters live in one-minute windows: start a run of attempts well inside one. */
async function awayFromMinuteEdge(): Promise<void> {
  const second = new Date().getSeconds();
  if (second >= 50) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
}

const INVALID = { error: { code: "invalid_credentials", message: INVALID_CREDENTIALS } };

describe("POST /api/admin/login", () => {
  it("signs in with an httpOnly SameSite=Lax cookie, and the session endpoint then answers", async () => {
    const admin = await createAdmin(t.app, "owner@example.test");
    const res = await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      admin: { id: admin.id, email: "owner@example.test", name: "Test Admin" },
      expiresAt: expect.any(String),
    });
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(t.config.SESSION_TTL_HOURS - 0.1);
    expect(hours).toBeLessThanOrEqual(t.config.SESSION_TTL_HOURS);
    expect(res.headers["cache-control"]).toBe("no-store");

    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(new RegExp(`^${ADMIN_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//);
    // PUBLIC_URL is http:// in tests: no Secure, or the browser would drop the cookie
    expect(setCookie).not.toMatch(/; Secure/i);

    const me = await session(sessionCookieFrom(res.headers["set-cookie"]));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ success: true, admin: body.admin, expiresAt: expect.any(String) });
  });

  it("takes the e-mail in any case and with spaces around it", async () => {
    const res = await login({ email: "  OWNER@Example.TEST ", password: TEST_ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it("marks the cookie Secure when the public address is https", async () => {
    const https = await createTestApp({ PUBLIC_URL: "https://shop.example.test" }, { database: t.database, seed: false });
    try {
      const res = await https.app.inject({
        method: "POST",
        url: "/api/admin/login",
        payload: { email: "owner@example.test", password: TEST_ADMIN_PASSWORD },
        remoteAddress: randomIp(),
      });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers["set-cookie"])).toMatch(/; Secure/i);
    } finally {
      await https.app.close();
    }
  });

  it("answers a wrong password, an unknown e-mail and missing fields with the same 401", async () => {
    const answers = await Promise.all([
      login({ email: "owner@example.test", password: "wrong-password-1" }),
      login({ email: "nobody@example.test", password: "wrong-password-1" }),
      login({ email: "owner@example.test" }),
      login({ password: TEST_ADMIN_PASSWORD }),
      login({}),
      login({ email: 42, password: ["x"] }),
      t.app.inject({ method: "POST", url: "/api/admin/login", remoteAddress: randomIp() }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("spends about as long on an unknown e-mail as on a wrong password (a dummy hash is checked)", async () => {
    const timed = async (email: string) => {
      const start = performance.now();
      const res = await login({ email, password: "wrong-password-2" });
      expect(res.statusCode).toBe(401);
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await timed("owner@example.test"));
      unknown.push(await timed(`ghost-${i}@example.test`));
    }
    // Without the dummy check an unknown e-mail costs one indexed lookup (about 1 ms) against
    // scrypt's tens of milliseconds; with it both cost one scrypt.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.3);
  });

  it("limits attempts per account, across IPs, with a 429 and Retry-After; even the right password waits", async () => {
    await createAdmin(t.app, "target@example.test");
    await awayFromMinuteEdge();
    for (let i = 0; i < t.config.LOGIN_LIMIT_PER_MIN; i++) {
      expect((await login({ email: "target@example.test", password: `guess-${i}` })).statusCode).toBe(401);
    }
    for (const password of ["guess-again", TEST_ADMIN_PASSWORD]) {
      const res = await login({ email: "TARGET@example.test", password });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: { code: "rate_limited", message: LOGIN_LIMIT_MESSAGE } });
      const retryAfter = Number(res.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // another account is not affected
    expect((await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it("limits attempts per IP across accounts", async () => {
    await awayFromMinuteEdge();
    const ip = randomIp();
    for (let i = 0; i < t.config.LOGIN_LIMIT_PER_MIN; i++) {
      expect((await login({ email: `spray-${i}@example.test`, password: "x" }, ip)).statusCode).toBe(401);
    }
    const blocked = await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toMatch(/^\d+$/);
    expect(blocked.headers["set-cookie"]).toBeUndefined();
    // the same account from elsewhere is fine
    expect((await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it("a successful login clears the account's counter", async () => {
    await createAdmin(t.app, "forgetful@example.test");
    await awayFromMinuteEdge();
    for (let i = 0; i < t.config.LOGIN_LIMIT_PER_MIN - 1; i++) {
      expect((await login({ email: "forgetful@example.test", password: `nope-${i}` })).statusCode).toBe(401);
    }
    expect((await login({ email: "forgetful@example.test", password: TEST_ADMIN_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < t.config.LOGIN_LIMIT_PER_MIN - 1; i++) {
      expect((await login({ email: "forgetful@example.test", password: `nope-again-${i}` })).statusCode).toBe(401);
    }
  });

  it("refuses a login posted from another site (403) and starts no session", async () => {
    const [{ before }] = await t.app.db.select({ before: count() }).from(sessions);
    const res = await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD }, randomIp(), {
      origin: "https://evil.example",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
    expect(res.headers["set-cookie"]).toBeUndefined();
    const [{ after }] = await t.app.db.select({ after: count() }).from(sessions);
    expect(after).toBe(before);
    // our own origin is fine
    const own = await login({ email: "owner@example.test", password: TEST_ADMIN_PASSWORD }, randomIp(), {
      origin: "http://localhost:8080",
    });
    expect(own.statusCode).toBe(200);
  });
});

describe("session and logout", () => {
  it("answers 401 in the error shape without a session, with junk, or with an expired one", async () => {
    const admin = await createAdmin(t.app);
    const live = await createSession(t.app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
    expect((await session(`${ADMIN_COOKIE}=${live.token}`)).statusCode).toBe(200);
    await t.app.db
      .update(sessions)
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where(eq(sessions.admin_id, admin.id));
    for (const cookie of [undefined, `${ADMIN_COOKIE}=junk`, `${ADMIN_COOKIE}=${live.token}`]) {
      const res = await session(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    }
  });

  it("logout ends the session and clears the cookie; logging out twice (or never in) is fine", async () => {
    const cookie = await signIn(t.app, "owner@example.test");
    expect((await session(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/api/admin/logout", headers: { origin: "http://localhost:8080", cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    const cleared = String(out.headers["set-cookie"]);
    expect(cleared).toMatch(new RegExp(`^${ADMIN_COOKIE}=;`));
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await session(cookie)).statusCode).toBe(401);
    for (const headers of [{ cookie }, {}]) {
      const again = await t.app.inject({
        method: "POST",
        url: "/api/admin/logout",
        headers: { origin: "http://localhost:8080", ...headers },
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ success: true });
    }
  });
});

describe("admins", () => {
  it("lists admins without password hashes, adds one who can sign in, and refuses a weak password or a taken e-mail", async () => {
    const cookie = await signIn(t.app, "owner@example.test");
    const list = await t.app.inject({ method: "GET", url: "/api/admin/admins", headers: { origin: "http://localhost:8080", cookie } });
    expect(list.statusCode).toBe(200);
    const rows = list.json().data as Record<string, unknown>[];
    expect(rows.map((r) => r.email)).toContain("owner@example.test");
    expect(rows.every((r) => !("password_hash" in r))).toBe(true);

    const weak = await t.app.inject({
      method: "POST",
      url: "/api/admin/admins",
      headers: { origin: "http://localhost:8080", cookie },
      payload: { email: "new@example.test", name: "New", password: "short" },
    });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().error.fields)).toEqual(["password"]);
    expect(weak.json().error.fields.password).toBe("Password must be at least 10 characters");

    const bad = await t.app.inject({
      method: "POST",
      url: "/api/admin/admins",
      headers: { origin: "http://localhost:8080", cookie },
      payload: { email: "not-an-email", password: "Another-Good-1" },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(["email", "name"]);

    const created = await t.app.inject({
      method: "POST",
      url: "/api/admin/admins",
      headers: { origin: "http://localhost:8080", cookie },
      payload: { email: "New@Example.test", name: "New Person", password: "Another-Good-1" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      email: "new@example.test",
      name: "New Person",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await signIn(t.app, "new@example.test", "Another-Good-1")).toMatch(/^sd_admin=/);

    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, created.json().id));
    expect(entry).toMatchObject({ action: "create", resource: "admins", admin_email: "owner@example.test", before: null });
    expect((entry.after as Record<string, unknown>).password_hash).toBe("[hidden]");

    const taken = await t.app.inject({
      method: "POST",
      url: "/api/admin/admins",
      headers: { origin: "http://localhost:8080", cookie },
      payload: { email: "new@example.test", name: "Again", password: "Another-Good-1" },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual({ email: "Another admin already uses this email address" });
  });

  it("removing an admin ends their sessions; an unknown id is a 404", async () => {
    const cookie = await signIn(t.app, "owner@example.test");
    const leaving = await createAdmin(t.app, "leaving@example.test");
    const theirs = await signIn(t.app, "leaving@example.test");
    expect((await session(theirs)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/admins/${leaving.id}`,
      headers: { origin: "http://localhost:8080", cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await session(theirs)).statusCode).toBe(401);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.admin_id, leaving.id))).toEqual([]);
    for (const id of [leaving.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const missing = await t.app.inject({
        method: "DELETE",
        url: `/api/admin/admins/${id}`,
        headers: { origin: "http://localhost:8080", cookie },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe("not_found");
    }
  });

  it("changing one's password needs the current one and signs the admin out everywhere else", async () => {
    const me = await createAdmin(t.app, "changer@example.test");
    const here = await signIn(t.app, "changer@example.test");
    const elsewhere = await signIn(t.app, "changer@example.test");
    const change = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/admin/password", headers: { origin: "http://localhost:8080", cookie: here }, payload });

    const wrong = await change({ currentPassword: "not-my-password", newPassword: "Brand-New-Secret-9" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ currentPassword: "Your current password is not correct" });

    const weak = await change({ currentPassword: TEST_ADMIN_PASSWORD, newPassword: "1234567890" });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().error.fields)).toEqual(["newPassword"]);

    const ok = await change({ currentPassword: TEST_ADMIN_PASSWORD, newPassword: "Brand-New-Secret-9" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect((await session(here)).statusCode).toBe(200);
    expect((await session(elsewhere)).statusCode).toBe(401);
    expect((await login({ email: "changer@example.test", password: TEST_ADMIN_PASSWORD })).statusCode).toBe(401);
    expect((await login({ email: "changer@example.test", password: "Brand-New-Secret-9" })).statusCode).toBe(200);

    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, "password")).orderBy(desc(auditLog.created_at));
    expect(entry).toMatchObject({ resource: "admins", resource_id: me.id });
    expect(JSON.stringify(entry)).not.toContain("Brand-New-Secret-9");
  });

  it("never removes the last admin", async () => {
    const cookie = await signIn(t.app, "owner@example.test");
    const [owner] = await t.app.db.select().from(admins).where(eq(admins.email, "owner@example.test"));
    for (const other of await t.app.db.select().from(admins)) {
      if (other.id === owner.id) continue;
      expect(
        (
          await t.app.inject({
            method: "DELETE",
            url: `/api/admin/admins/${other.id}`,
            headers: { origin: "http://localhost:8080", cookie },
          })
        ).statusCode,
      ).toBe(200);
    }
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/admins/${owner.id}`,
      headers: { origin: "http://localhost:8080", cookie },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: "conflict", message: LAST_ADMIN_MESSAGE } });
    expect(await t.app.db.select().from(admins)).toHaveLength(1);
    expect((await session(cookie)).statusCode).toBe(200);
  });
});

describe("CSRF", () => {
  it("refuses an admin write from another site with 403 and writes nothing", async () => {
    const cookie = await signIn(t.app, "owner@example.test");
    const [{ before }] = await t.app.db.select({ before: count() }).from(packages);
    for (const headers of [{ origin: "https://evil.example" }, { referer: "https://evil.example/page" }]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/packages",
        headers: { cookie, ...headers },
        payload: { name: "Evil", price: 1, duration: "1 Month" },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe("forbidden");
    }
    const [{ after }] = await t.app.db.select({ after: count() }).from(packages);
    expect(after).toBe(before);
  });
});
