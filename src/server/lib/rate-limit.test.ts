import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
import { startTogether } from "@/server/test-support/race";
import { awayFromMinuteTurn, onPostgres, openTestDatabase, type TestDatabase } from "@/server/testing";
import { AppError } from "./errors";
import { enforce, hit, hitEach, peek, reset } from "./rate-limit";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("database-backed rate limits", () => {
  it("allows up to the limit in a minute, then refuses with a Retry-After", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit(database.db, "t:ip:1", 3));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("counts hits sent together exactly: ten of twenty allowed", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => hit(database.db, "t:ip:2", 10)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it("enforce throws a 429 AppError with retry-after; reset clears the key", async () => {
    await enforce(database.db, [{ key: "t:ip:3", limit: 1 }]);
    const error = await enforce(database.db, [{ key: "t:ip:3", limit: 1, message: "Slow down" }]).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.statusCode).toBe(429);
    expect(error.message).toBe("Slow down");
    expect(Number(error.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    await reset(database.db, "t:ip:3");
    await expect(enforce(database.db, [{ key: "t:ip:3", limit: 1 }])).resolves.toBeUndefined();
  });
});

describe("hitEach: a batch's hits in one statement", () => {
  it("gives each hit the count it would have had on its own, in order, and refuses those past the limit", async () => {
    await awayFromMinuteTurn();
    await hit(database.db, "t:batch:a", 3);
    await hit(database.db, "t:batch:a", 3);
    const results = await hitEach(database.db, ["t:batch:a", "t:batch:b", "t:batch:a", "t:batch:b", "t:batch:a"], 3);
    expect(results.map(({ count, allowed }) => ({ count, allowed }))).toEqual([
      { count: 3, allowed: true },
      { count: 1, allowed: true },
      { count: 4, allowed: false },
      { count: 2, allowed: true },
      { count: 5, allowed: false },
    ]);
    for (const refused of results.filter((result) => !result.allowed)) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Read back: the rows hold every hit.
    expect((await peek(database.db, "t:batch:a")).count).toBe(5);
    expect((await peek(database.db, "t:batch:b")).count).toBe(2);
  });

  it("counts batches sent together on the same keys exactly, each count given once", async () => {
    await awayFromMinuteTurn();
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        hitEach(database.db, i % 2 ? ["t:race:x", "t:race:y"] : ["t:race:y", "t:race:x", "t:race:x"], 100),
      ),
    );
    const counts = (key: string) =>
      batches
        .flatMap((batch, i) => batch.filter((_, j) => (i % 2 ? ["t:race:x", "t:race:y"] : ["t:race:y", "t:race:x", "t:race:x"])[j] === key))
        .map((result) => result.count)
        .sort((a, b) => a - b);
    // x: 4 batches of one and 4 of two = 12 hits; y: 8.
    expect(counts("t:race:x")).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(counts("t:race:y")).toEqual(Array.from({ length: 8 }, (_, i) => i + 1));
    const rows = await database.db.execute(sql`SELECT key, count FROM rate_limits WHERE key LIKE 't:race:%' ORDER BY key`);
    expect(rowsOf<{ key: string; count: number }>(rows).map((row) => [row.key, Number(row.count)])).toEqual([
      ["t:race:x", 12],
      ["t:race:y", 8],
    ]);
  });
});

// Two server processes count through the database: two pools of their own on one PostgreSQL
// database, let go at the same moment (PGlite is one connection, where nothing can race).
describe.runIf(onPostgres())("PostgreSQL (PGlite has one connection: nothing races there): two processes racing", () => {
  const sorted = (results: { count: number }[]) => results.map((r) => r.count).sort((a, b) => a - b);
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it("hits from two processes at the same moment: each count given once, five of ten allowed, both processes counted", async () => {
    const second = await openDatabase({ databaseUrl: database.url, poolSize: 5 });
    try {
      await awayFromMinuteTurn();
      // five hits a process at once (each pool's five connections), all waiting behind the lock, then let go
      const [first, other] = await startTogether(database.url as string, "LOCK TABLE rate_limits IN EXCLUSIVE MODE", 10, () =>
        Promise.all([database.db, second.db].map((db) => Promise.all(Array.from({ length: 5 }, () => hit(db, "t:pg:race", 5))))),
      );
      expect(first).toHaveLength(5);
      expect(other).toHaveLength(5);
      expect(sorted([...first, ...other])).toEqual(upTo(10));
      expect([...first, ...other].filter((r) => r.allowed)).toHaveLength(5);
      expect((await peek(database.db, "t:pg:race")).count).toBe(10);
    } finally {
      await second.close();
    }
  });

  it("batches from two processes at the same moment on the same keys: each count given once, the rows exact", async () => {
    const second = await openDatabase({ databaseUrl: database.url, poolSize: 5 });
    try {
      await awayFromMinuteTurn();
      const keys = (i: number) => (i % 2 ? ["t:pg:x", "t:pg:y"] : ["t:pg:y", "t:pg:x", "t:pg:x"]);
      const sides = await startTogether(database.url as string, "LOCK TABLE rate_limits IN EXCLUSIVE MODE", 8, () =>
        Promise.all([database.db, second.db].map((db) => Promise.all(Array.from({ length: 4 }, (_, i) => hitEach(db, keys(i), 100))))),
      );
      const counts = (key: string) =>
        sorted(sides.flatMap((batches) => batches.flatMap((batch, i) => batch.filter((_, j) => keys(i)[j] === key))));
      // each process: 2 batches of two x and one y, 2 of one x and one y → x 12, y 8 over both
      expect(counts("t:pg:x")).toEqual(upTo(12));
      expect(counts("t:pg:y")).toEqual(upTo(8));
      for (const side of sides) expect(side.flat()).toHaveLength(10);
      expect((await peek(database.db, "t:pg:x")).count).toBe(12);
      expect((await peek(database.db, "t:pg:y")).count).toBe(8);
    } finally {
      await second.close();
    }
  });
});
