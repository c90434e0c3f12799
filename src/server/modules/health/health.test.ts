import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packages } from "@/server/db/schema";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import type { Health } from "@/shared/api";

const packageVersion = (JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8")) as { version: string })
  .version;

let t: TestApp;
const get = (url: string) => t.app.inject({ method: "GET", url });

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  await t.app.db.insert(packages).values({ name: "Month to Month", price: 200, duration: "1 Month" });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/health", () => {
  it("reports the database up, the package version and the uptime; never cached", async () => {
    const res = await get("/api/health?verbose=1&x[]=2");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json() as Health;
    expect(body).toEqual({ status: "ok", database: "up", version: packageVersion, uptime_s: expect.any(Number) });
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
    expect(t.app.cache.size).toBe(0);
  });
});

describe("an unreachable database", () => {
  it.skipIf(onPostgres())("PGlite: a closed database gives 503 on health and on uncached reads", async () => {
    const broken = await createTestApp({}, { seed: false });
    try {
      await broken.database.close();
      const health = await broken.app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode).toBe(503);
      expect((health.json() as Health).database).toBe("down");
      expect((health.json() as Health).status).toBe("degraded");
      const read = await broken.app.inject({ method: "GET", url: "/api/packages" });
      expect(read.statusCode).toBe(503);
      expect(read.headers["retry-after"]).toBe("5");
      expect(read.json()).toEqual({ error: { code: "unavailable", message: expect.any(String) } });
    } finally {
      await broken.close();
    }
  });

  it.skipIf(!onPostgres())("PostgreSQL: refusing connections gives 503, and reads recover when it accepts them again", async () => {
    const url = t.database.url;
    if (!url) throw new Error("the PostgreSQL test database has no URL");
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const refuse = async () => {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
    };
    try {
      expect((await get("/api/packages")).statusCode).toBe(200);
      await refuse();
      await eventually(
        async () => {
          t.app.cache.clear();
          const read = await get("/api/packages");
          expect(read.statusCode).toBe(503);
          expect(read.json()).toEqual({ error: { code: "unavailable", message: expect.any(String) } });
        },
        10_000,
        200,
      );
      const health = await get("/api/health");
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: "degraded", database: "down", version: packageVersion });

      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
      await eventually(
        async () => {
          expect((await get("/api/health")).statusCode).toBe(200);
          const read = await get("/api/packages");
          expect(read.statusCode).toBe(200);
          expect((read.json() as { data: { name: string }[] }).data.map((p) => p.name)).toEqual(["Month to Month"]);
        },
        10_000,
        200,
      );
    } finally {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.end();
    }
  });
});
