// The rows of a raw query (`db.execute(sql`…`)`), typed once here instead of a cast at every
// call. Drizzle types `execute` per driver (node-postgres and PGlite answer different result
// shapes, both with `rows`), so the Db both share cannot say what comes back; the caller, who
// wrote the SELECT or RETURNING, names the row type.
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/** Anything that runs a raw query: the database or a transaction. */
export type RawExecutor = Pick<Db, "execute">;

/** The rows of a raw query's result (an empty list when the statement returned none). */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (rows === undefined) return [];
  if (!Array.isArray(rows)) throw new TypeError("A raw query's result has no row list.");
  return rows as Row[];
}

/** Runs a raw query and gives back its rows, typed as the caller's SELECT or RETURNING says. */
export async function queryRows<Row = Record<string, unknown>>(executor: RawExecutor, query: SQL): Promise<Row[]> {
  return rowsOf<Row>(await executor.execute(query));
}
