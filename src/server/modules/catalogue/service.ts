// Public catalogue reads (spec §6/§7): only active rows, in the orders the storefront shows.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { banners, downloads, packages, pricingSpecials, siteSettings, testimonialsManaged } from "@/server/db/schema";
import type { Banner, Download, Package, SettingsMap, Special, Testimonial } from "@/shared/api";

/** The active packages in the storefront's order; those in `unavailable` (lib/sellable.ts) marked so. */
export async function listPackages(db: Db, unavailable: ReadonlyMap<string, string> = new Map()): Promise<Package[]> {
  const rows = await db
    .select()
    .from(packages)
    .where(eq(packages.is_active, true))
    .orderBy(asc(packages.sort_order), asc(packages.name), asc(packages.id));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    price: p.price,
    duration: p.duration,
    duration_months: p.duration_months,
    features: Array.isArray(p.features) ? p.features : [],
    description: p.description,
    is_featured: p.is_featured,
    sort_order: p.sort_order,
    is_active: p.is_active,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    available: !unavailable.has(p.id),
  }));
}

/** An active special together with its date window; the window is applied per request. */
export interface WindowedSpecial {
  special: Special;
  starts_at: number | null;
  ends_at: number | null;
}

/**
 * Every active special with its window. The caller filters by the current time on each
 * request, so a cached copy stays right when a window opens or closes without a write.
 */
export async function listActiveSpecials(db: Db): Promise<WindowedSpecial[]> {
  const rows = await db
    .select()
    .from(pricingSpecials)
    .where(eq(pricingSpecials.is_active, true))
    .orderBy(asc(pricingSpecials.package_name), desc(pricingSpecials.created_at), asc(pricingSpecials.id));
  return rows.map((s) => ({
    special: {
      id: s.id,
      package_name: s.package_name,
      original_price: s.original_price,
      special_price: s.special_price,
      title: s.title,
      description: s.description,
    },
    starts_at: s.starts_at?.getTime() ?? null,
    ends_at: s.ends_at?.getTime() ?? null,
  }));
}

/** Specials whose [starts_at, ends_at] window contains `now` (a missing bound is open). */
export function specialsAt(specials: readonly WindowedSpecial[], now: number): Special[] {
  return specials
    .filter((s) => (s.starts_at === null || s.starts_at <= now) && (s.ends_at === null || now <= s.ends_at))
    .map((s) => s.special);
}

export async function listBanners(db: Db): Promise<Banner[]> {
  const rows = await db
    .select()
    .from(banners)
    .where(eq(banners.is_active, true))
    .orderBy(asc(banners.sort_order), desc(banners.created_at), asc(banners.id));
  return rows.map((b) => ({
    id: b.id,
    title: b.title,
    content: b.content,
    banner_type: b.banner_type,
    is_active: b.is_active,
    sort_order: b.sort_order,
    created_at: b.created_at.toISOString(),
  }));
}

/** Active settings as a key→value map. Keys starting secret_ or private_ never leave the server. */
export async function settingsMap(db: Db): Promise<SettingsMap> {
  const rows = await db
    .select({ key: siteSettings.key, value: siteSettings.value })
    .from(siteSettings)
    .where(
      and(
        eq(siteSettings.is_active, true),
        sql`not starts_with(lower(${siteSettings.key}), 'secret_')`,
        sql`not starts_with(lower(${siteSettings.key}), 'private_')`,
      ),
    )
    .orderBy(asc(siteSettings.key));
  const map: SettingsMap = {};
  for (const row of rows) map[row.key] = row.value;
  return map;
}

export async function listDownloads(db: Db): Promise<Download[]> {
  const rows = await db
    .select()
    .from(downloads)
    .where(eq(downloads.is_active, true))
    .orderBy(desc(downloads.is_featured), asc(downloads.sort_order), asc(downloads.name), asc(downloads.id));
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    description: d.description,
    download_url: d.download_url || null,
    file_type: d.file_type,
    file_size: d.file_size,
    version: d.version,
    device_compatibility: compatibilityList(d.device_compatibility),
    installation_guide: d.installation_guide || null,
    download_count: d.download_count,
    is_featured: d.is_featured,
    qr_code_data: d.qr_code_data,
    logo_url: d.logo_url,
    sort_order: d.sort_order,
    is_active: d.is_active,
  }));
}

/** The spec allows "a list or a single text"; the API always answers a list. */
function compatibilityList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (typeof value === "string" && value.trim()) return [value];
  return [];
}

/** Published, approved reviews; those in `hidden` (demo reviews still as seeded, db/seed.ts demoClaims) left off. */
export async function listTestimonials(db: Db, hidden: ReadonlySet<string> = new Set()): Promise<Testimonial[]> {
  const rows = await db
    .select()
    .from(testimonialsManaged)
    .where(and(eq(testimonialsManaged.is_published, true), eq(testimonialsManaged.is_approved, true)))
    .orderBy(
      desc(testimonialsManaged.is_featured),
      asc(testimonialsManaged.sort_order),
      desc(testimonialsManaged.created_at),
      asc(testimonialsManaged.id),
    );
  return rows
    .filter((t) => !hidden.has(t.id))
    .map((t) => ({
      id: t.id,
      client_name: t.client_name,
      location: t.location,
      content: t.content,
      rating: t.rating,
      is_featured: t.is_featured,
      sort_order: t.sort_order,
      created_at: t.created_at.toISOString(),
    }));
}
