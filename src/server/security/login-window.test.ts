// Issue 46, item 4: the sign-in limit holds in any 60 seconds, whatever the clock says. It used to
// count per calendar minute, so five wrong passwords at :59.5 and five more at :00.5 of the next
// minute were all checked — ten in one second against a limit of five. The clock here is fake
// (only Date: the database and the timers run as ever) and the burst straddles the turn on purpose.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deviceCookieName } from "@/server/auth/login-guard";
import { createAdmin, randomIp, signIn, TEST_ADMIN_PASSWORD } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

const LIMIT = 5;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_LIMIT_PER_MIN: LIMIT }, { seed: false });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t?.close();
});

/** The turn of a minute a little ahead of now (so the fake clock never runs backwards between tests). */
let turns = 0;
function nextMinuteTurn(): number {
  turns += 1;
  return (Math.floor(Date.now() / 60_000) + 2 * turns) * 60_000;
}

const at = (instant: number) => vi.setSystemTime(new Date(instant));

const adminLogin = (email: string, password: string, { ip = randomIp(), cookie }: { ip?: string; cookie?: string } = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/login",
    payload: { email, password },
    remoteAddress: ip,
    headers: cookie ? { cookie, origin: "http://localhost:8080" } : { origin: "http://localhost:8080" },
  });

describe("a sliding sign-in window (per account)", () => {
  it("checks only five of ten wrong passwords straddling the turn of a minute; the rest wait with Retry-After", async () => {
    const owner = await createAdmin(t.app, "window-owner@example.test");
    const turn = nextMinuteTurn();
    vi.useFakeTimers({ toFake: ["Date"] });

    at(turn - 500); // :59.5
    const before = [];
    for (let i = 0; i < 5; i++) before.push((await adminLogin(owner.email, `guess-a-${i}`)).statusCode);
    expect(before).toEqual([401, 401, 401, 401, 401]);

    at(turn + 500); // :00.5 of the next minute
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await adminLogin(owner.email, `guess-b-${i}`));
    expect(after.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429]);
    for (const r of after) {
      // the first guess leaves the window 60 s after :59.5, 59 s from now
      expect(Number(r.headers["retry-after"])).toBe(59);
      expect(r.json().error.message).toBe("Too many sign-in attempts. Please wait a minute and try again.");
    }

    // Still inside 60 s of the first guess: waits, even with the right password (a new browser).
    at(turn + 59_000);
    expect((await adminLogin(owner.email, TEST_ADMIN_PASSWORD)).statusCode).toBe(429);
    // 60 s after the five checked guesses (the fake clock stood still while they ran) the window
    // is free again: five more are checked, and no more than that.
    at(turn + 59_600);
    const later = [];
    for (let i = 0; i < 6; i++) later.push((await adminLogin(owner.email, `guess-c-${i}`)).statusCode);
    expect(later).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("still lets the owner's browser (its device cookie) in while strangers' guesses fill the window", async () => {
    const owner = await createAdmin(t.app, "window-device@example.test");
    const turn = nextMinuteTurn();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(turn - 30_000);
    const first = await adminLogin(owner.email, TEST_ADMIN_PASSWORD);
    expect(first.statusCode).toBe(200);
    const device = [first.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .find((c) => c.startsWith(`${deviceCookieName("admin")}=`));
    expect(device).toBeTruthy();

    at(turn - 500);
    for (let i = 0; i < 5; i++) expect((await adminLogin(owner.email, `guess-${i}`)).statusCode).toBe(401);
    at(turn + 500);
    expect((await adminLogin(owner.email, "guess-late")).statusCode).toBe(429);
    expect((await adminLogin(owner.email, TEST_ADMIN_PASSWORD, { cookie: device })).statusCode).toBe(200);
  });
});

describe("a sliding sign-in window (per address)", () => {
  it("checks only five guesses from one address across the turn of a minute, whichever accounts they name", async () => {
    const ip = randomIp();
    const turn = nextMinuteTurn();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(turn - 500);
    for (let i = 0; i < 5; i++) expect((await adminLogin(`nobody-a${i}@example.test`, "whatever-123", { ip })).statusCode).toBe(401);
    at(turn + 500);
    for (let i = 0; i < 5; i++) {
      const r = await adminLogin(`nobody-b${i}@example.test`, "whatever-123", { ip });
      expect(r.statusCode).toBe(429);
      expect(Number(r.headers["retry-after"])).toBe(59);
    }
  });
});

describe("a sliding window for the current password of a password change", () => {
  it("checks only five wrong current passwords straddling the turn of a minute", async () => {
    const admin = await createAdmin(t.app, "window-password@example.test");
    const cookie = await signIn(t.app, admin.email);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/admin/password",
        headers: { origin: "http://localhost:8080", cookie },
        payload: { currentPassword, newPassword: "Brand-New-Secret-9" },
      });
    const turn = nextMinuteTurn();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(turn - 500);
    for (let i = 0; i < 5; i++) expect((await change(`not-mine-${i}`)).statusCode).toBe(400);
    at(turn + 500);
    const late = await change("not-mine-late");
    expect(late.statusCode).toBe(429);
    expect(Number(late.headers["retry-after"])).toBe(59);
  });
});
