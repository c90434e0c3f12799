// Issue 14: nobody can lock the owner out by guessing. After LOGIN_LIMIT_PER_MIN failures on an
// account, browsers that never signed in to it wait (429), from any address; the owner's browser,
// holding the device cookie its last sign-in left, still signs in, and a device cookie that keeps
// failing is locked out on its own. Also: signing in again ends the browser's old session, and a
// password hashed at an older cost is raised to the current one on sign-in.
import { randomBytes, scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceCookieName } from "@/server/auth/login-guard";
import { configurePasswordCost } from "@/server/auth/passwords";
import { admins, clients, sessions } from "@/server/db/schema";
import { createAdmin, randomIp, sessionCookieFrom, TEST_ADMIN_PASSWORD } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_LIMIT_PER_MIN: 5 }, { seed: false });
});
afterAll(async () => {
  await t?.close();
});

const cookiesOf = (setCookie: string | string[] | undefined) =>
  [setCookie]
    .flat()
    .filter((c): c is string => Boolean(c))
    .map((c) => c.split(";")[0]);

const adminLogin = (email: string, password: string, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/login",
    payload: { email, password },
    remoteAddress: randomIp(),
    headers: cookie ? { cookie, origin: "http://localhost:8080" } : { origin: "http://localhost:8080" },
  });

describe("per-account limits with device cookies (admin sign-in)", () => {
  it("keeps new browsers out while an account is guessed at, but lets the owner's browser in", async () => {
    const owner = await createAdmin(t.app, "owner-devices@example.test");
    // The owner signed in before from this browser: it holds a device cookie for the account.
    const first = await adminLogin(owner.email, TEST_ADMIN_PASSWORD);
    expect(first.statusCode).toBe(200);
    const device = cookiesOf(first.headers["set-cookie"]).find((c) => c.startsWith(`${deviceCookieName("admin")}=`));
    expect(device).toBeTruthy();
    const deviceHeader = [first.headers["set-cookie"]].flat().find((c) => c?.startsWith(deviceCookieName("admin")));
    expect(deviceHeader).toMatch(/HttpOnly/i);
    expect(deviceHeader).toMatch(/SameSite=Strict/i);
    expect(deviceHeader).toMatch(/Path=\/api\/admin\/login/);

    // An attacker, rotating addresses, guesses five times...
    for (let i = 0; i < 5; i++) expect((await adminLogin(owner.email, `guess-${i}`)).statusCode).toBe(401);
    // ...and a sixth try from any browser without the cookie waits, even with the right password.
    const stranger = await adminLogin(owner.email, TEST_ADMIN_PASSWORD);
    expect(stranger.statusCode).toBe(429);
    expect(Number(stranger.headers["retry-after"])).toBeGreaterThan(0);
    // The owner's browser is not held back by the attacker's failures.
    const ownerAgain = await adminLogin(owner.email, TEST_ADMIN_PASSWORD, device);
    expect(ownerAgain.statusCode).toBe(200);
  });

  it("locks out a device cookie that keeps failing, on its own", async () => {
    const admin = await createAdmin(t.app, "device-fails@example.test");
    const ok = await adminLogin(admin.email, TEST_ADMIN_PASSWORD);
    const device = cookiesOf(ok.headers["set-cookie"]).find((c) => c.startsWith(`${deviceCookieName("admin")}=`));
    for (let i = 0; i < 5; i++) expect((await adminLogin(admin.email, `wrong-${i}`, device)).statusCode).toBe(401);
    expect((await adminLogin(admin.email, TEST_ADMIN_PASSWORD, device)).statusCode).toBe(429);
    // Its failures were its own: a browser without it (the account's counter untouched) still gets in.
    expect((await adminLogin(admin.email, TEST_ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it("ignores a device cookie for another account, or one that was tampered with", async () => {
    const a = await createAdmin(t.app, "device-a@example.test");
    const b = await createAdmin(t.app, "device-b@example.test");
    const signedA = await adminLogin(a.email, TEST_ADMIN_PASSWORD);
    const deviceA = cookiesOf(signedA.headers["set-cookie"]).find((c) => c.startsWith(`${deviceCookieName("admin")}=`)) ?? "";
    for (let i = 0; i < 5; i++) expect((await adminLogin(b.email, `x-${i}`)).statusCode).toBe(401);
    expect((await adminLogin(b.email, TEST_ADMIN_PASSWORD, deviceA)).statusCode).toBe(429);
    const tampered = `${deviceA.slice(0, -4)}AAAA`;
    expect((await adminLogin(b.email, TEST_ADMIN_PASSWORD, tampered)).statusCode).toBe(429);
  });
});

describe("signing in again", () => {
  it("ends the session the browser held before", async () => {
    const admin = await createAdmin(t.app, "relogin@example.test");
    const first = sessionCookieFrom((await adminLogin(admin.email, TEST_ADMIN_PASSWORD)).headers["set-cookie"]);
    const again = await adminLogin(admin.email, TEST_ADMIN_PASSWORD, first);
    expect(again.statusCode).toBe(200);
    const second = sessionCookieFrom(again.headers["set-cookie"]);
    expect(second).not.toBe(first);
    const old = await t.app.inject({ method: "GET", url: "/api/admin/session", headers: { cookie: first } });
    expect(old.statusCode).toBe(401);
    const fresh = await t.app.inject({ method: "GET", url: "/api/admin/session", headers: { cookie: second } });
    expect(fresh.statusCode).toBe(200);
    const rows = await t.app.db.select().from(sessions).where(eq(sessions.admin_id, admin.id));
    expect(rows).toHaveLength(1);
  });
});

describe("password hashes rehashed on sign-in", () => {
  it("raises an admin's and a client's older, cheaper hash to the current cost, and only on a right password", async () => {
    // A hash as an older release made it (2^12); the server's cost is 2^14 in tests.
    configurePasswordCost(14);
    const oldHash = (password: string) => {
      const salt = randomBytes(16);
      const key = scryptSync(password, salt, 32, { N: 4096, r: 8, p: 1 });
      return ["scrypt", 4096, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    };
    const [admin] = await t.app.db
      .insert(admins)
      .values({ email: "old-hash@example.test", name: "Old", password_hash: oldHash(TEST_ADMIN_PASSWORD) })
      .returning();
    expect((await adminLogin(admin.email, "wrong-password")).statusCode).toBe(401);
    expect((await t.app.db.select().from(admins).where(eq(admins.id, admin.id)))[0].password_hash.split("$")[1]).toBe("4096");
    expect((await adminLogin(admin.email, TEST_ADMIN_PASSWORD)).statusCode).toBe(200);
    const raised = (await t.app.db.select().from(admins).where(eq(admins.id, admin.id)))[0].password_hash;
    expect(raised.split("$")[1]).toBe("16384");
    expect((await adminLogin(admin.email, TEST_ADMIN_PASSWORD)).statusCode).toBe(200);

    const [client] = await t.app.db
      .insert(clients)
      .values({ username: "old.hash", full_name: "Old Hash", password_hash: oldHash("Client-Passw0rd") })
      .returning();
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/client/login",
      payload: { username: "old.hash", password: "Client-Passw0rd" },
      remoteAddress: randomIp(),
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect((await t.app.db.select().from(clients).where(eq(clients.id, client.id)))[0].password_hash.split("$")[1]).toBe("16384");
  });
});
