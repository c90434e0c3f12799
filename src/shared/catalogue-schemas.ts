// The admin-written entities of the catalogue (packages, specials, banners, downloads,
// testimonials, notices): a create schema with defaults and a patch schema for each.
import { z } from "zod";
import { SAFE_LINK_PATTERN } from "./links";
import { blankToUndefined, requiredText, tooLong, whenFieldsValid } from "./schema-parts";

// ---- admin-written entities ---------------------------------------------------------------
// Each entity has a create schema (with defaults) and a patch schema (every field optional,
// no defaults: a default inside .partial() would overwrite stored values on PATCH).

/** Rand: 0..1,000,000 with at most two decimals; numeric strings from form inputs are accepted. */
const money = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${what} must be an amount in rand` })
      .min(0, `${what} cannot be negative`)
      .max(1_000_000, `${what} must be R1,000,000 or less`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${what} can have at most two decimals (cents)`),
  );

const sortOrder = z
  .number({ error: "Sort order must be a whole number" })
  .int("Sort order must be a whole number")
  .min(-100_000)
  .max(100_000);
const flag = (what: string) => z.boolean({ error: `${what} must be yes or no` });

// A link: an absolute http(s) address or a path on this site ('/downloads/app.apk'); never
// javascript: or protocol-relative '//host'.
const optionalLink = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${what} must be text` })
      .trim()
      .max(2000, tooLong(what, 2000))
      .regex(SAFE_LINK_PATTERN, `${what} must start with https:// or /`)
      .nullable()
      .optional(),
  );

/** An optional date and time with its zone (ISO 8601); blank or null is left out. */
export const dateTime = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z.iso
      .datetime({ offset: true, error: `${what} must be a date and time with a time zone, e.g. 2026-11-22T14:05:00+02:00` })
      .nullable()
      .optional(),
  );

const windowIsOrdered = (v: { starts_at?: string | null; ends_at?: string | null }) =>
  !v.starts_at || !v.ends_at || Date.parse(v.ends_at) > Date.parse(v.starts_at);
const WINDOW_MESSAGE = { path: ["ends_at"], message: "The end must be after the start", ...whenFieldsValid("starts_at", "ends_at") };
const SPECIAL_PRICE_RULE = {
  path: ["special_price"],
  message: "The special price must be lower than the original price",
  ...whenFieldsValid("original_price", "special_price"),
};

const packageFields = {
  name: requiredText("Please enter a package name", "Package name", 100),
  price: money("Price"),
  duration: requiredText("Please enter a duration, e.g. 1 Month", "Duration", 40),
  duration_months: z
    .number({ error: "Months must be a whole number" })
    .int("Months must be a whole number")
    .min(0, "Months cannot be negative")
    .max(120, "Months must be 120 or fewer"),
  features: z
    .array(z.string().trim().min(1, "A feature cannot be blank").max(200, tooLong("A feature", 200)))
    .max(30, "At most 30 features"),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  is_featured: flag("Featured"),
  sort_order: sortOrder,
  is_active: flag("Active"),
};

export const packageInputSchema = z.object({
  ...packageFields,
  duration_months: packageFields.duration_months.default(1),
  features: packageFields.features.default([]),
  description: packageFields.description.default(""),
  is_featured: packageFields.is_featured.default(false),
  sort_order: packageFields.sort_order.default(0),
  is_active: packageFields.is_active.default(true),
});
export const packagePatchSchema = z.object(packageFields).partial();

const specialFields = {
  package_name: requiredText("Please enter the package name the special applies to", "Package name", 100),
  original_price: money("Original price"),
  special_price: money("Special price"),
  title: z.string().trim().max(200, tooLong("Title", 200)),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  is_active: flag("Active"),
  starts_at: dateTime("Start"),
  ends_at: dateTime("End"),
};

export const specialInputSchema = z
  .object({
    ...specialFields,
    title: specialFields.title.default(""),
    description: specialFields.description.default(""),
    is_active: specialFields.is_active.default(true),
  })
  .refine((v) => v.special_price < v.original_price, SPECIAL_PRICE_RULE)
  .refine(windowIsOrdered, WINDOW_MESSAGE);
/** Cross-field rules are checked when both fields are in the patch; merge and re-check with specialInputSchema for the rest. */
export const specialPatchSchema = z
  .object(specialFields)
  .partial()
  .refine((v) => v.special_price === undefined || v.original_price === undefined || v.special_price < v.original_price, SPECIAL_PRICE_RULE)
  .refine(windowIsOrdered, WINDOW_MESSAGE);

const bannerFields = {
  title: requiredText("Please enter a title", "Title", 200),
  content: z.string().trim().max(2000, tooLong("Content", 2000)),
  // 'special' shows as a popup; anything else inline (spec §3)
  banner_type: z.string().trim().min(1, "Please enter a banner type").max(40, tooLong("Banner type", 40)),
  is_active: flag("Active"),
  sort_order: sortOrder,
};
export const bannerInputSchema = z.object({
  ...bannerFields,
  content: bannerFields.content.default(""),
  banner_type: bannerFields.banner_type.default("info"),
  is_active: bannerFields.is_active.default(true),
  sort_order: bannerFields.sort_order.default(0),
});
export const bannerPatchSchema = z.object(bannerFields).partial();

const shortText = (what: string) => z.string().trim().max(40, tooLong(what, 40));
const downloadFields = {
  name: requiredText("Please enter the app name", "App name", 100),
  description: z.string().trim().max(2000, tooLong("Description", 2000)),
  download_url: optionalLink("Download URL"),
  file_type: shortText("File type"),
  file_size: shortText("File size"),
  version: shortText("Version"),
  // Spec §3: a list or a single text; a single text becomes a one-item list.
  device_compatibility: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() ? [v] : []) : v),
    z.array(z.string().trim().min(1).max(100, tooLong("A device", 100))).max(30, "At most 30 devices"),
  ),
  installation_guide: z.preprocess(
    blankToUndefined,
    z.string().trim().max(10_000, tooLong("Installation guide", 10_000)).nullable().optional(),
  ),
  is_featured: flag("Featured"),
  qr_code_data: z.preprocess(blankToUndefined, z.string().trim().max(2000, tooLong("QR code data", 2000)).nullable().optional()),
  logo_url: optionalLink("Logo URL"),
  sort_order: sortOrder,
  is_active: flag("Active"),
};
export const downloadInputSchema = z.object({
  ...downloadFields,
  description: downloadFields.description.default(""),
  file_type: downloadFields.file_type.default(""),
  file_size: downloadFields.file_size.default(""),
  version: downloadFields.version.default(""),
  device_compatibility: downloadFields.device_compatibility.default([]),
  is_featured: downloadFields.is_featured.default(false),
  sort_order: downloadFields.sort_order.default(0),
  is_active: downloadFields.is_active.default(true),
});
export const downloadPatchSchema = z.object(downloadFields).partial();

const testimonialFields = {
  client_name: requiredText("Please enter the client's name", "Client name", 100),
  location: z.string().trim().max(100, tooLong("Location", 100)),
  content: requiredText("Please enter the testimonial", "Testimonial", 2000),
  rating: z
    .number({ error: "Rating must be 1 to 5" })
    .int("Rating must be 1 to 5")
    .min(1, "Rating must be 1 to 5")
    .max(5, "Rating must be 1 to 5"),
  is_featured: flag("Featured"),
  is_published: flag("Published"),
  is_approved: flag("Approved"),
  sort_order: sortOrder,
};
export const testimonialInputSchema = z.object({
  ...testimonialFields,
  location: testimonialFields.location.default(""),
  rating: testimonialFields.rating.default(5),
  is_featured: testimonialFields.is_featured.default(false),
  is_published: testimonialFields.is_published.default(false),
  is_approved: testimonialFields.is_approved.default(false),
  sort_order: testimonialFields.sort_order.default(0),
});
export const testimonialPatchSchema = z.object(testimonialFields).partial();

export const NOTICE_SEVERITIES = ["info", "warning", "critical"] as const;
export const NOTICE_AUDIENCES = ["public", "clients", "all"] as const;
const noticeFields = {
  title: requiredText("Please enter a title", "Title", 200),
  body: z.string().trim().max(5000, tooLong("Body", 5000)),
  severity: z.enum(NOTICE_SEVERITIES, { error: "Severity must be info, warning or critical" }),
  audience: z.enum(NOTICE_AUDIENCES, { error: "Audience must be public, clients or all" }),
  starts_at: dateTime("Start"),
  ends_at: dateTime("End"),
  is_active: flag("Active"),
};
export const noticeInputSchema = z
  .object({
    ...noticeFields,
    body: noticeFields.body.default(""),
    severity: noticeFields.severity.default("info"),
    audience: noticeFields.audience.default("all"),
    is_active: noticeFields.is_active.default(true),
  })
  .refine(windowIsOrdered, WINDOW_MESSAGE);
export const noticePatchSchema = z.object(noticeFields).partial().refine(windowIsOrdered, WINDOW_MESSAGE);

export type PackageInput = z.output<typeof packageInputSchema>;
export type PackagePatch = z.output<typeof packagePatchSchema>;
export type SpecialInput = z.output<typeof specialInputSchema>;
export type SpecialPatch = z.output<typeof specialPatchSchema>;
export type BannerInput = z.output<typeof bannerInputSchema>;
export type BannerPatch = z.output<typeof bannerPatchSchema>;
export type DownloadInput = z.output<typeof downloadInputSchema>;
export type DownloadPatch = z.output<typeof downloadPatchSchema>;
export type TestimonialInput = z.output<typeof testimonialInputSchema>;
export type TestimonialPatch = z.output<typeof testimonialPatchSchema>;
export type NoticeInput = z.output<typeof noticeInputSchema>;
export type NoticePatch = z.output<typeof noticePatchSchema>;
