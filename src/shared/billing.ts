// Pure billing rules (issue 18; docs/decisions/007-billing-documents.md). Prices are
// VAT-inclusive rand held as integer cents; every figure here is integer cents.

/** Above this VAT-inclusive amount a full tax invoice is required (buyer address and VAT number). */
export const FULL_TAX_INVOICE_ABOVE_CENTS = 500_000; // R5,000

export type VatBreakdown = { excl: number; vat: number; incl: number };

/**
 * Splits a VAT-inclusive amount: VAT = round(incl × rate / (100 + rate)), half up;
 * excl = incl − VAT, so the three always add up exactly.
 */
export function vatBreakdown(inclCents: number, ratePercent: number): VatBreakdown {
  if (!Number.isInteger(inclCents) || inclCents < 0) throw new RangeError(`Not an amount in cents: ${inclCents}`);
  if (!Number.isFinite(ratePercent) || ratePercent < 0 || ratePercent > 100) throw new RangeError(`Not a VAT rate: ${ratePercent}`);
  // Rates may carry decimals (e.g. 15.5): scale to integers so the division is exact before rounding.
  const scale = 10_000;
  const rate = Math.round(ratePercent * scale);
  const numerator = inclCents * rate;
  const denominator = 100 * scale + rate;
  // Half up on non-negative integers: floor((2n + d) / 2d).
  const vat = Math.floor((2 * numerator + denominator) / (2 * denominator));
  return { excl: inclCents - vat, vat, incl: inclCents };
}

export type InvoiceKind = "tax-full" | "tax-abridged" | "invoice";

export const INVOICE_KIND_TITLES: Record<InvoiceKind, string> = {
  "tax-full": "Tax Invoice",
  "tax-abridged": "Tax Invoice",
  invoice: "Invoice",
};

/** Which document a sale needs: no VAT vendor → plain invoice; above R5,000 incl → full tax invoice; else abridged. */
export function invoiceKind(inclCents: number, vatVendor: boolean): InvoiceKind {
  if (!vatVendor) return "invoice";
  return inclCents > FULL_TAX_INVOICE_ABOVE_CENTS ? "tax-full" : "tax-abridged";
}

/** A South African VAT number: 10 digits starting with 4 (spaces ignored). */
export function isSaVatNumber(value: string): boolean {
  return /^4\d{9}$/.test(value.replace(/\s+/g, ""));
}

export const VAT_NUMBER_MESSAGE = "A VAT number is 10 digits starting with 4.";

/** 'INV-', 1 → 'INV-000001'. Numbers past 999999 keep all their digits. */
export function formatDocumentNumber(prefix: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`Not a document number: ${n}`);
  return `${prefix}${String(n).padStart(6, "0")}`;
}
