// The authorisation matrix: every /api/admin/* route the app registers (collected with an
// onRoute hook, so routes added later by any module are covered without editing this file),
// except sign-in itself, answers 401 to an anonymous caller and to a client session (even a
// client token sent in the admin cookie), and lets an admin through.
import { randomUUID } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_COOKIE, CLIENT_COOKIE, createSession } from "../../auth/sessions";
import { clients } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing";
import { signedInAdmin } from "./test-helpers";

const routes = vi.hoisted(() => [] as { method: string; url: string }[]);

// A first "module" that runs in the root context (skip-override, as fastify-plugin does) and
// records every route registered after it.
vi.mock("../index", async (importOriginal) => {
  const original = await importOriginal<typeof import("../index")>();
  const collector: FastifyPluginAsync = async (app) => {
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? route.path });
    });
  };
  Object.assign(collector, { [Symbol.for("skip-override")]: true });
  return { routeModules: [collector, ...original.routeModules] };
});

/** Sign-in itself is open: you cannot need a session to get one. */
const OPEN = new Set(["POST /api/admin/login", "POST /api/admin/logout", "GET /api/admin/session"]);

let t: TestApp;
let adminCookie: string;
let clientToken: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  adminCookie = (await signedInAdmin(t.app)).cookie;
  const [client] = await t.app.db.insert(clients).values({ username: "viewer", password_hash: "x", full_name: "A Client" }).returning();
  clientToken = (await createSession(t.app.db, { kind: "client", clientId: client.id, ttlHours: 1 })).token;
});
afterAll(async () => {
  await t?.close();
});

function adminRoutes() {
  const seen = new Set<string>();
  return routes
    .filter((r) => r.url.startsWith("/api/admin/") && r.method !== "HEAD" && !OPEN.has(`${r.method} ${r.url}`))
    .filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A concrete URL for a route pattern: each :param a fresh UUID (names no row), '*' a word. */
const concrete = (url: string) => url.replace(/:[A-Za-z_]\w*(\([^)]*\))?/g, () => randomUUID()).replace(/\*/g, "x");

const call = (method: string, url: string, cookie?: string) =>
  t.app.inject({
    method: method as "GET",
    url: concrete(url),
    headers: cookie ? { origin: "http://localhost:8080", cookie } : {},
    ...(method === "GET" || method === "DELETE" ? {} : { payload: {} }),
  });

describe("admin authorisation matrix", () => {
  it("finds the admin routes (this module's and any added later)", () => {
    const keys = adminRoutes().map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      "GET /api/admin/packages",
      "POST /api/admin/packages",
      "PATCH /api/admin/packages/:id",
      "DELETE /api/admin/admins/:id",
      "POST /api/admin/password",
      "PUT /api/admin/branding",
      "GET /api/admin/outbox",
      "POST /api/admin/status/check",
    ]) {
      expect(keys).toContain(expected);
    }
    expect(keys.length).toBeGreaterThan(60);
  });

  it("anonymous callers get 401 on every admin route", async () => {
    for (const route of adminRoutes()) {
      const res = await call(route.method, route.url);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().error.code, `${route.method} ${route.url}`).toBe("unauthorized");
    }
  });

  it("a client session gets 401 on every admin route, in its own cookie or in the admin's", async () => {
    const cookie = `${CLIENT_COOKIE}=${clientToken}; ${ADMIN_COOKIE}=${clientToken}`;
    for (const route of adminRoutes()) {
      const res = await call(route.method, route.url, cookie);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("an admin gets through on every admin route", async () => {
    for (const route of adminRoutes()) {
      const res = await call(route.method, route.url, adminCookie);
      expect([401, 403], `${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 200)}`).not.toContain(res.statusCode);
      expect(res.statusCode, `${route.method} ${route.url} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});
