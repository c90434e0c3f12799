import { describe, expect, it } from "vitest";
import { formatRand, fromCents, toCents } from "./money";

describe("formatRand — spec §1 'R{price}', one format with comma thousands", () => {
  it.each([
    [650, "R650"], // §9 order form: Month to Month 650
    [1650, "R1,650"], // §9 order form: 3 Months 1650
    [3150, "R3,150"],
    [5999, "R5,999"],
    [10999, "R10,999"], // §9 order form: 24 Months 10999
    [200, "R200"], // §9 fallback: Month to Month R200
    [0, "R0"],
    [199.5, "R199.50"],
    [199.99, "R199.99"],
    [1234567.8, "R1,234,567.80"],
    [199.999, "R200"], // rounds to whole cents first
    [0.05, "R0.05"],
    [999999, "R999,999"],
    [1000000, "R1,000,000"],
    [-1650.5, "-R1,650.50"],
    [-150, "-R150"],
  ])("%s → %s", (value, text) => {
    expect(formatRand(value)).toBe(text);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])("shows %s as R— rather than a wrong amount", (value) => {
    expect(formatRand(value)).toBe("R—");
  });
});

describe("toCents — integer cents, half away from zero", () => {
  it.each([
    [100, 10000], // docs/architecture.md, "Integrations": R100 is 10000
    [650, 65000],
    [199.5, 19950],
    [1.005, 101], // a float stored as 1.00499… still rounds as typed
    [-1.005, -101],
    [0.125, 13],
    [-0.125, -13],
    [0.1 + 0.2, 30],
    [-0, 0],
  ])("%s → %s", (rand, cents) => {
    expect(Object.is(toCents(rand), cents)).toBe(true);
  });

  it("refuses non-finite amounts", () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
  });
});

describe("fromCents", () => {
  it.each([
    [10000, 100],
    [19950, 199.5],
    [0, 0],
  ])("%s → %s", (cents, rand) => {
    expect(fromCents(cents)).toBe(rand);
  });

  it("round-trips with toCents", () => {
    for (const rand of [0.01, 0.1, 19.99, 650, 10999, 999999.99]) expect(fromCents(toCents(rand))).toBe(rand);
  });

  it("refuses fractional cents", () => {
    expect(() => fromCents(10.5)).toThrow(RangeError);
  });
});
