// The authorisation matrix, generated from the routes the app registers (an onRoute hook, so a
// route any module adds later is covered without editing this file): every /api route × an
// anonymous caller, client A, client B's resources asked for by A, a suspended client and an
// admin, against the expectation for its kind. The kinds go by path (EXPECTATIONS below); a
// route that fits none fails the test by name, so a new route cannot slip in unclassified.
import { randomUUID } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPartnerSession, PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import { ADMIN_COOKIE, CLIENT_COOKIE, createSession } from "@/server/auth/sessions";
import { capturedPayments, clients, contentRequests, resellerLines, resellers } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

const routes = vi.hoisted(() => [] as { method: string; url: string }[]);

// A first "module" that runs in the root context (skip-override, as fastify-plugin does) and
// records every route registered after it.
vi.mock("../modules/index", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/server/modules/index")>();
  const collector: FastifyPluginAsync = async (app) => {
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? route.path });
    });
  };
  Object.assign(collector, { [Symbol.for("skip-override")]: true });
  return { routeModules: [collector, ...original.routeModules] };
});

type Kind =
  /** anyone: never 401/403, never 5xx */
  | "public"
  /** a signed request from a provider (webhooks): refused unsigned, whoever calls */
  | "signed"
  /** admins only: 401 for everyone else, clients included */
  | "admin"
  /** a client's own: 401 signed out (an admin session is no client session), 403 while suspended */
  | "client"
  /** open by nature: signing in and out, asking for a reset */
  | "open"
  /** answered as a stream (SSE, the speed test's bytes): classified, called in their own tests */
  | "stream"
  /** a partner's own (sub-resellers, issue 45): 401 signed out, to admins and to clients */
  | "partner";

/** By path: the first rule that matches names the route's kind. */
const EXPECTATIONS: { match: (key: string) => boolean; kind: Kind }[] = [
  { match: (k) => /^(POST \/api\/admin\/(login|logout)|GET \/api\/admin\/session)$/.test(k), kind: "open" },
  // the WhatsApp inbox (issue 26): conversations, a thread (marks it read), the unread count, a reply
  {
    match: (k) => /^(GET \/api\/admin\/inbox(\/unread|\/:number)?|POST \/api\/admin\/inbox\/:number\/reply)$/.test(k),
    kind: "admin",
  },
  // the owner's "Mark all sent" for one person's waiting WhatsApp messages (issue 25)
  { match: (k) => k === "POST /api/admin/outbox/mark-sent", kind: "admin" },
  { match: (k) => k.includes(" /api/admin/"), kind: "admin" },
  { match: (k) => /^POST \/api\/client\/(login|logout|password-reset\/request|password-reset\/confirm)$/.test(k), kind: "open" },
  { match: (k) => k.includes(" /api/client/"), kind: "client" },
  // the partner portal (issue 45): signing in and out, and choosing a password from the invite link
  { match: (k) => /^POST \/api\/partner\/(login|logout|password)$/.test(k), kind: "open" },
  { match: (k) => k.includes(" /api/partner/"), kind: "partner" },
  // provider notifications: the card webhook, PayFast's ITN, Ozow's and Yoco's (issue 29)
  {
    match: (k) =>
      /^(POST \/api\/payments\/(webhook\/|payfast\/itn$|ozow\/notify$|yoco\/webhook$)|(GET|POST) \/api\/whatsapp\/webhook)/.test(k),
    kind: "signed",
  },
  // instant free trials (issue 27): the result screen, the code and a new code — anyone holding the trial's id
  { match: (k) => /^(GET \/api\/trials\/:id|POST \/api\/trials\/:id\/(verify|resend))$/.test(k), kind: "public" },
  // the one-tap pay link (issue 27 item 4): anyone holding the signed token, for that token's client only
  { match: (k) => /^(GET \/api\/pay-links\/:token|POST \/api\/pay-links\/:token\/pay)$/.test(k), kind: "public" },
  { match: (k) => /^(GET \/api\/events|GET \/api\/speedtest\/download|POST \/api\/speedtest\/upload)$/.test(k), kind: "stream" },
  {
    match: (k) =>
      /^(GET|POST) \/api\/(packages|specials|banners|settings|downloads|testimonials|images|content|branding|manifest\.webmanifest|notices|releases|status|kb|trial-availability|orders|interest|speedtest|payments|payment-providers|health|invoices)(\/|$)/.test(
        k,
      ),
    kind: "public",
  },
];

/**
 * While suspended a client reaches only these (the portal shows the suspended page; renew says why
 * not): and their privacy rights, which hold whatever their standing (POPIA s23, s24; issue 46).
 */
const SUSPENDED_ALLOWED = new Set([
  "GET /api/client/session",
  "POST /api/client/renew",
  "GET /api/client/data-export",
  "GET /api/client/data-requests",
  "POST /api/client/data-requests",
  "POST /api/client/erasure-request",
  "POST /api/client/correction-request",
]);

let t: TestApp;
let adminCookie: string;
let clientA: string;
let suspended: string;
/** client B's own rows, by the route parameter that names them */
const bOwns: Record<string, string> = {};
let partnerA: string;
let suspendedPartner: string;
/** partner B's own rows, by the route parameter that names them */
const partnerBOwns: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000, LOGIN_LIMIT_PER_MIN: 100_000 }, { seed: false });
  adminCookie = (await signedInAdmin(t.app)).cookie;
  const [a, b, s] = await t.app.db
    .insert(clients)
    .values([
      { username: "matrix-a", password_hash: "x", full_name: "Client A", status: "active" },
      { username: "matrix-b", password_hash: "x", full_name: "Client B", status: "active" },
      { username: "matrix-s", password_hash: "x", full_name: "Suspended", status: "suspended" },
    ])
    .returning();
  const session = async (clientId: string) =>
    `${CLIENT_COOKIE}=${(await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 })).token}`;
  clientA = await session(a.id);
  suspended = await session(s.id);
  // Rows of B's that a client route could name: a paid payment (its receipt), a content request.
  await t.app.db.insert(capturedPayments).values({
    provider: "manual",
    external_transaction_id: "MATRIX-B-1",
    amount: 650,
    package_name: "Month to Month",
    client_id: b.id,
    status: "paid",
    paid_at: new Date(),
  });
  const [request] = await t.app.db.insert(contentRequests).values({ client_id: b.id, title: "B's request" }).returning();
  bOwns.ref = "MATRIX-B-1";
  bOwns.id = request.id;
  // Partners (sub-resellers): A signed in, B with a line of their own, one suspended.
  const [pa, pb, ps] = await t.app.db
    .insert(resellers)
    .values([
      { name: "Partner A", email: "pa@example.test", username: "matrix-pa" },
      { name: "Partner B", email: "pb@example.test", username: "matrix-pb" },
      { name: "Partner S", email: "ps@example.test", username: "matrix-ps", status: "suspended" },
    ])
    .returning();
  const partnerSession = async (id: string) => `${PARTNER_COOKIE}=${(await createPartnerSession(t.app.db, id, 1)).token}`;
  partnerA = await partnerSession(pa.id);
  suspendedPartner = await partnerSession(ps.id);
  const [line] = await t.app.db
    .insert(resellerLines)
    .values({ reseller_id: pb.id, request_key: "matrix-pb-line", name: "MATRIX-PB-CUSTOMER", status: "done" })
    .returning();
  partnerBOwns.id = line.id;
});
afterAll(async () => {
  await t?.close();
});

function apiRoutes() {
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (!r.url.startsWith("/api/") || r.method === "HEAD" || r.method === "OPTIONS" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const kindOf = (key: string): Kind | undefined => EXPECTATIONS.find((e) => e.match(key))?.kind;

/** A concrete URL: each :param B's row where B has one by that name, else a fresh UUID; '*' a word. */
const concrete = (url: string, rows: Record<string, string> = {}) =>
  url.replace(/:([A-Za-z_]\w*)(\([^)]*\))?/g, (_all, name: string) => rows[name] ?? randomUUID()).replace(/\*/g, "x");

const call = (method: string, url: string, cookie?: string, rows?: Record<string, string>) =>
  t.app.inject({
    method: method as "GET",
    url: concrete(url, rows),
    headers: cookie ? { origin: "http://localhost:8080", cookie } : { origin: "http://localhost:8080" },
    ...(method === "GET" || method === "DELETE" ? {} : { payload: {} }),
  });

const byKind = (kind: Kind) => apiRoutes().filter((r) => kindOf(`${r.method} ${r.url}`) === kind);
const label = (r: { method: string; url: string }, status?: number, body?: string) =>
  `${r.method} ${r.url}${status ? ` → ${status} ${body?.slice(0, 160) ?? ""}` : ""}`;

describe("the authorisation matrix (every registered /api route)", () => {
  it("classifies every route: a new route without an expectation fails here, by name", () => {
    const unclassified = apiRoutes()
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !kindOf(key));
    expect(unclassified, "add these routes' kind to EXPECTATIONS in src/server/security/authz-matrix.test.ts").toEqual([]);
    expect(byKind("admin").length).toBeGreaterThan(60);
    expect(byKind("client").length).toBeGreaterThan(10);
    expect(byKind("public").length).toBeGreaterThan(20);
  });

  it("admin routes: 401 to anyone signed out and to clients (even a client token in the admin cookie); admins get through", async () => {
    const clientInAdminCookie = `${clientA}; ${ADMIN_COOKIE}=${clientA.split("=")[1]}`;
    for (const route of byKind("admin")) {
      for (const cookie of [undefined, clientA, clientInAdminCookie, partnerA]) {
        const res = await call(route.method, route.url, cookie);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBe(401);
      }
      const res = await call(route.method, route.url, adminCookie);
      expect([401, 403], label(route, res.statusCode, res.body)).not.toContain(res.statusCode);
      expect(res.statusCode, label(route, res.statusCode, res.body)).toBeLessThan(500);
    }
  });

  it("client routes: 401 signed out or with only an admin session; 403 while suspended; client A gets through", async () => {
    for (const route of byKind("client")) {
      for (const cookie of [undefined, adminCookie, partnerA]) {
        const res = await call(route.method, route.url, cookie);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBe(401);
      }
      const own = await call(route.method, route.url, clientA);
      expect([401, 403], label(route, own.statusCode, own.body)).not.toContain(own.statusCode);
      expect(own.statusCode, label(route, own.statusCode, own.body)).toBeLessThan(500);
      const whileSuspended = await call(route.method, route.url, suspended);
      if (!SUSPENDED_ALLOWED.has(`${route.method} ${route.url}`)) {
        expect(whileSuspended.statusCode, label(route, whileSuspended.statusCode, whileSuspended.body)).toBe(403);
      }
    }
  });

  it("client A asking for client B's rows by their ids gets 404, never B's data", async () => {
    const named = byKind("client").filter((r) => /:(ref|id)\b/.test(r.url) && r.method === "GET");
    expect(named.length).toBeGreaterThan(0);
    for (const route of named) {
      const res = await call(route.method, route.url, clientA, bOwns);
      expect(res.statusCode, label(route, res.statusCode, res.body)).toBe(404);
      expect(res.body).not.toContain("MATRIX-B-1");
    }
  });

  it("partner routes: 401 signed out, to admins, to clients and to a suspended partner; partner A gets through", async () => {
    expect(byKind("partner").length).toBeGreaterThan(1);
    for (const route of byKind("partner")) {
      for (const cookie of [undefined, adminCookie, clientA, suspendedPartner, `${PARTNER_COOKIE}=${clientA.split("=")[1]}`]) {
        const res = await call(route.method, route.url, cookie);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBe(401);
      }
      const own = await call(route.method, route.url, partnerA);
      expect([401, 403], label(route, own.statusCode, own.body)).not.toContain(own.statusCode);
      expect(own.statusCode, label(route, own.statusCode, own.body)).toBeLessThan(500);
    }
  });

  it("partner A asking for partner B's rows by their ids gets 404, never B's data", async () => {
    for (const route of byKind("partner").filter((r) => /:id\b/.test(r.url) && r.method === "GET")) {
      const res = await call(route.method, route.url, partnerA, partnerBOwns);
      expect(res.statusCode, label(route, res.statusCode, res.body)).toBe(404);
      expect(res.body).not.toContain("MATRIX-PB-CUSTOMER");
    }
  });

  it("public routes answer anyone (never 401/403, never 5xx), signed in or not", async () => {
    for (const route of byKind("public")) {
      for (const cookie of [undefined, clientA, adminCookie]) {
        const res = await call(route.method, route.url, cookie);
        expect([401, 403], label(route, res.statusCode, res.body)).not.toContain(res.statusCode);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBeLessThan(500);
      }
    }
  });

  it("webhooks refuse an unsigned call, whoever makes it (a session is no signature)", async () => {
    for (const route of byKind("signed")) {
      for (const cookie of [undefined, adminCookie]) {
        const res = await call(route.method, route.url, cookie);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label(route, res.statusCode, res.body)).toBeLessThan(500);
      }
    }
  });
});
