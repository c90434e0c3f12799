// Public site-content reads: image registry, homepage content, branding, notices, releases.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { homepageContent, imageRegistry, notices, releases, siteBranding } from "@/server/db/schema";
import type { BrandingMap, ContentSection, ImageEntry, Notice, Release } from "@/shared/api";

/** Every registered image, by key; the image_url already carries its version. */
export async function listImages(db: Db): Promise<ImageEntry[]> {
  const rows = await db.select().from(imageRegistry).orderBy(asc(imageRegistry.image_key));
  return rows.map((i) => ({
    id: i.id,
    image_key: i.image_key,
    image_url: withVersion(i.image_url, i.version),
    alt_text: i.alt_text,
    version: i.version,
    updated_at: i.updated_at.toISOString(),
  }));
}

/** Appends v={version} so a replaced image is fetched again (browsers cache by URL). */
export function withVersion(url: string, version: number): string {
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const separator = base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
  return `${base}${separator}v=${encodeURIComponent(String(version))}${hash}`;
}

/** Active homepage content, every section, by sort_order (the route narrows to one section). */
/** The active sections; `hidden` names content keys left off ('hero.rating_text': a demo claim, db/seed.ts demoClaims). */
export async function listContent(db: Db, hidden: ReadonlySet<string> = new Set()): Promise<ContentSection[]> {
  const rows = await db
    .select()
    .from(homepageContent)
    .where(eq(homepageContent.is_active, true))
    .orderBy(asc(homepageContent.sort_order), asc(homepageContent.section_name), asc(homepageContent.id));
  return rows.map((c) => ({
    id: c.id,
    section_name: c.section_name,
    title: c.title,
    description: c.description,
    content: Object.fromEntries(Object.entries(contentObject(c.content)).filter(([key]) => !hidden.has(`${c.section_name}.${key}`))),
    is_active: c.is_active,
    sort_order: c.sort_order,
  }));
}

/** The spec allows content as "a JSON string or an object"; the API always answers an object. */
function contentObject(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

export async function brandingMap(db: Db): Promise<BrandingMap> {
  const rows = await db
    .select({ name: siteBranding.setting_name, value: siteBranding.setting_value })
    .from(siteBranding)
    .where(eq(siteBranding.is_active, true))
    .orderBy(asc(siteBranding.setting_name));
  const map: BrandingMap = {};
  for (const row of rows) map[row.name] = row.value;
  return map;
}

/**
 * Active notices for one audience ("public": the site; "clients": the portal; both see "all"),
 * newest first, with their windows still to be applied (see noticesAt).
 */
export async function listNotices(db: Db, audience: "public" | "clients"): Promise<Notice[]> {
  const rows = await db
    .select()
    .from(notices)
    .where(and(eq(notices.is_active, true), inArray(notices.audience, [audience, "all"])))
    .orderBy(desc(notices.created_at), asc(notices.id));
  return rows.map((n) => ({
    id: n.id,
    title: n.title,
    body: n.body,
    severity: n.severity,
    audience: n.audience,
    starts_at: n.starts_at?.toISOString() ?? null,
    ends_at: n.ends_at?.toISOString() ?? null,
    created_at: n.created_at.toISOString(),
  }));
}

/**
 * Notices whose [starts_at, ends_at] window contains `now` (a missing bound is open). Applied
 * per request, so a cached list stays right when a window opens or closes without a write.
 */
export function noticesAt(list: readonly Notice[], now: number): Notice[] {
  return list.filter(
    (n) => (n.starts_at === null || Date.parse(n.starts_at) <= now) && (n.ends_at === null || now <= Date.parse(n.ends_at)),
  );
}

export async function listReleases(db: Db): Promise<Release[]> {
  const rows = await db
    .select()
    .from(releases)
    .where(eq(releases.is_published, true))
    .orderBy(desc(releases.released_on), desc(releases.created_at), asc(releases.id));
  return rows.map((r) => ({ id: r.id, version: r.version, title: r.title, body: r.body, released_on: r.released_on }));
}

/** The product's own name, for a shop whose branding has none yet (web: DEFAULT_COMPANY_NAME). */
const DEFAULT_NAME = "StreamDesk";
const DEFAULT_DESCRIPTION = "Premium streaming, set up in minutes. Free 24-hour trial and local support.";
/** Launchers cut longer short names. */
const SHORT_NAME_MAX = 12;

/**
 * The web app manifest (what a phone shows for the installed app) from the business's own
 * branding, so a rebranded shop installs under its own name.
 */
export function webManifest(branding: BrandingMap): Record<string, unknown> {
  const name = branding.company_name?.trim() || DEFAULT_NAME;
  const short = name.length <= SHORT_NAME_MAX ? name : (name.split(/\s+/)[0] ?? name).slice(0, SHORT_NAME_MAX);
  return {
    name,
    short_name: short,
    description: branding.tagline?.trim() || DEFAULT_DESCRIPTION,
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#07080c",
    theme_color: "#07080c",
    lang: "en-ZA",
    categories: ["entertainment"],
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    ],
  };
}
