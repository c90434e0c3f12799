// Dates as the business reads them (docs/architecture.md, "House style"): '22 Nov 2026', times in South African time.
// South Africa keeps one offset all year (SAST, UTC+2, no daylight saving since 1944), so the
// wall time is plain arithmetic: no Intl time-zone formatter, whose first use costs a phone tens
// of milliseconds of loading time-zone data while the storefront is starting.

export const SA_TIME_ZONE = "Africa/Johannesburg";

export type DateInput = Date | string | number;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 86_400_000;

/** SAST is UTC+2 all year. */
const SA_OFFSET_MS = 2 * 3_600_000;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function toDate(d: DateInput): Date {
  return d instanceof Date ? new Date(d.getTime()) : new Date(d);
}

function valid(d: DateInput | null | undefined): Date | null {
  if (d === null || d === undefined || d === "") return null;
  const date = toDate(d);
  return Number.isNaN(date.getTime()) ? null : date;
}

function required(d: DateInput): Date {
  const date = valid(d);
  if (!date) throw new RangeError(`Not a date: ${String(d)}`);
  return date;
}

/** The calendar date and clock time in Africa/Johannesburg at this instant. */
function wallTime(date: Date): WallTime {
  const wall = new Date(date.getTime() + SA_OFFSET_MS);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** '22 Nov 2026' (the day in South Africa); '' for no date or an invalid one. */
export function formatDate(d: DateInput | null | undefined): string {
  const date = valid(d);
  if (!date) return "";
  const w = wallTime(date);
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year}`;
}

/** '22 Nov 2026, 14:05' in SAST; '' for no date or an invalid one. */
export function formatDateTime(d: DateInput | null | undefined): string {
  const date = valid(d);
  if (!date) return "";
  const w = wallTime(date);
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year}, ${pad(w.hour)}:${pad(w.minute)}`;
}

/** 'YYYY-MM-DD': the calendar day in Africa/Johannesburg (status history, blackout days). */
export function saDay(d: DateInput): string {
  const w = wallTime(required(d));
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * The same wall-clock time n calendar months later in South Africa (n may be negative); a
 * day that the target month lacks becomes its last day (31 Jan + 1 month → 28/29 Feb), so a
 * subscription never spills into the month after. Returns a new Date.
 */
export function addMonths(date: DateInput, n: number): Date {
  if (!Number.isInteger(n)) throw new RangeError(`Months must be a whole number: ${n}`);
  const start = required(date);
  const wall = new Date(start.getTime() + SA_OFFSET_MS);
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth() + n;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const target = Date.UTC(
    y,
    m,
    Math.min(wall.getUTCDate(), lastDay),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
  );
  return new Date(target - SA_OFFSET_MS);
}

/** Whole days elapsed from a to b (negative when b is earlier), truncated toward zero. */
export function daysBetween(a: DateInput, b: DateInput): number {
  return Math.trunc((required(b).getTime() - required(a).getTime()) / DAY_MS) + 0;
}

/** Calendar days from a's South African day to b's (23:00 Mon → 01:00 Wed is 2). */
export function calendarDaysBetween(a: DateInput, b: DateInput): number {
  const day = (d: DateInput) => Date.parse(`${saDay(d)}T00:00:00Z`);
  return Math.round((day(b) - day(a)) / DAY_MS) + 0;
}
