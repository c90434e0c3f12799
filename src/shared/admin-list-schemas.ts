// The business dashboard's lists (leads, clients, payments, content requests): their value lists,
// and the query each list's route takes (search, filters, dates, sort and page).
import { z } from "zod";
import { tooLong } from "./business-schema-parts";
import { CLIENT_STATUSES } from "./lifecycle";
import { OTHER_PAYMENT_METHODS, PAYMENT_PROVIDER_NAMES } from "./payment-providers";
import { blankToUndefined } from "./schema-parts";

// ---- value lists --------------------------------------------------------------------------

const CLIENT_STATUS_MESSAGE = "Status must be pending, trial, active, grace, expired or suspended";
export const LEAD_STATUSES = ["new", "contacted", "converted", "lost"] as const;
/** trial-again: a free trial asked for with a number or mailbox that had one (answered like any, never started) */
export const LEAD_FORM_TYPES = ["order", "interest", "free-trial", "trial-again"] as const;
export const COMMUNICATION_METHODS = ["whatsapp", "email"] as const;
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "cancelled", "refunded"] as const;
/** What a payment row's provider may be: a registered payment provider (shared/payment-providers.ts), EFT or manual. */
export const PAYMENT_PROVIDERS = [...PAYMENT_PROVIDER_NAMES, ...OTHER_PAYMENT_METHODS] as const;
export const CONTENT_REQUEST_STATUSES = ["new", "in_progress", "added", "declined"] as const;

export type LeadStatus = (typeof LEAD_STATUSES)[number];
export type ContentRequestStatus = (typeof CONTENT_REQUEST_STATUSES)[number];

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 200;
/** `expiring=N` looks at most this many days ahead. */
export const EXPIRING_DAYS_MAX = 365;

// ---- list queries ---------------------------------------------------------------------------

/** 'YYYY-MM-DD' (a South African day) or an ISO date-time. */
const DAY_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
/**
 * Filters take years 2000–2100 only: both the year as written and the year of the instant it
 * names (UTC), so `9999-12-31T23:59:59-14:00` or `0000-01-01` is a 400 on the
 * field instead of reaching the database as a 500 (issue 30).
 */
export const DATE_FILTER_MIN_YEAR = 2000;
export const DATE_FILTER_MAX_YEAR = 2100;
const dateInstant = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
const yearInRange = (year: number) => year >= DATE_FILTER_MIN_YEAR && year <= DATE_FILTER_MAX_YEAR;
const saneDate = (v: string) => yearInRange(Number(v.slice(0, 4))) && yearInRange(new Date(dateInstant(v)).getUTCFullYear());
const dateBound = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(DAY_OR_DATETIME, `${what} must be a date like 2026-11-22`)
      .refine((v) => !Number.isNaN(dateInstant(v)), `${what} is not a real date`)
      .refine((v) => Number.isNaN(dateInstant(v)) || saneDate(v), `${what} must be a date between 2000 and 2100`)
      .optional(),
  );
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(blankToUndefined, z.enum(values, { error: message }).optional());
const NUL_MESSAGE = "Search contains a character that is not allowed.";
// PostgreSQL refuses a NUL character in text: a search carrying one is bad input, not a 500.
const search = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .max(200, tooLong("Search", 200))
    .refine((v) => !v.includes("\u0000"), NUL_MESSAGE)
    .optional(),
);

const paging = <S extends readonly [string, ...string[]]>(sorts: S) => ({
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: "Page must be a number" }).int().min(1, "Page starts at 1").default(1)),
  pageSize: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "Page size must be a number" })
      .int()
      .min(1, "Page size must be at least 1")
      .max(PAGE_SIZE_MAX, `Page size must be ${PAGE_SIZE_MAX} or less`)
      .default(PAGE_SIZE_DEFAULT),
  ),
  sort: z.preprocess(blankToUndefined, z.enum(sorts, { error: `Sort by one of: ${sorts.join(", ")}` }).default("created_at" as S[number])),
  dir: z.preprocess(blankToUndefined, z.enum(["asc", "desc"], { error: "Direction must be asc or desc" }).default("desc")),
});

const range = { from: dateBound("From"), to: dateBound("To") };

export const LEAD_SORTS = ["created_at", "updated_at", "name", "status", "form_type", "package_name"] as const;
export const leadListQuerySchema = z.object({
  ...paging(LEAD_SORTS),
  q: search,
  status: optionalEnum(LEAD_STATUSES, "Status must be new, contacted, converted or lost"),
  form_type: optionalEnum(LEAD_FORM_TYPES, "Form type must be order, interest, free-trial or trial-again"),
  ...range,
});

export const CLIENT_SORTS = ["created_at", "updated_at", "username", "full_name", "status", "subscription_end", "package_name"] as const;
export const clientListQuerySchema = z.object({
  ...paging(CLIENT_SORTS),
  q: search,
  status: optionalEnum(CLIENT_STATUSES, CLIENT_STATUS_MESSAGE),
  /** subscriptions ending within this many days from now (trial and active clients) */
  expiring: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "Expiring must be a number of days" })
      .int("Expiring must be a whole number of days")
      .min(1, "Expiring must be at least 1 day")
      .max(EXPIRING_DAYS_MAX, `Expiring must be ${EXPIRING_DAYS_MAX} days or fewer`)
      .optional(),
  ),
  /** a package id, or a package name (any letter case) */
  package: search,
});

export const PAYMENT_SORTS = ["created_at", "paid_at", "amount", "status", "provider"] as const;
export const paymentListQuerySchema = z.object({
  ...paging(PAYMENT_SORTS),
  q: search,
  status: optionalEnum(PAYMENT_STATUSES, "Status must be pending, paid, failed, cancelled or refunded"),
  provider: optionalEnum(PAYMENT_PROVIDERS, `Provider must be ${PAYMENT_PROVIDERS.slice(0, -1).join(", ")} or manual`),
  /** held: a refund sent to the provider whose answer was lost, its amount held until confirmed */
  refund: optionalEnum(["held"], "Refund must be held"),
  ...range,
});

export const CONTENT_REQUEST_SORTS = ["created_at", "updated_at", "status", "title"] as const;
export const contentRequestListQuerySchema = z.object({
  ...paging(CONTENT_REQUEST_SORTS),
  q: search,
  status: optionalEnum(CONTENT_REQUEST_STATUSES, "Status must be new, in_progress, added or declined"),
});

export type LeadListQuery = z.output<typeof leadListQuerySchema>;
export type ClientListQuery = z.output<typeof clientListQuerySchema>;
export type PaymentListQuery = z.output<typeof paymentListQuerySchema>;
export type ContentRequestListQuery = z.output<typeof contentRequestListQuerySchema>;
