// Issue 30, item 2: the per-account sign-in limit must hold when the guesses arrive together.
// Each attempt is reserved (an atomic, conditional increment) before its password is checked, so
// 25 simultaneous wrong guesses from 25 addresses plus the right password check at most
// LOGIN_LIMIT_PER_MIN passwords in the minute; the rest wait (429 with Retry-After). The old code
// read the count first and wrote it after the (slow) scrypt check, so all 26 were checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, randomIp, TEST_ADMIN_PASSWORD } from "@/server/modules/admin-auth/test-helpers";
import { type OtherProcess, secondProcess, startTogether } from "@/server/test-support/race";
import { awayFromMinuteTurn, createTestApp, onPostgres, type TestApp } from "@/server/testing";

const LIMIT = 5;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_LIMIT_PER_MIN: LIMIT }, { seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe("concurrent guesses on one account", () => {
  it("checks at most LOGIN_LIMIT_PER_MIN passwords when 26 are sent together from 26 addresses (taking turns on PGlite's one connection)", async () => {
    const owner = await createAdmin(t.app, "race-owner@example.test");
    const passwords = [...Array.from({ length: 25 }, (_, i) => `wrong-guess-${i}`), TEST_ADMIN_PASSWORD];
    const responses = await Promise.all(
      passwords.map((password) =>
        t.app.inject({
          method: "POST",
          url: "/api/admin/login",
          payload: { email: owner.email, password },
          remoteAddress: randomIp(),
          headers: { origin: "http://localhost:8080" },
        }),
      ),
    );
    const codes = responses.map((r) => r.statusCode);
    const checked = codes.filter((c) => c === 401 || c === 200).length;
    expect(checked).toBeLessThanOrEqual(LIMIT);
    expect(codes.filter((c) => c === 429).length).toBe(passwords.length - checked);
    for (const r of responses.filter((x) => x.statusCode === 429)) expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("holds per address too: 12 guesses sent together at 12 accounts from one address (taking turns on PGlite's one connection) check at most the limit", async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/admin/login",
          payload: { email: `nobody-${i}@example.test`, password: "whatever-123" },
          remoteAddress: ip,
          headers: { origin: "http://localhost:8080" },
        }),
      ),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(12 - LIMIT);
  });

  it("a right password does not use up the account's allowance (only failures count)", async () => {
    const admin = await createAdmin(t.app, "race-success@example.test");
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/login",
        payload: { email: admin.email, password: TEST_ADMIN_PASSWORD },
        remoteAddress: randomIp(),
        headers: { origin: "http://localhost:8080" },
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe.runIf(onPostgres())(
  "PostgreSQL only (PGlite is one connection: nothing races there): guesses on two processes at the same moment",
  () => {
    let other: OtherProcess;
    beforeAll(async () => {
      other = await secondProcess(t);
    });
    afterAll(async () => {
      await other?.close();
    });
    const login = (app: TestApp["app"], email: string, password: string, ip: string) =>
      app.inject({
        method: "POST",
        url: "/api/admin/login",
        payload: { email, password },
        remoteAddress: ip,
        headers: { origin: "http://localhost:8080" },
      });
    /** Four guesses a process, each reservation waiting behind the lock on rate_limits, then let go together. */
    const race = (guess: (app: TestApp["app"], i: number) => ReturnType<typeof login>) =>
      startTogether(t.database.url as string, "LOCK TABLE rate_limits IN EXCLUSIVE MODE", 8, () =>
        Promise.all([t.app, other.app].map((app, p) => Promise.all([0, 1, 2, 3].map((i) => guess(app, p * 4 + i))))),
      );

    it("one account: 8 guesses from 8 addresses on two processes check at most the limit; every other one is told to wait", async () => {
      const owner = await createAdmin(t.app, "race-pg-owner@example.test");
      await awayFromMinuteTurn();
      const sides = await race((app, i) => login(app, owner.email, i === 7 ? TEST_ADMIN_PASSWORD : `wrong-guess-${i}`, randomIp()));
      for (const side of sides) expect(side).toHaveLength(4);
      const responses = sides.flat();
      const codes = responses.map((r) => r.statusCode);
      const checked = codes.filter((c) => c === 401 || c === 200).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(LIMIT);
      expect(codes.filter((c) => c === 429).length).toBe(8 - checked);
      for (const r of responses.filter((x) => x.statusCode === 429)) expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
    });

    it("one address: 8 guesses at 8 accounts on two processes check at most the limit", async () => {
      const ip = randomIp();
      await awayFromMinuteTurn();
      const sides = await race((app, i) => login(app, `nobody-pg-${i}@example.test`, "whatever-123", ip));
      for (const side of sides) expect(side).toHaveLength(4);
      const codes = sides.flat().map((r) => r.statusCode);
      const checked = codes.filter((c) => c === 401).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(LIMIT);
      expect(codes.filter((c) => c === 429).length).toBe(8 - checked);
    });
  },
);
