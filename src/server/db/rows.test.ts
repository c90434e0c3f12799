// The raw-query helper on the real drivers (PGlite, and node-postgres in the PostgreSQL run): the
// rows of a SELECT and of an UPDATE … RETURNING come back as the caller typed them, a statement
// that returns nothing is an empty list, and a result without a row list is refused loudly.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/server/testing";
import { queryRows, rowsOf } from "./rows";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("queryRows", () => {
  it("gives a SELECT's rows, and RETURNING's, as typed; nothing returned is an empty list", async () => {
    const rows = await queryRows<{ n: number; word: string }>(
      database.db,
      sql`SELECT 2::int AS n, 'two' AS word UNION ALL SELECT 3, 'three' ORDER BY n`,
    );
    expect(rows).toEqual([
      { n: 2, word: "two" },
      { n: 3, word: "three" },
    ]);
    await database.db.execute(sql`INSERT INTO site_settings (key, value) VALUES ('rows-test', 'a')`);
    const updated = await queryRows<{ key: string; value: string }>(
      database.db,
      sql`UPDATE site_settings SET value = 'b' WHERE key = 'rows-test' RETURNING key, value`,
    );
    expect(updated).toEqual([{ key: "rows-test", value: "b" }]);
    expect(await queryRows(database.db, sql`DELETE FROM site_settings WHERE key = 'rows-test'`)).toEqual([]);
    await database.db.transaction(async (tx) => {
      expect(await queryRows<{ one: number }>(tx, sql`SELECT 1::int AS one`)).toEqual([{ one: 1 }]);
    });
  });

  it("refuses a result whose rows are not a list", () => {
    expect(() => rowsOf({ rows: "not rows" })).toThrow("A raw query's result has no row list.");
    expect(rowsOf({})).toEqual([]);
  });
});
