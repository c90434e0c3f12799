// Pieces every admin list shares, so a list and its CSV export read the same rows: search
// patterns, South African day bounds, sorting with a stable tiebreak, and paging.
import { type AnyColumn, asc, count, ilike, like, or, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { PAGE_SIZE_DEFAULT } from "@/shared/business-schemas";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";

/** South Africa keeps UTC+2 all year (no daylight saving). */
const SA_OFFSET = "+02:00";
const DAY_MS = 86_400_000;

/** The instant a South African day ('YYYY-MM-DD') begins. */
export function saDayStart(day: string): Date {
  return new Date(`${day}T00:00:00${SA_OFFSET}`);
}

/** `from` and `to` of a list filter: a day means that whole South African day (both ends included). */
export function dateRange(from?: string, to?: string): { from?: Date; toExclusive?: Date } {
  const isDay = (v: string) => v.length === 10;
  return {
    from: from ? (isDay(from) ? saDayStart(from) : new Date(from)) : undefined,
    // A date-time `to` is included too: one millisecond past it is the exclusive bound.
    toExclusive: to ? (isDay(to) ? new Date(saDayStart(to).getTime() + DAY_MS) : new Date(Date.parse(to) + 1)) : undefined,
  };
}

/** A case-insensitive "contains" pattern; the person's % and _ are matched literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The digits to look for in stored WhatsApp numbers (kept as 27…) when the search looks like
 * a phone number: '082 555' finds 27825551234. Null for a search that is not phone-like, so
 * '3 Months' does not match every number containing a 3.
 */
export function phoneSearchDigits(q: string): string | null {
  if (!/^[\d\s+()-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, "");
  if (digits.length < 3) return null;
  // A local number's leading 0 is the 27 stored; a fragment from the middle is kept as typed.
  return digits.startsWith("0") ? normaliseWhatsAppNumber(digits) : digits;
}

/**
 * A list's search box: `q` contained in any of the text columns (case-insensitive), or, when it
 * looks like a phone number, in the stored WhatsApp number.
 */
export function searchCondition(q: string, text: AnyColumn[], whatsapp: AnyColumn): SQL | undefined {
  const pattern = containsPattern(q);
  const digits = phoneSearchDigits(q);
  return or(...text.map((column) => ilike(column, pattern)), digits ? like(whatsapp, containsPattern(digits)) : undefined);
}

/** ORDER BY the chosen column (empty values last either way), then the id so pages never overlap. */
export function ordering(column: AnyColumn, dir: "asc" | "desc", tiebreak: AnyColumn): SQL[] {
  const primary = dir === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
  return [primary, dir === "desc" ? sql`${tiebreak} desc` : asc(tiebreak)];
}

export interface Paging {
  page: number;
  pageSize: number;
}

/** LIMIT/OFFSET of a page; `all` (the CSV export) takes every row. */
export function pageWindow(paging: Paging, all = false): { limit?: number; offset: number } {
  if (all) return { offset: 0 };
  const size = paging.pageSize || PAGE_SIZE_DEFAULT;
  return { limit: size, offset: (paging.page - 1) * size };
}

/**
 * One page of a table's rows and how many rows match in all: the shape of every admin list
 * ({data, total}), read with the two queries running together.
 */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  paging: Paging,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const { limit, offset } = pageWindow(paging);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit ?? PAGE_SIZE_DEFAULT)
      .offset(offset),
    db
      .select({ total: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T["$inferSelect"][], total };
}
