// CSRF, as an outside probe tried it: a cookie-carrying write from a foreign Origin is refused
// however the path is spelled (percent-encoded, the router decodes it), a cookie-carrying write
// with neither Origin nor Referer is refused, a text/plain body changes nothing; our own origin
// and the signed callbacks go through.
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_COOKIE, createSession } from "@/server/auth/sessions";
import { admins } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";

const OWN = "http://localhost:8080";
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  // A signed-in admin's cookie, as their browser holds it.
  const [admin] = await t.app.db.insert(admins).values({ email: "owner@example.co.za", password_hash: "x" }).returning();
  const { token } = await createSession(t.app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
  cookie = `${ADMIN_COOKIE}=${token}`;
});
afterAll(async () => {
  await t?.close();
});

const adminCount = async () => (await t.app.db.select({ n: count() }).from(admins))[0].n;
const addAdmin = (
  url: string,
  headers: Record<string, string>,
  payload: unknown = { email: `x${Date.now()}@example.co.za`, name: "X", password: "Correct-Horse-2026!" },
) => t.app.inject({ method: "POST", url, headers: { cookie, ...headers }, payload: payload as object });

describe("the Origin guard", () => {
  it.each([
    ["/api/admin/admins", { origin: "https://evil.example" }],
    ["/%61pi/admin/admins", { origin: "https://evil.example" }],
    ["/api/%61dmin/admins", { origin: "http://localhost:9999" }],
    ["/api/admin/admins", { referer: "https://evil.example/page" }],
    ["/api/admin/admins", {}],
    ["/%61pi/admin/admins", {}],
    ["/api/admin/admins", { origin: "null" }],
  ])("refuses %s with %o (403), adding no admin", async (url, headers) => {
    const before = await adminCount();
    const res = await addAdmin(url, headers as Record<string, string>);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
    expect(await adminCount()).toBe(before);
  });

  it("a text/plain body from another site changes nothing either", async () => {
    const before = await adminCount();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/admins",
      headers: { cookie, origin: "https://evil.example", "content-type": "text/plain" },
      payload: '{"email":"plain@example.co.za","name":"P"}',
    });
    expect([403, 415]).toContain(res.statusCode);
    expect(await adminCount()).toBe(before);
  });

  it("lets our own origin through, and a cookie-less public write without one (not a browser)", async () => {
    expect((await addAdmin("/api/admin/admins", { origin: OWN })).statusCode).toBe(201);
    const order = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: { name: "Curl Person", email: "curl@example.co.za", whatsapp: "082 000 1111" },
      remoteAddress: "10.77.0.1",
    });
    expect(order.statusCode).toBe(201);
  });

  it("leaves the signed provider callbacks to their signatures", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook/sandbox",
      headers: { origin: "https://evil.example" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("invalid_signature");
  });
});
