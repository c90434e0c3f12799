// What an audit entry changed, field by field: for an update the fields whose value differs,
// for a create every field after, for a delete every field before. Timestamps the database
// moves on every write (updated_at) are left out of an update's list; they say nothing.
// Moments (ISO date-times, stored in UTC) read as South African time, the owner's clock.
import { formatDateTime } from "@/shared/dates";

export interface DiffRow {
  field: string;
  before: string | null;
  after: string | null;
}

const NOISE = new Set(["updated_at"]);

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** A value as one readable line: a moment in SAST, other text as it is, anything else as JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return ISO_MOMENT.test(value) ? `${formatDateTime(value)} SAST` : value;
  return JSON.stringify(value);
}

export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  const b = isRecord(before) ? before : before === null || before === undefined ? null : { value: before };
  const a = isRecord(after) ? after : after === null || after === undefined ? null : { value: after };
  if (!b && !a) return [];
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const rows: DiffRow[] = [];
  for (const field of keys) {
    const inBefore = b !== null && field in b;
    const inAfter = a !== null && field in a;
    if (b && a && (NOISE.has(field) || JSON.stringify(b[field]) === JSON.stringify(a[field]))) continue;
    rows.push({ field, before: inBefore ? showValue(b?.[field]) : null, after: inAfter ? showValue(a?.[field]) : null });
  }
  return rows;
}
