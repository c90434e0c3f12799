import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/server/testing";
import { AppError } from "./errors";
import { enforce, hit, reset } from "./rate-limit";

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

  it("counts concurrent hits exactly (shared between processes through the database)", async () => {
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
