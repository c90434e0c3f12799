// A row's free-text notes grow by whole lines: the history of what happened to it, never rewritten.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/** The column's notes with `line` added on a new line, trimmed (no leading newline on an empty note). */
export function appendNote(column: AnyColumn, line: string): SQL {
  return sql`trim(${column} || E'\n' || ${line})`;
}
