// Pure billing rules (issue 18; docs/decisions/007-billing-documents.md). Prices are
// VAT-inclusive rand held as integer cents; every figure here is integer cents.
import { z } from "zod";

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

// ---- settings ------------------------------------------------------------------------------------

export const DEFAULT_VAT_RATE = 15;
export const VAT_RATE_MESSAGE = "The VAT rate is a percentage from 0 to 100, e.g. 15";
export const DOCUMENT_PREFIX_MESSAGE = "A prefix is up to 10 letters, digits, dashes or slashes, e.g. INV-";

/** What the billing settings say (keys in site_settings; empty means the default). */
export interface BillingSettings {
  vatVendor: boolean;
  vatRate: number;
  vatNumber: string;
  invoicePrefix: string;
  creditNotePrefix: string;
}

export function billingSettings(settings: Record<string, string>): BillingSettings {
  const rate = Number((settings.vat_rate ?? "").trim());
  return {
    vatVendor: /^(yes|true|1)$/i.test((settings.vat_vendor ?? "").trim()),
    vatRate: (settings.vat_rate ?? "").trim() !== "" && Number.isFinite(rate) && rate >= 0 && rate <= 100 ? rate : DEFAULT_VAT_RATE,
    vatNumber: (settings.vat_number ?? "").replace(/\s+/g, ""),
    invoicePrefix: settings.invoice_prefix?.trim() || "INV-",
    creditNotePrefix: settings.credit_note_prefix?.trim() || "CN-",
  };
}

/** What is wrong with a billing setting's value (null when fine; empty is always fine: the default). */
export function billingSettingProblem(key: string, value: string): string | null {
  const v = value.trim();
  if (v === "") return null;
  if (key === "vat_rate") return /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100 ? null : VAT_RATE_MESSAGE;
  if (key === "vat_number") return isSaVatNumber(v) ? null : VAT_NUMBER_MESSAGE;
  if (key === "invoice_prefix" || key === "credit_note_prefix") return /^[A-Za-z0-9/-]{1,10}$/.test(v) ? null : DOCUMENT_PREFIX_MESSAGE;
  return null;
}

// ---- coupons -------------------------------------------------------------------------------------

export interface CouponTerms {
  kind: "percent" | "fixed";
  percent_off: number | null;
  /** rand */
  amount_off: number | null;
}

/** What a coupon takes off a price in cents: a percentage rounded half up, or a fixed amount; never more than the price. */
export function couponDiscount(listCents: number, coupon: CouponTerms): number {
  const off =
    coupon.kind === "percent"
      ? Math.floor((listCents * (coupon.percent_off ?? 0) * 2 + 100) / 200)
      : Math.round((coupon.amount_off ?? 0) * 100);
  return Math.max(0, Math.min(listCents, off));
}

export const COUPON_MESSAGES = {
  unknown: "That coupon code is not valid.",
  expired: "That coupon has expired.",
  usedUp: "That coupon has been used up.",
  otherPackage: "That coupon is not for this package.",
  usedBefore: "You have already used this coupon.",
  wholePrice: "That coupon cannot be used on this package.",
} as const;

export interface CouponState extends CouponTerms {
  is_active: boolean;
  expires_at: Date | null;
  max_uses: number | null;
  uses: number;
  package_id: string | null;
}

/** Why a coupon cannot be used now for this package by this customer (null: it can). */
export function couponProblem(
  coupon: CouponState | null,
  at: { now: Date; packageId: string; listCents: number; usedByCustomer: boolean },
): string | null {
  if (!coupon?.is_active) return COUPON_MESSAGES.unknown;
  if (coupon.expires_at && coupon.expires_at <= at.now) return COUPON_MESSAGES.expired;
  if (coupon.max_uses !== null && coupon.uses >= coupon.max_uses) return COUPON_MESSAGES.usedUp;
  if (coupon.package_id && coupon.package_id !== at.packageId) return COUPON_MESSAGES.otherPackage;
  if (at.usedByCustomer) return COUPON_MESSAGES.usedBefore;
  if (couponDiscount(at.listCents, coupon) >= at.listCents) return COUPON_MESSAGES.wholePrice;
  return null;
}

// ---- schemas -------------------------------------------------------------------------------------

const blank = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);

/** A coupon code as customers type it: letters, digits and dashes; compared upper-case. */
export const couponCodeSchema = z
  .string({ error: COUPON_MESSAGES.unknown })
  .trim()
  .toUpperCase()
  .max(40, COUPON_MESSAGES.unknown)
  .regex(/^[A-Z0-9-]+$/, COUPON_MESSAGES.unknown);

/**
 * Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): a right-to-left
 * override in a company name turned the rest of an invoice list's row around (issue 30).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** One line: control characters and bidi controls removed (tabs and line breaks become a space). */
export const cleanLine = (v: unknown) =>
  typeof v === "string"
    ? v
        .replace(/[\t\r\n]+/g, " ")
        .replace(/\p{Cc}/gu, "")
        .replace(BIDI_CONTROLS, "")
    : v;
/** Several lines (an address): as cleanLine, but line breaks are kept (as \n). */
export const cleanLines = (v: unknown) =>
  typeof v === "string"
    ? v
        .replace(/\r\n?/g, "\n")
        .replace(/\t/g, " ")
        .replace(/[^\n\P{Cc}]/gu, "")
        .replace(BIDI_CONTROLS, "")
    : v;

/** The buyer's details for the invoice: all optional; a VAT number must have the SA shape. */
export const buyerDetailsFields = {
  company: z.preprocess((v) => blank(cleanLine(v)), z.string().trim().max(120, "Company name must be 120 characters or fewer").optional()),
  address: z.preprocess((v) => blank(cleanLines(v)), z.string().trim().max(300, "Address must be 300 characters or fewer").optional()),
  vatNumber: z.preprocess(
    blank,
    z
      .string()
      .transform((v) => v.replace(/\s+/g, ""))
      .refine(isSaVatNumber, VAT_NUMBER_MESSAGE)
      .optional(),
  ),
};
export const buyerDetailsSchema = z.object(buyerDetailsFields);
export type BuyerDetails = z.output<typeof buyerDetailsSchema>;

/** POST/PATCH /api/admin/coupons */
export const couponInputSchema = z
  .object({
    code: z
      .string({ error: "Please enter a code" })
      .trim()
      .toUpperCase()
      .min(3, "A code is 3 to 40 letters, digits or dashes")
      .max(40, "A code is 3 to 40 letters, digits or dashes")
      .regex(/^[A-Z0-9-]+$/, "A code is 3 to 40 letters, digits or dashes"),
    kind: z.enum(["percent", "fixed"], { error: "Choose percentage or fixed rand off" }),
    percent_off: z.preprocess(
      blank,
      z.coerce
        .number({ error: "Enter a percentage from 1 to 100" })
        .int("Enter a whole percentage")
        .min(1, "Enter a percentage from 1 to 100")
        .max(100, "Enter a percentage from 1 to 100")
        .nullish(),
    ),
    amount_off: z.preprocess(
      blank,
      z.coerce
        .number({ error: "Enter an amount in rand" })
        .positive("Enter an amount in rand above R0")
        .max(100_000, "Enter an amount of at most R100,000")
        .nullish(),
    ),
    package_id: z.preprocess(blank, z.uuid({ error: "Choose a package" }).nullish()),
    expires_at: z.preprocess(blank, z.iso.datetime({ offset: true, error: "Enter a date and time" }).nullish()),
    max_uses: z.preprocess(
      blank,
      z.coerce.number({ error: "Enter a whole number" }).int("Enter a whole number").min(1, "At least 1 use").nullish(),
    ),
    is_active: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "percent" && !v.percent_off)
      ctx.addIssue({ code: "custom", path: ["percent_off"], message: "Enter a percentage from 1 to 100" });
    if (v.kind === "fixed" && !v.amount_off)
      ctx.addIssue({ code: "custom", path: ["amount_off"], message: "Enter an amount in rand above R0" });
  });
export type CouponInput = z.output<typeof couponInputSchema>;

export const REFUND_TOO_MUCH = "That is more than is left to refund on this payment.";

/** POST /api/admin/payments/:id/refund */
export const refundRequestSchema = z
  .object({
    /** rand; the whole amount left when not given */
    amount: z.preprocess(
      blank,
      z.coerce
        .number({ error: "Enter the amount in rand" })
        .positive("Enter an amount above R0")
        .multipleOf(0.01, "Enter rand and cents, e.g. 99.50")
        .optional(),
    ),
    reason: z
      .string({ error: "Please give a reason" })
      .trim()
      .min(3, "Please give a reason")
      .max(500, "A reason must be 500 characters or fewer"),
    /**
     * what happens to the term: 'remove' takes off the time this payment bought (the default for a
     * full refund: the term it paid for ends), 'end' ends it now, 'shorten' takes off `days`, 'keep' leaves it
     */
    term: z.enum(["remove", "end", "shorten", "keep"], { error: "Choose what happens to the subscription" }).optional(),
    days: z.preprocess(
      blank,
      z.coerce
        .number({ error: "Enter a number of days" })
        .int("Enter whole days")
        .min(1, "Enter at least 1 day")
        .max(3660, "Enter at most 3660 days")
        .optional(),
    ),
    /**
     * the owner paid it back outside the provider (its portal, a bank transfer): recorded as a manual
     * refund and the provider is not asked — for a payment its API cannot or would not refund
     */
    by_hand: z.boolean({ error: "Choose whether you paid it back yourself" }).optional(),
    /** for a payment still 'paid' the old way: a note only (kept for the older dashboard call) */
    note: z.string().trim().max(500).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.term === "shorten" && !v.days) ctx.addIssue({ code: "custom", path: ["days"], message: "Enter at least 1 day" });
  });
export type RefundRequest = z.output<typeof refundRequestSchema>;

/** What a refund answers (POST /api/admin/payments/:id/refund → {data}). */
export interface RefundResult {
  credit_note: string;
  amount: number;
  method: "provider" | "manual";
  payment_status: string;
  refunded_amount: number;
  term_change: string;
}

/** GET /api/admin/invoices?month=YYYY-MM (and the CSV) */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** PUT /api/admin/billing/numbering: the next number of each series (never at or below one issued). */
export const numberingSchema = z.object({
  invoice_next: z.coerce.number({ error: "Enter a whole number" }).int("Enter a whole number").min(1, "Numbers start at 1").max(99_999_999),
  credit_note_next: z.coerce
    .number({ error: "Enter a whole number" })
    .int("Enter a whole number")
    .min(1, "Numbers start at 1")
    .max(99_999_999),
});
export type NumberingInput = z.output<typeof numberingSchema>;

/** What the admin and portal lists show of an invoice or credit note. */
export interface BillingDocumentRow {
  type: "invoice" | "credit_note";
  number: string;
  kind: string;
  title: string;
  issued_at: string;
  customer: string;
  client_id: string | null;
  payment_id: string;
  reference: string;
  excl_cents: number;
  vat_cents: number;
  incl_cents: number;
  /** a credit note: the invoice it is against */
  invoice_number?: string;
  reason?: string;
}

/** The rounding rule, printed on every VAT document. */
export const VAT_INCLUSIVE_NOTE = "VAT is included in the price and worked out from it in whole cents, rounded half up.";

/** POST /api/payments/coupon: a coupon checked against a package for the review step. */
export const couponQuoteSchema = z.object({
  packageId: z.uuid({ error: "Please choose a package" }),
  coupon: couponCodeSchema,
  whatsapp: z.preprocess(blank, z.string().trim().max(30).optional()),
  email: z.preprocess(blank, z.string().trim().max(254).optional()),
});
export interface CouponQuote {
  code: string;
  /** rand */
  discount: number;
  price: number;
  list_price: number;
}
