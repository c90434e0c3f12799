// What the admin edits, table by table: schema, order of the list, unique keys, and the few
// rules that need the stored row (a PATCH merged with what is there) or other tables.

import { asc, desc, eq, inArray, like, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  banners,
  downloads,
  homepageContent,
  imageRegistry,
  incidents,
  kbArticles,
  notices,
  packages,
  pricingSpecials,
  releases,
  siteSettings,
  systemComponents,
  testimonialsManaged,
  trialBlackoutDays,
} from "@/server/db/schema";
import { MESSAGES as MONITOR_MESSAGES } from "@/server/lib/health-monitor";
import { listActiveSpecials, specialsAt } from "@/server/modules/catalogue/service";
import {
  adminDownloadInputSchema,
  adminDownloadPatchSchema,
  blackoutDayInputSchema,
  blackoutDayPatchSchema,
  componentInputSchema,
  componentPatchSchema,
  contentInputSchema,
  contentPatchSchema,
  contentSchemaFor,
  imageInputSchema,
  imagePatchSchema,
  incidentInputSchema,
  incidentPatchSchema,
  KB_SLUG_MAX,
  kbInputSchema,
  kbPatchSchema,
  MAINTENANCE_END_MESSAGE,
  maintenanceInputSchema,
  maintenancePatchSchema,
  releaseInputSchema,
  releasePatchSchema,
  settingPatchSchema,
  slugify,
} from "@/shared/admin-schemas";
import { billingSettingProblem } from "@/shared/billing";
import { RUNWAY_ALERT_DAYS_MESSAGE } from "@/shared/business-schemas";
import * as catalogue from "@/shared/catalogue-schemas";
import { whatsappCodeCapProblem } from "@/shared/code-limits";
import { MAC_CHANGE_SETTING_MESSAGE } from "@/shared/device-lines";
import { whatsappRetentionProblem } from "@/shared/inbox-schemas";
import { lifecycleSettingError } from "@/shared/lifecycle";
import { ownerAlertSettingProblem, storedOwnerAlertValue } from "@/shared/owner-alerts";
import { panelSettingProblem } from "@/shared/panel-settings";
import { findSpecial } from "@/shared/pricing";
import { trialSettingProblem } from "@/shared/trial-schemas";
import type { ResourceDefinition, Row, Tx } from "./crud";
import { fieldMessages, invalid } from "./validation";

const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).getTime());

/** The 400 when a merged row's window ends before it starts. */
function checkWindow(row: Row, start = "starts_at", end = "ends_at", message = "The end must be after the start"): void {
  const [s, e] = [time(row[start]), time(row[end])];
  if (s !== null && e !== null && e <= s) invalid({ [end]: message });
}

// ---- catalogue -------------------------------------------------------------------------------

/**
 * Each package with price_today: what a client pays for it now, the special price when a special
 * applies at this moment (the storefront's own matching rule), else its price. The dashboard
 * offers it wherever an admin converts a lead or records a payment.
 */
export async function withPriceToday(rows: Row[], db: Db): Promise<Row[]> {
  const specials = specialsAt(await listActiveSpecials(db), Date.now());
  return rows.map((row) => {
    const price = Number(row.price);
    const special = findSpecial({ name: String(row.name), price, duration: String(row.duration) }, specials);
    return { ...row, price_today: special ? special.special_price : price };
  });
}

const packagesResource: ResourceDefinition = {
  name: "packages",
  label: "Package",
  table: packages,
  id: packages.id,
  createSchema: catalogue.packageInputSchema,
  patchSchema: catalogue.packagePatchSchema,
  orderBy: [asc(packages.sort_order), asc(packages.name), asc(packages.id)],
  toList: withPriceToday,
};

const specialsResource: ResourceDefinition = {
  name: "specials",
  label: "Special",
  table: pricingSpecials,
  id: pricingSpecials.id,
  createSchema: catalogue.specialInputSchema,
  patchSchema: catalogue.specialPatchSchema,
  orderBy: [asc(pricingSpecials.package_name), desc(pricingSpecials.created_at), asc(pricingSpecials.id)],
  dates: ["starts_at", "ends_at"],
  clearable: ["starts_at", "ends_at"],
  // The patch schema checks the rules when both fields are in the patch; here against the stored row.
  toUpdate(patch, existing) {
    const merged = { ...existing, ...patch };
    if (Number(merged.special_price) >= Number(merged.original_price)) {
      invalid({ special_price: "The special price must be lower than the original price" });
    }
    checkWindow(merged);
    return patch;
  },
};

const bannersResource: ResourceDefinition = {
  name: "banners",
  label: "Banner",
  table: banners,
  id: banners.id,
  createSchema: catalogue.bannerInputSchema,
  patchSchema: catalogue.bannerPatchSchema,
  orderBy: [asc(banners.sort_order), desc(banners.created_at), asc(banners.id)],
};

/** Settings starting private_ belong to the system: the admin API neither lists nor touches them. */
export const visibleSetting = sql`not starts_with(lower(${siteSettings.key}), 'private_')`;

/**
 * The 400 for a value the subscription lifecycle could not use (free_trial_hours 1-168,
 * grace_days 0-30): refused here rather than silently read as the default later.
 */
export function checkLifecycleSetting(key: unknown, value: unknown): void {
  const name = String(key ?? "");
  const text = String(value ?? "").trim();
  const message =
    lifecycleSettingError(name, text) ??
    billingSettingProblem(name, text) ??
    trialSettingProblem(name, text) ??
    ownerAlertSettingProblem(name, text) ??
    whatsappRetentionProblem(name, text) ??
    whatsappCodeCapProblem(name, text) ??
    panelSettingProblem(name, text) ??
    (name === "panel_credit_warning" && !/^\d{1,6}$/.test(text)
      ? "The credit warning must be a whole number of credits (0 or more)"
      : null) ??
    (name === "panel_runway_alert_days" && !/^\d{1,2}$/.test(text) ? RUNWAY_ALERT_DAYS_MESSAGE : null) ??
    ((name === "mac_change_cooldown_hours" || name === "mac_change_monthly_limit") && !/^\d{1,4}$/.test(text)
      ? MAC_CHANGE_SETTING_MESSAGE
      : null);
  if (message) invalid({ value: message });
}

const settingsResource: ResourceDefinition = {
  name: "settings",
  label: "Setting",
  table: siteSettings,
  id: siteSettings.id,
  // POST is an upsert by key (routes.ts)
  createSchema: settingPatchSchema,
  patchSchema: settingPatchSchema,
  customCreate: true,
  // A new key or a new value is checked as the stored row will read (POST checks in routes.ts).
  toUpdate(patch, existing) {
    if ("key" in patch || "value" in patch) checkLifecycleSetting(patch.key ?? existing.key, patch.value ?? existing.value);
    // the owner's alert number in its one stored form (27…)
    if ("value" in patch) return { ...patch, value: storedOwnerAlertValue(String(patch.key ?? existing.key), String(patch.value ?? "")) };
    return patch;
  },
  visible: visibleSetting,
  orderBy: [asc(siteSettings.key), asc(siteSettings.id)],
  unique: { site_settings_key_unique: { field: "key", message: "Another setting already uses this key" } },
};

const downloadsResource: ResourceDefinition = {
  name: "downloads",
  label: "Download",
  table: downloads,
  id: downloads.id,
  createSchema: adminDownloadInputSchema,
  patchSchema: adminDownloadPatchSchema,
  orderBy: [desc(downloads.is_featured), asc(downloads.sort_order), asc(downloads.name), asc(downloads.id)],
  clearable: ["download_url", "installation_guide", "qr_code_data", "logo_url"],
  // The QR code points at the download unless the admin gives it other data.
  toInsert(input) {
    return { ...input, qr_code_data: input.qr_code_data ?? input.download_url ?? null };
  },
  toUpdate(patch, existing) {
    const url = "download_url" in patch ? patch.download_url : existing.download_url;
    const derived = existing.qr_code_data === null || existing.qr_code_data === existing.download_url;
    if ("qr_code_data" in patch) {
      if (patch.qr_code_data === null) return { ...patch, qr_code_data: url ?? null };
    } else if ("download_url" in patch && derived) {
      return { ...patch, qr_code_data: url ?? null };
    }
    return patch;
  },
};

const testimonialsResource: ResourceDefinition = {
  name: "testimonials",
  label: "Testimonial",
  table: testimonialsManaged,
  id: testimonialsManaged.id,
  createSchema: catalogue.testimonialInputSchema,
  patchSchema: catalogue.testimonialPatchSchema,
  orderBy: [
    desc(testimonialsManaged.is_featured),
    asc(testimonialsManaged.sort_order),
    desc(testimonialsManaged.created_at),
    asc(testimonialsManaged.id),
  ],
};

// ---- content -----------------------------------------------------------------------------------

const imagesResource: ResourceDefinition = {
  name: "images",
  label: "Image",
  table: imageRegistry,
  id: imageRegistry.id,
  createSchema: imageInputSchema,
  patchSchema: imagePatchSchema,
  orderBy: [asc(imageRegistry.image_key), asc(imageRegistry.id)],
  unique: { image_registry_image_key_unique: { field: "image_key", message: "Another image already uses this key" } },
  // A new version makes browsers fetch the image again (its URL carries ?v=).
  toUpdate(patch) {
    return "image_url" in patch ? { ...patch, version: sql`${imageRegistry.version} + 1` } : patch;
  },
};

/** The section's content checked against its shape; problems named content.<path>. */
function sectionContent(section: string, content: unknown): Record<string, unknown> {
  const result = contentSchemaFor(section).safeParse(content);
  if (!result.success) {
    const fields = fieldMessages(result.error.issues);
    invalid(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === "_" ? "content" : `content.${k}`, v])));
  }
  return result.data;
}

const contentResource: ResourceDefinition = {
  name: "content",
  label: "Content section",
  table: homepageContent,
  id: homepageContent.id,
  createSchema: contentInputSchema,
  patchSchema: contentPatchSchema,
  orderBy: [asc(homepageContent.sort_order), asc(homepageContent.section_name), asc(homepageContent.id)],
  toInsert(input) {
    return { ...input, content: sectionContent(String(input.section_name), input.content) };
  },
  toUpdate(patch, existing) {
    if (!("content" in patch) && !("section_name" in patch)) return patch;
    const section = String(patch.section_name ?? existing.section_name);
    return { ...patch, content: sectionContent(section, "content" in patch ? patch.content : existing.content) };
  },
};

const noticesResource: ResourceDefinition = {
  name: "notices",
  label: "Notice",
  table: notices,
  id: notices.id,
  createSchema: catalogue.noticeInputSchema,
  patchSchema: catalogue.noticePatchSchema,
  orderBy: [desc(notices.created_at), asc(notices.id)],
  dates: ["starts_at", "ends_at"],
  clearable: ["starts_at", "ends_at"],
  toUpdate(patch, existing) {
    checkWindow({ ...existing, ...patch });
    return patch;
  },
};

/** The slug itself, or with -2, -3, ... appended: the first one no other article uses. */
async function freeSlug(tx: Tx, wanted: string, exceptId?: unknown): Promise<string> {
  const base = wanted.slice(0, KB_SLUG_MAX - 6);
  const taken = await tx
    .select({ slug: kbArticles.slug, id: kbArticles.id })
    .from(kbArticles)
    .where(or(eq(kbArticles.slug, base), like(kbArticles.slug, `${base}-%`)));
  const used = new Set(taken.filter((t) => t.id !== exceptId).map((t) => t.slug));
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

const kbResource: ResourceDefinition = {
  name: "kb",
  label: "Article",
  table: kbArticles,
  id: kbArticles.id,
  createSchema: kbInputSchema,
  patchSchema: kbPatchSchema,
  orderBy: [asc(kbArticles.category), asc(kbArticles.sort_order), asc(kbArticles.title), asc(kbArticles.id)],
  clearable: ["slug"],
  unique: { kb_articles_slug_unique: { field: "slug", message: "Another article already uses this slug" } },
  // A slug the admin typed must be free (409 otherwise); one made from the title is made free.
  async toInsert(input, tx) {
    return { ...input, slug: input.slug ?? (await freeSlug(tx, slugify(String(input.title)))) };
  },
  async toUpdate(patch, existing, tx) {
    if (patch.slug !== null) return patch;
    return { ...patch, slug: await freeSlug(tx, slugify(String(patch.title ?? existing.title)), existing.id) };
  },
};

const releasesResource: ResourceDefinition = {
  name: "releases",
  label: "Release",
  table: releases,
  id: releases.id,
  createSchema: releaseInputSchema,
  patchSchema: releasePatchSchema,
  orderBy: [desc(releases.released_on), desc(releases.created_at), asc(releases.id)],
};

// ---- status page ---------------------------------------------------------------------------------

// Maintenance is a switch: turning it on shows the component as under maintenance (the monitor
// leaves it alone); turning it off hands it back to the monitor, starting from operational.
const componentsResource: ResourceDefinition = {
  name: "components",
  label: "Component",
  table: systemComponents,
  id: systemComponents.id,
  createSchema: componentInputSchema,
  patchSchema: componentPatchSchema,
  orderBy: [asc(systemComponents.sort_order), asc(systemComponents.name), asc(systemComponents.id)],
  unique: { system_components_key_unique: { field: "key", message: "Another component already uses this key" } },
  toInsert(input) {
    const status = input.status ?? (input.maintenance ? "maintenance" : "operational");
    const message = input.maintenance && !input.message ? MONITOR_MESSAGES.maintenance : input.message;
    return { ...input, status, message };
  },
  toUpdate(patch, existing) {
    if (!("maintenance" in patch) || patch.maintenance === existing.maintenance) return patch;
    const out = { ...patch };
    if (patch.maintenance) {
      out.status ??= "maintenance";
      if (!("message" in patch) && !existing.message) out.message = MONITOR_MESSAGES.maintenance;
    } else {
      if (!("status" in patch) && existing.status === "maintenance") out.status = "operational";
      if (!("message" in patch) && existing.message === MONITOR_MESSAGES.maintenance) out.message = "";
    }
    return out;
  },
};

async function checkComponentKeys(tx: Tx, keys: unknown): Promise<void> {
  if (!Array.isArray(keys) || keys.length === 0) return;
  const found = await tx
    .select({ key: systemComponents.key })
    .from(systemComponents)
    .where(inArray(systemComponents.key, keys as string[]));
  const known = new Set(found.map((f) => f.key));
  const unknown = (keys as string[]).filter((k) => !known.has(k));
  if (unknown.length) invalid({ component_keys: `No component has the key ${unknown.map((k) => `'${k}'`).join(", ")}` });
}

const RESOLVED_AFTER = "The resolved time must be after the start";

// An incident opens now unless told otherwise; resolving it stamps resolved_at, reopening clears it.
const incidentsResource: ResourceDefinition = {
  name: "incidents",
  label: "Incident",
  table: incidents,
  id: incidents.id,
  createSchema: incidentInputSchema,
  patchSchema: incidentPatchSchema,
  // Scheduled maintenance shares the table (issue 13 item 5) and has its own resource below.
  visible: eq(incidents.kind, "incident"),
  orderBy: [sql`${incidents.resolved_at} is null desc`, desc(incidents.started_at), asc(incidents.id)],
  dates: ["started_at", "resolved_at"],
  clearable: ["resolved_at"],
  async toInsert(input, tx) {
    await checkComponentKeys(tx, input.component_keys);
    const { started_at, resolved_at, ...rest } = input;
    const out: Row = { ...rest, ...(started_at ? { started_at } : {}) };
    out.resolved_at = input.status === "resolved" ? (resolved_at ?? new Date().toISOString()) : null;
    checkWindow(
      { started_at: started_at ?? new Date().toISOString(), resolved_at: out.resolved_at },
      "started_at",
      "resolved_at",
      RESOLVED_AFTER,
    );
    return out;
  },
  async toUpdate(patch, existing, tx) {
    if ("started_at" in patch && patch.started_at === null) invalid({ started_at: "Please enter when the incident started" });
    if ("component_keys" in patch) await checkComponentKeys(tx, patch.component_keys);
    const out = { ...patch };
    const status = patch.status ?? existing.status;
    if (status !== "resolved") out.resolved_at = null;
    else out.resolved_at = out.resolved_at ?? ("resolved_at" in patch ? null : existing.resolved_at) ?? new Date().toISOString();
    checkWindow({ ...existing, ...out }, "started_at", "resolved_at", RESOLVED_AFTER);
    return out;
  },
};

// Scheduled maintenance (issue 13 item 5): /api/admin/maintenance, rows of incidents with kind
// 'maintenance'. started_at is the planned start, ends_at the planned end; completing or
// cancelling stamps resolved_at, going back to scheduled or in progress clears it. Each write is a
// change of the row, which is what notifies status subscribers (modules/status/subscriptions.ts).
const MAINTENANCE_OVER = ["completed", "cancelled"];
const maintenanceResource: ResourceDefinition = {
  name: "maintenance",
  label: "Maintenance",
  table: incidents,
  id: incidents.id,
  createSchema: maintenanceInputSchema,
  patchSchema: maintenancePatchSchema,
  visible: eq(incidents.kind, "maintenance"),
  orderBy: [sql`${incidents.resolved_at} is null desc`, asc(incidents.started_at), asc(incidents.id)],
  dates: ["started_at", "ends_at", "resolved_at"],
  async toInsert(input, tx) {
    await checkComponentKeys(tx, input.component_keys);
    const over = MAINTENANCE_OVER.includes(String(input.status));
    return { ...input, kind: "maintenance", impact: "maintenance", resolved_at: over ? new Date().toISOString() : null };
  },
  async toUpdate(patch, existing, tx) {
    if ("started_at" in patch && patch.started_at === null) invalid({ started_at: "Please enter when the maintenance starts" });
    if ("ends_at" in patch && patch.ends_at === null) invalid({ ends_at: "Please enter when the maintenance ends" });
    if ("component_keys" in patch) await checkComponentKeys(tx, patch.component_keys);
    const out: Row = { ...patch };
    if ("status" in patch) {
      const over = MAINTENANCE_OVER.includes(String(patch.status));
      out.resolved_at = over
        ? MAINTENANCE_OVER.includes(String(existing.status))
          ? existing.resolved_at
          : new Date().toISOString()
        : null;
    }
    checkWindow({ ...existing, ...out }, "started_at", "ends_at", MAINTENANCE_END_MESSAGE);
    return out;
  },
};

const blackoutDaysResource: ResourceDefinition = {
  name: "trial-blackout-days",
  label: "Blackout day",
  table: trialBlackoutDays,
  id: trialBlackoutDays.id,
  createSchema: blackoutDayInputSchema,
  patchSchema: blackoutDayPatchSchema,
  orderBy: [asc(trialBlackoutDays.day), asc(trialBlackoutDays.id)],
  unique: { trial_blackout_days_day_unique: { field: "day", message: "That day is already a blackout day" } },
};

export const resources: readonly ResourceDefinition[] = [
  packagesResource,
  specialsResource,
  bannersResource,
  settingsResource,
  downloadsResource,
  testimonialsResource,
  imagesResource,
  contentResource,
  noticesResource,
  kbResource,
  releasesResource,
  componentsResource,
  incidentsResource,
  maintenanceResource,
  blackoutDaysResource,
];

export { incidentsResource, settingsResource };
