// Client sign-in, sign-out, session status, separation from admin sessions, the login limits
// and the password change.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, sessions } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";
import { INVALID_CREDENTIALS_MESSAGE } from "@/shared/client-schemas";
import { adminToken, cookieFrom, login, makeClient, nextIp, PUBLIC_URL, signIn, type TestClient } from "./test-helpers";

let t: TestApp;
let thabo: TestClient;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL }, { seed: true });
  thabo = await makeClient(t.app, { username: "thabo.m", full_name: "Thabo Mokoena", email: "thabo@example.co.za", status: "active" });
});

afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) => t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

/** Limits count per wall-clock minute: start a burst well inside one. */
async function awayFromMinuteEdge() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 4000) await new Promise((r) => setTimeout(r, left + 200));
}

describe("POST /api/client/login", () => {
  it("signs in with an httpOnly, SameSite=Lax cookie and answers the client (spec §7)", async () => {
    const response = await login(t.app, thabo.username, thabo.password);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      client: { id: thabo.id, username: "thabo.m", full_name: "Thabo Mokoena", status: "active" },
    });
    const header = [response.headers["set-cookie"]].flat().find((c) => c?.startsWith("sd_client=")) ?? "";
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/i);
    expect(response.headers["cache-control"]).toBe("no-store");

    const session = await get("/api/client/session", cookieFrom(response, "sd_client"));
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual({
      success: true,
      client: { id: thabo.id, username: "thabo.m", full_name: "Thabo Mokoena", status: "active" },
    });
  });

  it("matches the username whatever its letter case (phones capitalise it)", async () => {
    const response = await login(t.app, "Thabo.M", thabo.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().client.id).toBe(thabo.id);
  });

  it("sets a Secure cookie when the public address is https", async () => {
    const https = await createTestApp({ PUBLIC_URL: "https://shop.example.co.za" }, { database: t.database, seed: false });
    try {
      const response = await login(https.app, thabo.username, thabo.password);
      expect(response.statusCode).toBe(200);
      expect([response.headers["set-cookie"]].flat().find((c) => c?.startsWith("sd_client="))).toMatch(/; Secure/i);
    } finally {
      await https.app.close();
    }
  });

  it("answers every failure with the same 401 'Invalid username or password'", async () => {
    const expected = { error: { code: "invalid_credentials", message: INVALID_CREDENTIALS_MESSAGE } };
    const attempts = [
      { username: thabo.username, password: "not-the-password" },
      { username: "nobody-by-this-name", password: thabo.password },
      { username: thabo.username },
      { password: thabo.password },
      {},
    ];
    for (const payload of attempts) {
      const response = await t.app.inject({ method: "POST", url: "/api/client/login", payload, remoteAddress: nextIp() });
      expect(response.statusCode, JSON.stringify(payload)).toBe(401);
      expect(response.json()).toEqual(expected);
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
    const text = await t.app.inject({
      method: "POST",
      url: "/api/client/login",
      payload: "[]",
      headers: { "content-type": "application/json" },
    });
    expect(text.statusCode).toBe(401);
  });

  it("checks a password for unknown usernames too, so timing does not tell accounts apart", async () => {
    const time = async (username: string) => {
      const started = performance.now();
      await login(t.app, username, "wrong-password-123");
      return performance.now() - started;
    };
    await time("warm-up-user");
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(thabo.username));
      unknown.push(await time(`ghost-${i}`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1];
    // Both pay for one scrypt verification (tens of ms); without the dummy hash the unknown
    // path would be a single indexed lookup.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    // Keep the account counter from interfering with the later limit tests.
    await t.app.db.execute(sql`DELETE FROM rate_limits WHERE key LIKE 'login:client:acct:%'`);
  });

  it("lets a suspended client sign in, saying so in the status", async () => {
    const sipho = await makeClient(t.app, { username: "sipho.n", full_name: "Sipho Ndlovu", status: "suspended" });
    const response = await login(t.app, sipho.username, sipho.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().client).toMatchObject({ id: sipho.id, status: "suspended" });
  });

  it("ends the session this browser held before when it signs in again", async () => {
    const first = await signIn(t.app, thabo);
    const second = await login(t.app, thabo.username, thabo.password);
    await t.app.inject({
      method: "POST",
      url: "/api/client/login",
      payload: { username: thabo.username, password: thabo.password },
      headers: { origin: "http://localhost:8080", cookie: first },
    });
    expect((await get("/api/client/session", first)).statusCode).toBe(401);
    expect((await get("/api/client/session", cookieFrom(second, "sd_client"))).statusCode).toBe(200);
  });
});

describe("login limits (LOGIN_LIMIT_PER_MIN = 5)", () => {
  it("limits one account across many addresses, with Retry-After, and a success resets the count", async () => {
    const lerato = await makeClient(t.app, { username: "lerato.k" });
    await awayFromMinuteEdge();
    for (let i = 0; i < 4; i++) expect((await login(t.app, lerato.username, "wrong-password-1")).statusCode).toBe(401);
    expect((await login(t.app, lerato.username, lerato.password)).statusCode).toBe(200);
    // Reset by the success: four more failures are still only failures.
    for (let i = 0; i < 4; i++) expect((await login(t.app, lerato.username, "wrong-password-1")).statusCode).toBe(401);
    expect((await login(t.app, lerato.username, "wrong-password-1")).statusCode).toBe(401);
    const limited = await login(t.app, lerato.username, lerato.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe("rate_limited");
    expect(limited.json().error.message).toMatch(/wait a minute/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // The username's case does not open a second counter.
    expect((await login(t.app, "LERATO.K", lerato.password)).statusCode).toBe(429);
  });

  it("limits one address across many usernames", async () => {
    await awayFromMinuteEdge();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await login(t.app, `guess-${i}`, "wrong-password-1", ip)).statusCode).toBe(401);
    const limited = await login(t.app, thabo.username, thabo.password, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another address is unaffected.
    expect((await login(t.app, thabo.username, thabo.password)).statusCode).toBe(200);
  });
});

describe("logout and session status", () => {
  it("logout ends the session and clears the cookie; it answers 200 without one too", async () => {
    const cookie = await signIn(t.app, thabo);
    const out = await t.app.inject({ method: "POST", url: "/api/client/logout", headers: { origin: "http://localhost:8080", cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    expect([out.headers["set-cookie"]].flat().find((c) => c?.startsWith("sd_client="))).toMatch(/sd_client=;.*Expires=Thu, 01 Jan 1970/);
    expect((await get("/api/client/session", cookie)).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/client/logout" })).statusCode).toBe(200);
  });

  it("session without a cookie, or with junk, is 401 in the error shape", async () => {
    for (const cookie of [undefined, "sd_client=junk", "sd_client=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const response = await get("/api/client/session", cookie);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("unauthorized");
    }
  });
});

describe("admin and client sessions are separate", () => {
  it("an admin session never opens /api/client/*", async () => {
    const token = await adminToken(t.app);
    for (const cookie of [`sd_admin=${token}`, `sd_client=${token}`]) {
      expect((await get("/api/client/me", cookie)).statusCode).toBe(401);
      expect((await get("/api/client/session", cookie)).statusCode).toBe(401);
      expect((await get("/api/client/payments", cookie)).statusCode).toBe(401);
    }
  });

  it("a client session never opens /api/admin/*", async () => {
    const cookie = await signIn(t.app, thabo);
    const token = cookie.slice("sd_client=".length);
    for (const url of ["/api/admin/clients", "/api/admin/session", "/api/admin/payments", "/api/admin/stats"]) {
      for (const sent of [cookie, `sd_admin=${token}`]) {
        const response = await get(url, sent);
        expect([401, 404], `${url} with ${sent.split("=")[0]}`).toContain(response.statusCode);
      }
    }
  });
});

describe("POST /api/client/password", () => {
  it("refuses a wrong current password and a weak new one beside their fields", async () => {
    const cookie = await signIn(t.app, thabo);
    const post = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/client/password", payload, headers: { origin: "http://localhost:8080", cookie } });
    const wrong = await post({ currentPassword: "not-it-at-all", newPassword: "A much better passphrase 9" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ currentPassword: "Your current password is not correct" });
    const weak = await post({ currentPassword: thabo.password, newPassword: "short" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.newPassword).toBe("Password must be at least 10 characters");
    const digits = await post({ currentPassword: thabo.password, newPassword: "0821234567" });
    expect(digits.json().error.fields.newPassword).toMatch(/mix of letters, numbers or symbols/);
  });

  it("changes the password, keeps this session and ends the others", async () => {
    const zanele = await makeClient(t.app, { username: "zanele.d", email: "zanele@example.co.za", communication_method: "email" });
    const here = await signIn(t.app, zanele);
    const elsewhere = await signIn(t.app, zanele);
    const newPassword = "Kgalagadi sunset 2026";
    const response = await t.app.inject({
      method: "POST",
      url: "/api/client/password",
      payload: { currentPassword: zanele.password, newPassword },
      headers: { origin: "http://localhost:8080", cookie: here },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await get("/api/client/me", here)).statusCode).toBe(200);
    expect((await get("/api/client/me", elsewhere)).statusCode).toBe(401);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.client_id, zanele.id))).toHaveLength(1);
    expect((await login(t.app, zanele.username, zanele.password)).statusCode).toBe(401);
    expect((await login(t.app, zanele.username, newPassword)).statusCode).toBe(200);
    const [notice] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, zanele.id), eq(outbox.kind, "password-changed")));
    expect(notice).toMatchObject({ channel: "email", recipient: "zanele@example.co.za" });
    expect(notice.body).toContain("StreamDesk");
    expect(notice.body).toMatch(/Need a person\?/);
  });
});
