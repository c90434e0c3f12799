// Issue 30, item 7 (the smaller findings): a suspended client cannot subscribe to status updates
// through POST /api/status/subscribe (403, as the portal's toggle); GET /api/admin/backup answers
// only a request from our own pages (a cross-site navigation carrying the admin's cookie gets a
// 403 and no dump); billing details lose control characters and bidi overrides; the pool's error
// log carries the message and code only, never the connection.
import { eq } from "drizzle-orm";
import pg from "pg";
import { stdSerializers } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, poolErrorSummary } from "@/server/db/client";
import { auditLog, clients, outbox, statusSubscribers } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { clientSession } from "@/server/modules/admin-business/test-admin";
import { CROSS_SITE_BACKUP_MESSAGE } from "@/server/modules/admin-ops/routes";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";

const ORIGIN = "http://localhost:8080";
let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000, PUBLIC_URL: ORIGIN }, { seed: false });
  adminCookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

describe("a suspended client and status updates", () => {
  it("is refused 403 suspended by POST /api/status/subscribe, with or without an address, and nothing is written", async () => {
    const c = await makeClient(t.app, { username: "suspended-subscriber", email: "susp@example.co.za", status: "suspended" });
    const { cookie } = await clientSession(t.app, c.id);
    for (const payload of [{}, { email: "susp-other@example.co.za" }]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/status/subscribe",
        payload,
        cookies: cookie,
        headers: { origin: ORIGIN },
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().error.code).toBe("suspended");
    }
    expect(await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.client_id, c.id))).toHaveLength(0);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, "susp-other@example.co.za"))).toHaveLength(0);
    // The same client, active again, subscribes as before.
    await t.app.db.update(clients).set({ status: "active" }).where(eq(clients.id, c.id));
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/status/subscribe",
      payload: {},
      cookies: cookie,
      headers: { origin: ORIGIN },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe("GET /api/admin/backup from another site", () => {
  const backup = (headers: Record<string, string | undefined>) =>
    t.app.inject({ method: "GET", url: "/api/admin/backup", headers: { ...(headers as Record<string, string>), cookie: adminCookie } });
  const backups = async () => (await t.app.db.select().from(auditLog).where(eq(auditLog.action, "backup"))).length;

  it("refuses a cross-site or same-site request, and one with no Origin/Referer of ours, without dumping anything", async () => {
    const before = await backups();
    for (const headers of [
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      { "sec-fetch-site": "same-site" },
      { referer: "https://evil.example/page" },
      { origin: "https://evil.example" },
      { origin: "null" },
      {},
    ]) {
      const res = await backup(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.message).toBe(CROSS_SITE_BACKUP_MESSAGE);
    }
    expect(await backups()).toBe(before);
  });

  it("still answers the dashboard's download link (same-origin), and an address the admin typed (none)", async () => {
    for (const headers of [
      { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" },
      { "sec-fetch-site": "none" },
      { referer: `${ORIGIN}/admin/backups` },
    ]) {
      const res = await backup(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(onPostgres() ? 409 : 200);
    }
  }, 60_000);
});

describe("billing details", () => {
  it("drops control characters and bidi overrides (U+202A–U+202E, U+2066–U+2069); the address keeps its line breaks", async () => {
    const c = await makeClient(t.app, { username: "bidi-billing", status: "active" });
    const { cookie } = await clientSession(t.app, c.id);
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/client/billing-details",
      payload: { company: "\u202EAcme\u0007 (Pty)\u2066 Ltd\u202C\r\nEvil", address: "3 Dock\u001B Road\r\nCape Town\u2069\u202A\t8001" },
      cookies: cookie,
      headers: { origin: ORIGIN },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ company: "Acme (Pty) Ltd Evil", address: "3 Dock Road\nCape Town 8001" });
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, c.id));
    for (const value of [row.billing_company, row.billing_address]) {
      expect(value).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
      expect(value.replaceAll("\n", "")).not.toMatch(/\p{Cc}/u);
    }
    // Only bidi controls: nothing left, so nothing is kept.
    const blank = await t.app.inject({
      method: "PUT",
      url: "/api/client/billing-details",
      payload: { company: "\u202E\u202C" },
      cookies: cookie,
      headers: { origin: ORIGIN },
    });
    expect(blank.json().data.company).toBe("");
  });
});

describe("the pool's error log", () => {
  it("keeps the message and code of a pooled connection's error, not the connection", () => {
    const error = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
      client: { connectionParameters: { password: "s3cret-db-password", host: "db" }, _queryable: false },
    });
    const logged = JSON.stringify(stdSerializers.err(poolErrorSummary(error)));
    expect(logged).toContain("terminating connection due to administrator command");
    expect(logged).toContain("57P01");
    expect(logged).not.toContain("s3cret-db-password");
    expect(logged).not.toContain("connectionParameters");
  });

  it.skipIf(!onPostgres())("logs a terminated idle connection by message and code only (PostgreSQL)", async () => {
    const url = new URL(t.database.url as string);
    url.searchParams.set("application_name", "sd-pool-error-test");
    const seen: unknown[] = [];
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2, onPoolError: (e) => seen.push(e) });
    try {
      await database.ping();
      const killer = new pg.Client({ connectionString: t.database.url });
      await killer.connect();
      await killer.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'sd-pool-error-test'");
      await killer.end();
      await eventually(() => expect(seen.length).toBeGreaterThan(0), 5000);
      const logged = JSON.stringify(stdSerializers.err(seen[0] as Error));
      expect(logged).not.toContain("connectionParameters");
      expect(Object.keys(seen[0] as object).filter((k) => k !== "code" && k !== "name")).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
