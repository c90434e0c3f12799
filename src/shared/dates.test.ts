import { describe, expect, it } from "vitest";
import { addMonths, calendarDaysBetween, daysBetween, formatDate, formatDateTime, SA_TIME_ZONE, saDay } from "./dates";

describe("formatDate / formatDateTime — docs/architecture.md (House style): 22 Nov 2026, times in SAST (UTC+2)", () => {
  it("uses Africa/Johannesburg", () => {
    expect(SA_TIME_ZONE).toBe("Africa/Johannesburg");
  });

  it.each([
    ["2026-11-22T12:05:00Z", "22 Nov 2026", "22 Nov 2026, 14:05"],
    ["2026-11-22T14:05:00+02:00", "22 Nov 2026", "22 Nov 2026, 14:05"],
    ["2026-11-21T22:30:00Z", "22 Nov 2026", "22 Nov 2026, 00:30"], // already the next day in SA
    ["2026-09-03T07:00:00Z", "3 Sep 2026", "3 Sep 2026, 09:00"], // 'Sep', not ICU's 'Sept'
    ["2026-12-31T21:59:59Z", "31 Dec 2026", "31 Dec 2026, 23:59"],
    ["2026-12-31T22:00:00Z", "1 Jan 2027", "1 Jan 2027, 00:00"],
  ])("%s → %s / %s", (iso, date, dateTime) => {
    expect(formatDate(iso)).toBe(date);
    expect(formatDateTime(iso)).toBe(dateTime);
    expect(formatDate(new Date(iso))).toBe(date);
    expect(formatDateTime(Date.parse(iso))).toBe(dateTime);
  });

  it.each([null, undefined, "", "not a date"])("shows nothing for %j", (value) => {
    expect(formatDate(value)).toBe("");
    expect(formatDateTime(value)).toBe("");
  });
});

describe("saDay — the calendar day in Africa/Johannesburg", () => {
  it.each([
    ["2026-11-22T12:00:00Z", "2026-11-22"],
    ["2026-11-21T21:59:59Z", "2026-11-21"],
    ["2026-11-21T22:00:00Z", "2026-11-22"], // midnight SAST
    ["2026-02-28T23:00:00Z", "2026-03-01"],
  ])("%s → %s", (iso, day) => {
    expect(saDay(iso)).toBe(day);
  });

  it("refuses an invalid date", () => {
    expect(() => saDay("nope")).toThrow(RangeError);
  });
});

describe("addMonths — calendar months in SA time, clamped to the month's last day", () => {
  it.each([
    ["2026-01-15T10:00:00+02:00", 1, "2026-02-15T10:00:00+02:00"],
    ["2026-01-31T10:00:00+02:00", 1, "2026-02-28T10:00:00+02:00"],
    ["2028-01-31T10:00:00+02:00", 1, "2028-02-29T10:00:00+02:00"], // leap year
    ["2026-03-31T10:00:00+02:00", 3, "2026-06-30T10:00:00+02:00"],
    ["2026-11-22T14:05:00+02:00", 12, "2027-11-22T14:05:00+02:00"],
    ["2026-11-22T14:05:00+02:00", 24, "2028-11-22T14:05:00+02:00"],
    ["2026-03-31T10:00:00+02:00", -1, "2026-02-28T10:00:00+02:00"],
    ["2026-05-10T10:00:00+02:00", 0, "2026-05-10T10:00:00+02:00"],
    // 31 Jan 00:30 SAST is still 30 Jan in UTC: the SA day is the one that counts
    ["2026-01-31T00:30:00+02:00", 1, "2026-02-28T00:30:00+02:00"],
  ])("%s + %i months → %s", (start, n, end) => {
    expect(addMonths(start, n).toISOString()).toBe(new Date(end).toISOString());
  });

  it("does not change its argument", () => {
    const start = new Date("2026-01-31T08:00:00Z");
    addMonths(start, 1);
    expect(start.toISOString()).toBe("2026-01-31T08:00:00.000Z");
  });

  it("refuses fractional months", () => {
    expect(() => addMonths(new Date(), 1.5)).toThrow(RangeError);
  });
});

describe("daysBetween — whole days elapsed", () => {
  it.each([
    ["2026-11-01T10:00:00Z", "2026-11-08T10:00:00Z", 7],
    ["2026-11-01T10:00:00Z", "2026-11-08T09:59:59Z", 6],
    ["2026-11-08T10:00:00Z", "2026-11-01T10:00:00Z", -7],
    ["2026-11-01T10:00:00Z", "2026-11-01T23:00:00Z", 0],
    ["2026-11-02T10:00:00Z", "2026-11-01T23:00:00Z", 0],
  ])("%s → %s: %i", (a, b, days) => {
    expect(daysBetween(a, b)).toBe(days);
  });
});

describe("calendarDaysBetween — SA calendar days", () => {
  it.each([
    ["2026-11-02T23:00:00+02:00", "2026-11-04T01:00:00+02:00", 2],
    ["2026-11-02T00:00:00+02:00", "2026-11-02T23:59:00+02:00", 0],
    ["2026-11-04T01:00:00+02:00", "2026-11-02T23:00:00+02:00", -2],
    ["2026-02-27T12:00:00+02:00", "2026-03-01T12:00:00+02:00", 2],
  ])("%s → %s: %i", (a, b, days) => {
    expect(calendarDaysBetween(a, b)).toBe(days);
  });
});
