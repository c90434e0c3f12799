import { describe, expect, it } from "vitest";
import { formatDocumentNumber, invoiceKind, isSaVatNumber, vatBreakdown } from "./billing";

describe("vatBreakdown", () => {
  it.each([
    // incl, rate, vat, excl
    [11500, 15, 1500, 10000], // R115 → R100 + R15 exactly
    [100, 15, 13, 87], // 13.04 → 13
    [23, 15, 3, 20], // 3.0 exactly
    [4, 15, 1, 3], // 0.5217 → 1
    [1, 15, 0, 1], // 0.1304 → 0
    [69000, 15, 9000, 60000],
    [19900, 15, 2596, 17304], // 2595.65 → 2596
    [500000, 15, 65217, 434783], // 65217.39 → 65217
    [0, 15, 0, 0],
    [11500, 0, 0, 11500],
    [21, 5, 1, 20], // 1.0 exactly
    [42, 100, 21, 21], // exactly half of incl
    [3, 100, 2, 1], // 1.5 → 2 (half up)
    [1010, 1, 10, 1000],
    [5, 25, 1, 4], // 1.0
    [7, 40, 2, 5], // 2.0
    [9, 50, 3, 6], // 3.0
    [3, 50, 1, 2], // 1.0
    [1, 100, 1, 0], // 0.5 → 1 (half up)
  ])("R%i cents at %i%% → VAT %i, excl %i", (incl, rate, vat, excl) => {
    expect(vatBreakdown(incl, rate)).toEqual({ excl, vat, incl });
  });

  it("always adds up", () => {
    for (let incl = 0; incl < 3000; incl++) {
      const b = vatBreakdown(incl, 15);
      expect(b.excl + b.vat).toBe(incl);
    }
  });

  it("refuses non-integer cents and impossible rates", () => {
    expect(() => vatBreakdown(1.5, 15)).toThrow(RangeError);
    expect(() => vatBreakdown(-1, 15)).toThrow(RangeError);
    expect(() => vatBreakdown(100, -1)).toThrow(RangeError);
    expect(() => vatBreakdown(100, 101)).toThrow(RangeError);
  });
});

describe("invoiceKind", () => {
  it.each([
    [500001, true, "tax-full"],
    [500000, true, "tax-abridged"], // at R5,000 exactly: abridged
    [499999, true, "tax-abridged"],
    [1, true, "tax-abridged"],
    [500001, false, "invoice"],
    [500000, false, "invoice"],
  ] as const)("%i cents, VAT vendor %s → %s", (incl, vendor, kind) => {
    expect(invoiceKind(incl, vendor)).toBe(kind);
  });
});

describe("isSaVatNumber", () => {
  it.each([
    ["4123456789", true],
    ["4 123 456 789", true],
    ["5123456789", false],
    ["412345678", false],
    ["41234567890", false],
    ["412345678a", false],
    ["", false],
  ])("%s → %s", (value, ok) => {
    expect(isSaVatNumber(value)).toBe(ok);
  });
});

describe("formatDocumentNumber", () => {
  it.each([
    ["INV-", 1, "INV-000001"],
    ["CN-", 42, "CN-000042"],
    ["INV-", 999999, "INV-999999"],
    ["INV-", 1234567, "INV-1234567"],
    ["", 7, "000007"],
  ])("%s + %i → %s", (prefix, n, out) => {
    expect(formatDocumentNumber(prefix, n)).toBe(out);
  });

  it("refuses zero, negatives and fractions", () => {
    expect(() => formatDocumentNumber("INV-", 0)).toThrow(RangeError);
    expect(() => formatDocumentNumber("INV-", -1)).toThrow(RangeError);
    expect(() => formatDocumentNumber("INV-", 1.5)).toThrow(RangeError);
  });
});
