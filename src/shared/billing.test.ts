import { describe, expect, it } from "vitest";
import {
  billingSettingProblem,
  billingSettings,
  COUPON_MESSAGES,
  type CouponState,
  couponDiscount,
  couponProblem,
  DOCUMENT_PREFIX_MESSAGE,
  formatDocumentNumber,
  invoiceKind,
  isSaVatNumber,
  refundRequestSchema,
  VAT_NUMBER_MESSAGE,
  VAT_RATE_MESSAGE,
  vatBreakdown,
} from "./billing";

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

describe("couponDiscount: percentages half up in cents, fixed rand, never more than the price", () => {
  it.each([
    [25000, { kind: "percent", percent_off: 10, amount_off: null }, 2500],
    [65000, { kind: "percent", percent_off: 15, amount_off: null }, 9750],
    // 12.5% of R199.99 = 24.99875 rand → 2499.875 cents → 2500
    [19999, { kind: "percent", percent_off: 12.5, amount_off: null }, 2500],
    [999, { kind: "percent", percent_off: 5, amount_off: null }, 50],
    [25000, { kind: "fixed", percent_off: null, amount_off: 50 }, 5000],
    [25000, { kind: "fixed", percent_off: null, amount_off: 99.99 }, 9999],
    [25000, { kind: "fixed", percent_off: null, amount_off: 300 }, 25000],
  ] as const)("%i cents, %o → %i off", (list, coupon, off) => {
    expect(couponDiscount(list, coupon)).toBe(off);
  });
});

describe("couponProblem", () => {
  const now = new Date("2026-11-23T10:00:00Z");
  const base: CouponState = {
    kind: "percent",
    percent_off: 10,
    amount_off: null,
    is_active: true,
    expires_at: null,
    max_uses: null,
    uses: 0,
    package_id: null,
  };
  const at = { now, packageId: "p1", listCents: 25000, usedByCustomer: false };
  it.each([
    ["a good coupon", base, at, null],
    ["none", null, at, COUPON_MESSAGES.unknown],
    ["switched off", { ...base, is_active: false }, at, COUPON_MESSAGES.unknown],
    ["expired a second ago", { ...base, expires_at: new Date(now.getTime() - 1000) }, at, COUPON_MESSAGES.expired],
    ["expires exactly now", { ...base, expires_at: now }, at, COUPON_MESSAGES.expired],
    ["expires in a second", { ...base, expires_at: new Date(now.getTime() + 1000) }, at, null],
    ["3 of 3 uses gone", { ...base, max_uses: 3, uses: 3 }, at, COUPON_MESSAGES.usedUp],
    ["2 of 3 uses gone", { ...base, max_uses: 3, uses: 2 }, at, null],
    ["another package's", { ...base, package_id: "p2" }, at, COUPON_MESSAGES.otherPackage],
    ["used by this customer", base, { ...at, usedByCustomer: true }, COUPON_MESSAGES.usedBefore],
    ["the whole price off", { ...base, kind: "fixed", percent_off: null, amount_off: 250 }, at, COUPON_MESSAGES.wholePrice],
  ] as const)("%s", (_name, coupon, when, problem) => {
    expect(couponProblem(coupon as CouponState | null, when)).toBe(problem);
  });
});

describe("billing settings", () => {
  it("reads the defaults: not a VAT vendor, 15%, INV- and CN-", () => {
    expect(billingSettings({})).toEqual({ vatVendor: false, vatRate: 15, vatNumber: "", invoicePrefix: "INV-", creditNotePrefix: "CN-" });
    expect(billingSettings({ vat_vendor: "yes", vat_rate: "14", vat_number: "4123 456 789", invoice_prefix: "TAX/" })).toMatchObject({
      vatVendor: true,
      vatRate: 14,
      vatNumber: "4123456789",
      invoicePrefix: "TAX/",
    });
  });
  it.each([
    ["vat_rate", "15", null],
    ["vat_rate", "15.5", null],
    ["vat_rate", "101", VAT_RATE_MESSAGE],
    ["vat_rate", "fifteen", VAT_RATE_MESSAGE],
    ["vat_number", "4123456789", null],
    ["vat_number", "3123456789", VAT_NUMBER_MESSAGE],
    ["invoice_prefix", "INV-", null],
    ["invoice_prefix", "INV 2026", DOCUMENT_PREFIX_MESSAGE],
    ["vat_rate", "", null],
  ])("%s = %j → %s", (key, value, problem) => {
    expect(billingSettingProblem(key, value)).toBe(problem);
  });
});

describe("refundRequestSchema", () => {
  it("names the field at fault", () => {
    const bad = refundRequestSchema.safeParse({ amount: -5, reason: "" });
    expect(bad.success).toBe(false);
    const fields = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
    expect(fields).toEqual({ amount: "Enter an amount above R0", reason: "Please give a reason" });
    expect(refundRequestSchema.safeParse({ reason: "Goodwill", term: "shorten" }).error?.issues[0]).toMatchObject({
      path: ["days"],
      message: "Enter at least 1 day",
    });
  });
});
