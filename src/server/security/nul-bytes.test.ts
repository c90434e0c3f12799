// A NUL character (which PostgreSQL cannot store) in a login, a reset request or a search is
// ordinary bad input: a 4xx or an empty answer, never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
let admin: SignedIn;
let n = 0;
const ip = () => `10.55.0.${++n}`;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe("NUL bytes", () => {
  it("in a client login is invalid credentials (401)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/client/login",
      payload: { username: "ab\u0000c", password: "x\u0000y" },
      remoteAddress: ip(),
    });
    expect(res.statusCode).toBe(401);
  });

  it("in an admin login is invalid credentials (401)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/login",
      payload: { email: "a\u0000@example.co.za", password: "x" },
      remoteAddress: ip(),
    });
    expect(res.statusCode).toBe(401);
  });

  it("in a password-reset identifier gets the usual answer", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/client/password-reset/request",
      payload: { identifier: "some\u0000one" },
      remoteAddress: ip(),
    });
    expect(res.statusCode).toBe(200);
  });

  it.each(["/api/admin/clients?q=a%00b", "/api/admin/leads?q=%00", "/api/admin/payments?q=x%00", "/api/kb?q=load%00shedding"])(
    "in %s is a 400 naming the parameter",
    async (url) => {
      const res = await admin.call({ method: "GET", url });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: "validation", fields: { q: expect.stringContaining("not allowed") } });
    },
  );

  it("in an order's fields is taken out and the order saved", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: { name: "Nul\u0000 Person", email: "nul@example.co.za", whatsapp: "082 111 0000" },
      remoteAddress: ip(),
    });
    expect(res.statusCode).toBe(201);
  });
});
