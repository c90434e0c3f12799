// A small CSV writer (RFC 4180: comma separated, CRLF lines, quotes doubled inside quoted
// cells) with the spreadsheet-injection guard: a text cell that a spreadsheet would read as
// a formula (= + - @, or a leading tab / carriage return) is prefixed with an apostrophe.
// No library: the whole format is these few lines.

export type CsvValue = string | number | boolean | Date | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const FORMULA_START = /^[\s]*[=+\-@]|^[\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

const timeFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Africa/Johannesburg",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** '2026-11-22 14:05', South African time: sorts as text and reads in any spreadsheet. */
export function csvDateTime(date: Date): string {
  const parts = Object.fromEntries(timeFormat.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (value instanceof Date) text = csvDateTime(value);
  else if (typeof value === "boolean") text = value ? "yes" : "no";
  else if (typeof value === "number") text = Number.isFinite(value) ? String(value) : "";
  else {
    text = value;
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: a byte-order mark (so Excel reads UTF-8 names right), the header row, the rows. */
export function toCsv<T>(columns: CsvColumn<T>[], rows: T[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
