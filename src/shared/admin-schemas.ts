// Schemas of what the business dashboard writes, beside the shared form and entity schemas in
// schemas.ts (which this file extends where one exists). Pure zod: the admin forms and the
// admin API validate with the same rules. Messages are plain sentences naming the field.
// Create schemas carry defaults; patch schemas have none, so a PATCH never resets a stored
// value the admin did not send.
import { z } from "zod";
import { isValidEmail, isValidPhone } from "./contact";
import { SAFE_LINK_PATTERN } from "./links";
import { DEVICES, type DeviceValue } from "./options";
import { blankToUndefined, dateTime, downloadInputSchema, downloadPatchSchema, passwordSchema } from "./schemas";

// ---- building blocks --------------------------------------------------------------------

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or fewer`;
const requiredText = (empty: string, what: string, max: number) =>
  z.string({ error: empty }).trim().min(1, empty).max(max, tooLong(what, max));
const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, tooLong(what, max));
const flag = (what: string) => z.boolean({ error: `${what} must be yes or no` });
const sortOrder = z
  .number({ error: "Sort order must be a whole number" })
  .int("Sort order must be a whole number")
  .min(-100_000, "Sort order must be -100000 or more")
  .max(100_000, "Sort order must be 100000 or less");

const link = (what: string) =>
  z
    .string({ error: `Please enter the ${what.toLowerCase()}` })
    .trim()
    .min(1, `Please enter the ${what.toLowerCase()}`)
    .max(2000, tooLong(what, 2000))
    .regex(SAFE_LINK_PATTERN, `${what} must start with https:// or /`);

/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused). */
export function isCalendarDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
const calendarDay = (what: string) =>
  z
    .string({ error: `Please enter the ${what.toLowerCase()} as YYYY-MM-DD` })
    .trim()
    .refine(isCalendarDay, `${what} must be a real date written YYYY-MM-DD, e.g. 2026-11-22`);

/** lower-case letters, digits and underscores: how settings, images and components are keyed */
const machineKey = (what: string, max: number) =>
  z
    .string({ error: `Please enter the ${what.toLowerCase()}` })
    .trim()
    .min(1, `Please enter the ${what.toLowerCase()}`)
    .max(max, tooLong(what, max))
    .regex(/^[a-z0-9][a-z0-9_-]*$/, `${what} may use only lower-case letters, digits, _ and -`);

// ---- admins and sign-in ------------------------------------------------------------------

const adminEmail = z
  .string({ error: "Please enter an email address" })
  .trim()
  .toLowerCase()
  .min(1, "Please enter an email address")
  .max(254, tooLong("Email address", 254))
  .refine(isValidEmail, "Please enter a valid email address");

export const adminCreateSchema = z.object({
  email: adminEmail,
  name: requiredText("Please enter the admin's name", "Name", 100),
  password: passwordSchema,
});
export const adminPatchSchema = z.object({ email: adminEmail, name: requiredText("Please enter the admin's name", "Name", 100) }).partial();

export const passwordChangeSchema = z.object({
  currentPassword: z.string({ error: "Please enter your current password" }).min(1, "Please enter your current password").max(200),
  newPassword: passwordSchema,
});
/** The "Change password" form: the change, and the new password typed twice (only the change is sent). */
export const passwordChangeFormSchema = passwordChangeSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.newPassword, { path: ["confirmPassword"], message: "The two new passwords don't match" });

// ---- catalogue -----------------------------------------------------------------------------

/** POST /api/admin/packages/reorder: every id once, in the order to show them. */
export const reorderSchema = z.object({
  ids: z
    .array(z.uuid({ error: "Each id must be a package id" }), { error: "Send the package ids as a list" })
    .min(1, "Send at least one package id")
    .max(1000, "At most 1000 ids")
    .refine((ids) => new Set(ids).size === ids.length, "Each package may appear only once"),
});

/** Settings whose key starts with this belong to the system (e.g. the seed marker). */
export const PRIVATE_SETTING_PREFIX = "private_";
const settingKey = machineKey("Key", 100).refine(
  (k) => !k.startsWith(PRIVATE_SETTING_PREFIX),
  `Keys starting with ${PRIVATE_SETTING_PREFIX} are reserved for the system`,
);
const settingFields = {
  key: settingKey,
  value: text("Value", 10_000),
  description: text("Description", 1000),
  is_active: flag("Active"),
};
export const settingInputSchema = z.object({
  ...settingFields,
  value: settingFields.value.default(""),
  description: settingFields.description.default(""),
  is_active: settingFields.is_active.default(true),
});
export const settingPatchSchema = z.object(settingFields).partial();

const DEVICE_VALUES = DEVICES.map((d) => d.value) as [DeviceValue, ...DeviceValue[]];
const deviceList = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() ? [v.trim()] : []) : v),
  z
    .array(z.enum(DEVICE_VALUES, { error: `Devices must be from the list: ${DEVICE_VALUES.join(", ")}` }), {
      error: "Devices must be a list",
    })
    .max(DEVICE_VALUES.length, "Each device may appear only once")
    .refine((list) => new Set(list).size === list.length, "Each device may appear only once"),
);
/** The admin's downloads: device_compatibility holds values of the order form's device list. */
export const adminDownloadInputSchema = downloadInputSchema.extend({ device_compatibility: deviceList.default([]) });
export const adminDownloadPatchSchema = downloadPatchSchema.extend({ device_compatibility: deviceList.optional() });

// ---- content -------------------------------------------------------------------------------

const imageFields = {
  // the public read caps keys at 64 characters
  image_key: machineKey("Image key", 64),
  image_url: link("Image URL"),
  alt_text: text("Alt text", 300),
};
export const imageInputSchema = z.object({ ...imageFields, alt_text: imageFields.alt_text.default("") });
export const imagePatchSchema = z.object(imageFields).partial();

export const ABOUT_ICONS = ["Shield", "Zap", "Users", "Heart"] as const;
const cssColor = z
  .string({ error: "Colour must be text" })
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Colour must be a hex colour such as #38bdf8");
const item = (what: string, max: number) => requiredText(`${what} cannot be blank`, what, max);

// Each known section's content is checked key by key; keys the web does not read yet are kept.
const heroContent = z.looseObject({
  features: z.array(item("A feature", 200)).max(20, "At most 20 features").optional(),
  cta_primary: text("Primary button text", 60).optional(),
  cta_secondary: text("Secondary button text", 60).optional(),
  rating_text: text("Rating text", 200).optional(),
});
const aboutContent = z.looseObject({
  features: z
    .array(
      z.object({
        icon: z.enum(ABOUT_ICONS, { error: `Icon must be one of ${ABOUT_ICONS.join(", ")}` }),
        color: cssColor,
        title: item("Title", 100),
        description: text("Description", 500).default(""),
      }),
    )
    .max(12, "At most 12 features")
    .optional(),
});
const footerLink = z
  .object({
    text: item("Link text", 60),
    // an anchor on the landing page ('pricing') or an address
    id: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z][\w-]{0,59}$/, "Section id must be a word such as pricing")
        .optional(),
    ),
    url: z.preprocess(blankToUndefined, link("Link URL").optional()),
  })
  .refine((l) => (l.id === undefined) !== (l.url === undefined), {
    message: "A link needs either a section id or a URL (one of them)",
    path: ["url"],
  });
const footerContent = z.looseObject({
  links: z.array(footerLink).max(20, "At most 20 links").optional(),
  support_links: z
    .array(z.object({ text: item("Link text", 60), url: link("Link URL") }))
    .max(20, "At most 20 links")
    .optional(),
  disclaimer: text("Disclaimer", 2000).optional(),
});
const anyContent = z.record(z.string(), z.unknown(), { error: "Content must be a JSON object" });

/** The content schema of a homepage section (hero, about and footer have known shapes). */
export function contentSchemaFor(section: string): z.ZodType<Record<string, unknown>> {
  const known: Record<string, z.ZodType<Record<string, unknown>>> = { hero: heroContent, about: aboutContent, footer: footerContent };
  return known[section] ?? anyContent;
}

const contentObject = z.custom<Record<string, unknown>>(
  (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  "Content must be a JSON object",
);
const contentFields = {
  section_name: machineKey("Section name", 60),
  title: text("Title", 300),
  description: text("Description", 2000),
  /** checked against the section's shape with contentSchemaFor */
  content: contentObject,
  is_active: flag("Active"),
  sort_order: sortOrder,
};
export const contentInputSchema = z.object({
  ...contentFields,
  title: contentFields.title.default(""),
  description: contentFields.description.default(""),
  content: contentFields.content.default({}),
  is_active: contentFields.is_active.default(true),
  sort_order: contentFields.sort_order.default(0),
});
export const contentPatchSchema = z.object(contentFields).partial();

/** PUT /api/admin/branding: any of the four settings; each given one is checked. */
export const brandingUpdateSchema = z
  .object({
    company_name: requiredText("Please enter the company name", "Company name", 100),
    tagline: text("Tagline", 200),
    whatsapp_number: z
      .string({ error: "Please enter a valid WhatsApp number" })
      .trim()
      .refine((v) => isValidPhone(v) && v.replace(/\D/g, "").length <= 15, "Please enter a valid WhatsApp number (at least 9 digits)"),
    support_email: z
      .string({ error: "Please enter a valid email address" })
      .trim()
      .refine(isValidEmail, "Please enter a valid email address"),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "Send at least one of company_name, tagline, whatsapp_number or support_email",
  });

// ---- help centre, releases -------------------------------------------------------------------

export const KB_SLUG_MAX = 200;
/** 'Getting started: from order to first channel' → 'getting-started-from-order-to-first-channel' */
export function slugify(title: string, max = 80): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/g, "");
  return slug || "article";
}

const kbFields = {
  slug: z.preprocess(
    blankToUndefined,
    z
      .string({ error: "Slug must be text" })
      .trim()
      .max(KB_SLUG_MAX, tooLong("Slug", KB_SLUG_MAX))
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Slug may use only lower-case letters, digits and single dashes, e.g. getting-started")
      .optional(),
  ),
  title: requiredText("Please enter a title", "Title", 200),
  category: requiredText("Please enter a category", "Category", 60),
  summary: text("Summary", 500),
  body: requiredText("Please enter the article text", "Article text", 50_000),
  is_published: flag("Published"),
  sort_order: sortOrder,
};
export const kbInputSchema = z.object({
  ...kbFields,
  category: kbFields.category.default("General"),
  summary: kbFields.summary.default(""),
  is_published: kbFields.is_published.default(true),
  sort_order: kbFields.sort_order.default(0),
});
export const kbPatchSchema = z.object(kbFields).partial();

const releaseFields = {
  version: requiredText("Please enter the version", "Version", 40),
  title: requiredText("Please enter a title", "Title", 200),
  body: text("Release notes", 20_000),
  released_on: calendarDay("Release date"),
  is_published: flag("Published"),
};
export const releaseInputSchema = z.object({
  ...releaseFields,
  body: releaseFields.body.default(""),
  is_published: releaseFields.is_published.default(true),
});
export const releasePatchSchema = z.object(releaseFields).partial();

// ---- status page -----------------------------------------------------------------------------

export const COMPONENT_STATUSES = ["operational", "degraded", "maintenance", "down"] as const;
const componentStatus = z.enum(COMPONENT_STATUSES, { error: "Status must be operational, degraded, maintenance or down" });
const componentFields = {
  key: machineKey("Key", 60),
  name: requiredText("Please enter the component's name", "Name", 100),
  description: text("Description", 500),
  status: componentStatus,
  maintenance: flag("Maintenance"),
  message: text("Message", 500),
  sort_order: sortOrder,
};
export const componentInputSchema = z.object({
  ...componentFields,
  description: componentFields.description.default(""),
  status: componentFields.status.optional(),
  maintenance: componentFields.maintenance.default(false),
  message: componentFields.message.default(""),
  sort_order: componentFields.sort_order.default(0),
});
export const componentPatchSchema = z.object(componentFields).partial();

export const INCIDENT_IMPACTS = ["minor", "major", "critical", "maintenance"] as const;
export const INCIDENT_STATUSES = ["investigating", "identified", "monitoring", "resolved"] as const;
const incidentFields = {
  title: requiredText("Please enter a title", "Title", 200),
  body: text("Details", 5000),
  impact: z.enum(INCIDENT_IMPACTS, { error: "Impact must be minor, major, critical or maintenance" }),
  status: z.enum(INCIDENT_STATUSES, { error: "Status must be investigating, identified, monitoring or resolved" }),
  component_keys: z
    .array(z.string({ error: "Component keys must be text" }).trim().min(1).max(60), { error: "Components must be a list of keys" })
    .max(50, "At most 50 components"),
  started_at: dateTime("Start"),
  resolved_at: dateTime("Resolved time"),
};
export const incidentInputSchema = z.object({
  ...incidentFields,
  body: incidentFields.body.default(""),
  impact: incidentFields.impact.default("minor"),
  status: incidentFields.status.default("investigating"),
  component_keys: incidentFields.component_keys.default([]),
});
export const incidentPatchSchema = z.object(incidentFields).partial();

// Scheduled maintenance (issue 13 item 5): a row of the incidents table with kind 'maintenance'.
// Cancelling is status 'cancelled'; completed and cancelled windows leave the status page.
export const MAINTENANCE_STATUSES = ["scheduled", "in_progress", "completed", "cancelled"] as const;
export const MAINTENANCE_END_MESSAGE = "The end must be after the start";
const maintenanceFields = {
  title: requiredText("Please enter a title", "Title", 200),
  body: text("Details", 5000),
  status: z.enum(MAINTENANCE_STATUSES, { error: "Status must be scheduled, in progress, completed or cancelled" }),
  component_keys: incidentFields.component_keys,
  started_at: dateTime("Start"),
  ends_at: dateTime("End"),
};
const requiredDateTime = (what: string, missing: string) =>
  z.preprocess(
    blankToUndefined,
    z.iso.datetime({
      offset: true,
      error: (issue) =>
        issue.input === undefined ? missing : `${what} must be a date and time with a time zone, e.g. 2026-11-22T14:05:00+02:00`,
    }),
  );
const endsAfterStart = (value: { started_at?: string | null; ends_at?: string | null }) =>
  !value.started_at || !value.ends_at || Date.parse(value.ends_at) > Date.parse(value.started_at);
export const maintenanceInputSchema = z
  .object({
    ...maintenanceFields,
    body: maintenanceFields.body.default(""),
    status: maintenanceFields.status.default("scheduled"),
    component_keys: maintenanceFields.component_keys.default([]),
    started_at: requiredDateTime("Start", "Please enter when the maintenance starts"),
    ends_at: requiredDateTime("End", "Please enter when the maintenance ends"),
  })
  .refine(endsAfterStart, { path: ["ends_at"], message: MAINTENANCE_END_MESSAGE });
export const maintenancePatchSchema = z
  .object(maintenanceFields)
  .partial()
  .refine(endsAfterStart, { path: ["ends_at"], message: MAINTENANCE_END_MESSAGE });

const blackoutFields = {
  day: calendarDay("Day"),
  reason: text("Reason", 200),
};
export const blackoutDayInputSchema = z.object({ ...blackoutFields, reason: blackoutFields.reason.default("") });
export const blackoutDayPatchSchema = z.object(blackoutFields).partial();

// ---- operations ------------------------------------------------------------------------------

const page = z.coerce.number({ error: "Page must be a whole number" }).int("Page must be a whole number").min(1, "Page starts at 1");
const pageSize = z.coerce
  .number({ error: "Page size must be a whole number" })
  .int("Page size must be a whole number")
  .min(1, "Page size must be 1 to 200")
  .max(200, "Page size must be 1 to 200");
// PostgreSQL refuses a NUL character in text: a filter carrying one is bad input (400), not a 500.
const optionalFilter = (what: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    text(what, max)
      .refine((v) => !v.includes("\u0000"), `${what} contains a character that is not allowed.`)
      .optional(),
  );

/** owner: WhatsApp waiting for the owner to send by hand; rerouted: an e-mail copy carried it instead */
export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "owner", "rerouted"] as const;
export const outboxQuerySchema = z.object({
  status: z.preprocess(
    blankToUndefined,
    z.enum(OUTBOX_STATUSES, { error: "Status must be pending, sending, sent, failed, owner or rerouted" }).optional(),
  ),
  channel: z.preprocess(blankToUndefined, z.enum(["email", "whatsapp"], { error: "Channel must be email or whatsapp" }).optional()),
  q: optionalFilter("Search", 200),
  page: page.default(1),
  pageSize: pageSize.default(50),
});

export const auditQuerySchema = z.object({
  resource: optionalFilter("Resource", 60),
  page: page.default(1),
  pageSize: pageSize.default(50),
});

// ---- types -----------------------------------------------------------------------------------

export type AdminCreate = z.output<typeof adminCreateSchema>;
export type PasswordChange = z.output<typeof passwordChangeSchema>;
export type SettingInput = z.output<typeof settingInputSchema>;
export type BrandingUpdate = z.output<typeof brandingUpdateSchema>;
export type BlackoutDayInput = z.output<typeof blackoutDayInputSchema>;
export type AdminPatch = z.output<typeof adminPatchSchema>;
