// PostgreSQL only: the app survives its database connections being cut under load (every
// in-flight request is answered 2xx or 503, never 500, and the process does not crash on a
// checked-out client's 'error' event), and several processes starting together on one empty
// database migrate and seed one after another (an advisory lock), not at once.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { openDatabase } from "./client";
import { packages } from "./schema";
import { seedIfEmpty } from "./seed";

describe.skipIf(!onPostgres())("when PostgreSQL drops connections", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 1_000_000 }, { seed: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers every request 2xx or 503 while its backends are terminated every 100 ms, and keeps running", async () => {
    const url = t.database.url as string;
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    const statuses: number[] = [];
    const until = Date.now() + 2_500;
    let kills = 0;
    const killing = (async () => {
      while (Date.now() < until) {
        const result = await killer.query(
          "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        );
        kills += Number(result.rows[0].n);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    let n = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (Date.now() < until) {
        const i = ++n;
        const response = await t.app.inject({
          method: "POST",
          url: "/api/interest",
          payload: {
            firstName: "Load",
            lastName: `Test ${i}`,
            email: `load${i}@example.co.za`,
            whatsapp: `0825${String(i).padStart(6, "0")}`,
          },
          remoteAddress: `10.99.${Math.floor(i / 250) % 250}.${i % 250}`,
        });
        statuses.push(response.statusCode);
        // gone (unavailable) or, while the pool reconnects under this load, every connection busy
        if (response.statusCode === 503) expect(response.json().error.code).toMatch(/^(unavailable|busy)$/);
      }
    });
    await Promise.all([killing, ...load]);
    await killer.end();
    expect(kills).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    // And afterwards it simply works again.
    const after = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(after.statusCode).toBe(200);
  });

  it("answers 503 'busy' with Retry-After, not 500, when every pooled connection stays taken past the pool's wait", async () => {
    // The test app's pool has 5 connections: five long transactions take them all.
    const held = Array.from({ length: 5 }, () => t.app.db.transaction(async (tx) => tx.execute(sql`select pg_sleep(6.5)`)));
    // All five are asleep in the database (read from a connection of the test's own, outside the pool).
    const watcher = new pg.Client({ connectionString: t.database.url as string });
    await watcher.connect();
    const asleep = async () =>
      Number(
        (
          await watcher.query(
            "select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query like '%pg_sleep(6.5)%'",
          )
        ).rows[0].n,
      );
    await expect.poll(asleep, { timeout: 5_000, interval: 20, message: "the five long transactions hold the pool" }).toBe(5);
    await watcher.end();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/interest",
      payload: { firstName: "Busy", lastName: "Shop", email: "busy@example.co.za", whatsapp: "0825000999" },
      remoteAddress: "10.98.0.1",
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe("busy");
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    await Promise.all(held);
    // Once they are done, the same request goes through.
    const again = await t.app.inject({
      method: "POST",
      url: "/api/interest",
      payload: { firstName: "Busy", lastName: "Shop", email: "busy@example.co.za", whatsapp: "0825000999" },
      remoteAddress: "10.98.0.1",
    });
    expect(again.statusCode).toBe(201);
  }, 30_000);
});

describe.skipIf(!onPostgres())("several processes starting on one empty database", () => {
  it("migrate and seed one after another: every start succeeds and the demo content is there once", async () => {
    const adminUrl = process.env.TEST_DATABASE_URL as string;
    const name = `sd_race_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const starts = await Promise.all(
        Array.from({ length: 3 }, async () => {
          const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
          await database.exclusive(() => seedIfEmpty(database.db));
          return database;
        }),
      );
      const rows = await starts[0].db.select().from(packages);
      const names = rows.map((p) => p.name);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      for (const database of starts) await database.close();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
