// TRUST_PROXY: `true` believes ONE proxy, so the client address is the right-most
// X-Forwarded-For entry that proxy added; a client rotating the header it sends itself gets
// no fresh address, no way past the per-IP limits, and no lie stored on its lead.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustedProxies } from "@/server/app";
import { leads } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
const LIMIT = 5;
const LOAD_BALANCER = "10.0.0.2";

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true", PUBLIC_WRITE_LIMIT_PER_MIN: LIMIT, LOGIN_LIMIT_PER_MIN: LIMIT });
});
afterAll(async () => {
  await t?.close();
});

const order = (forwardedFor: string, i: number) =>
  t.app.inject({
    method: "POST",
    url: "/api/orders",
    remoteAddress: LOAD_BALANCER,
    headers: { "x-forwarded-for": forwardedFor },
    payload: { name: `Proxy Test ${i}`, email: `proxy${i}@example.co.za`, whatsapp: `0826${String(i).padStart(6, "0")}` },
  });

describe("behind one trusted proxy", () => {
  it("takes the address the proxy saw, not one the client wrote, and stores that on the lead", async () => {
    const response = await order("6.6.6.6, 41.13.20.5", 1);
    expect(response.statusCode).toBe(201);
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, response.json().id));
    expect(lead.ip).toBe("41.13.20.5");
  });

  it("a client rotating its own X-Forwarded-For still meets the per-IP limit (429)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await order(`203.0.113.${i}, 41.13.20.99`, 100 + i)).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  });

  it("admin sign-in attempts with rotated headers reach the login limit too", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/admin/login",
        remoteAddress: LOAD_BALANCER,
        headers: { "x-forwarded-for": `198.51.100.${i}, 41.13.20.77` },
        payload: { email: `nobody${i}@example.co.za`, password: "wrong-password" },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toContain(429);
  });
});

describe("the TRUST_PROXY setting", () => {
  it("false trusts nobody; a list is taken as proxy addresses", () => {
    expect(trustedProxies("false")).toBe(false);
    expect(trustedProxies("0")).toBe(false);
    expect(trustedProxies("10.0.0.0/8, 192.168.1.4")).toEqual(["10.0.0.0/8", "192.168.1.4"]);
  });

  it.each([
    ["true", [true, false, false]],
    ["1", [true, false, false]],
    ["2", [true, true, false]],
  ] as const)("%s trusts the first hops only (the peer that connected is hop 0)", (setting, trusted) => {
    const trust = trustedProxies(setting) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust("10.0.0.2", hop))).toEqual(trusted);
  });
});
