// Demo content for a new shop, written once. Several server processes may start together on
// one PostgreSQL, so the whole seed is one transaction that first claims a marker row: only
// the process whose insert of the marker succeeds seeds; the others' inserts wait on the
// unique key and then find it taken. The marker stays forever, so an operator who edits or
// deletes demo rows never sees them come back.
import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "./client";
import {
  banners,
  downloads,
  homepageContent,
  imageRegistry,
  kbArticles,
  packages,
  pricingSpecials,
  releases,
  siteBranding,
  siteSettings,
  systemComponents,
  testimonialsManaged,
} from "./schema";
import {
  DEMO_CONTENT_KEY,
  type DemoContent,
  demoValues,
  seedBanners,
  seedBranding,
  seedComponents,
  seedDownloads,
  seedHomepageContent,
  seedImages,
  seedKbArticles,
  seedPackages,
  seedReleases,
  seedSettings,
  seedSpecials,
  seedTestimonials,
} from "./seed-content";

/** site_settings key that records that this database has been seeded (inactive: never public). */
export const SEED_MARKER_KEY = "private_seeded_at";

/** Demo content on an empty database only; never overwrites an operator's edits. */
export async function seedIfEmpty(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(siteSettings)
      .values({
        key: SEED_MARKER_KEY,
        value: new Date().toISOString(),
        description: "When the demo content was written. Internal: keeps it from being written again.",
        is_active: false,
      })
      .onConflictDoNothing({ target: siteSettings.key })
      .returning({ id: siteSettings.id });
    if (claimed.length === 0) return;
    // A database that already holds a catalogue (made before the marker existed, or filled by
    // hand) keeps the marker and gets no demo content.
    const [{ n }] = await tx.select({ n: count() }).from(packages);
    if (n > 0) return;

    await tx.insert(packages).values(seedPackages);
    await tx.insert(pricingSpecials).values(seedSpecials);
    await tx.insert(banners).values(seedBanners);
    // onConflictDoNothing: a setting an operator added by hand before first start wins.
    await tx.insert(siteSettings).values(seedSettings).onConflictDoNothing({ target: siteSettings.key });
    await tx.insert(homepageContent).values(seedHomepageContent);
    await tx.insert(siteBranding).values(seedBranding).onConflictDoNothing({ target: siteBranding.setting_name });
    await tx.insert(downloads).values(seedDownloads);
    const reviews = await tx
      .insert(testimonialsManaged)
      .values(seedTestimonials(new Date()))
      .returning({ id: testimonialsManaged.id, content: testimonialsManaged.content });
    await tx.insert(systemComponents).values(seedComponents).onConflictDoNothing({ target: systemComponents.key });
    await tx.insert(kbArticles).values(seedKbArticles).onConflictDoNothing({ target: kbArticles.slug });
    await tx.insert(releases).values(seedReleases);
    await tx.insert(imageRegistry).values(seedImages).onConflictDoNothing({ target: imageRegistry.image_key });
    const demo: DemoContent = { testimonials: reviews, ...demoValues() };
    await tx
      .insert(siteSettings)
      .values({
        key: DEMO_CONTENT_KEY,
        value: JSON.stringify(demo),
        description: "What the demo shop was seeded with that the owner must replace (see demoContentLeft). Internal.",
        is_active: false,
      })
      .onConflictDoNothing({ target: siteSettings.key });
  });
}

/** What is still demo content: each part lists what still reads exactly as it was seeded. */
export interface DemoContentLeft {
  /** ids of reviews still as seeded */
  testimonials: string[];
  /** 'section.key', e.g. 'hero.rating_text' */
  homepage: string[];
  /** branding setting names */
  branding: string[];
  /** settings keys */
  settings: string[];
}

const NOTHING_LEFT: DemoContentLeft = Object.freeze({ testimonials: [], homepage: [], branding: [], settings: [] });

/**
 * The demo content the owner has not replaced yet (for the dashboard to mark as demo): a
 * review, text, contact or setting is demo while it still reads as it was seeded; editing or
 * deleting it ends that. A shop not seeded by us has none.
 */
export async function demoContentLeft(db: Db): Promise<DemoContentLeft> {
  const [record] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, DEMO_CONTENT_KEY));
  let demo: DemoContent;
  try {
    demo = JSON.parse(record?.value ?? "null") as DemoContent;
  } catch {
    return NOTHING_LEFT;
  }
  if (!demo) return NOTHING_LEFT;
  const ids = demo.testimonials.map((t) => t.id);
  const [reviews, sections, branding, settings] = await Promise.all([
    ids.length
      ? db
          .select({ id: testimonialsManaged.id, content: testimonialsManaged.content })
          .from(testimonialsManaged)
          .where(inArray(testimonialsManaged.id, ids))
      : Promise.resolve([]),
    db.select({ name: homepageContent.section_name, content: homepageContent.content }).from(homepageContent),
    db.select({ name: siteBranding.setting_name, value: siteBranding.setting_value }).from(siteBranding),
    db.select({ key: siteSettings.key, value: siteSettings.value }).from(siteSettings),
  ]);
  const seededText = new Map(demo.testimonials.map((t) => [t.id, t.content]));
  const homepage: string[] = [];
  for (const [section, values] of Object.entries(demo.homepage)) {
    for (const [key, value] of Object.entries(values)) {
      if (sections.some((row) => row.name === section && row.content?.[key] === value)) homepage.push(`${section}.${key}`);
    }
  }
  return {
    testimonials: reviews.filter((r) => seededText.get(r.id) === r.content).map((r) => r.id),
    homepage,
    branding: branding.filter((b) => b.name in demo.branding && demo.branding[b.name] === b.value).map((b) => b.name),
    settings: settings.filter((row) => row.key in demo.settings && demo.settings[row.key] === row.value).map((row) => row.key),
  };
}

/**
 * The demo claims the public site leaves off (issue 48 item 7): reviews, and homepage lines such
 * as the hero's "Rated 5 stars by 5,000+ customers", still as they were seeded. A shop with no
 * customers must not show them as facts; the owner replacing one, or confirming it as true
 * (confirmDemoItem), puts it on the site.
 */
export async function demoClaims(db: Db): Promise<{ testimonials: Set<string>; homepage: Set<string> }> {
  const left = await demoContentLeft(db);
  return { testimonials: new Set(left.testimonials), homepage: new Set(left.homepage) };
}

/** A demo item the owner confirms as true: 'testimonial:<id>' or 'homepage:<section>.<key>'. */
export const DEMO_ITEM = /^(testimonial:[0-9a-f-]{36}|homepage:[a-z_]+\.[a-z_]+)$/;

/**
 * The owner keeps a demo claim as theirs: it leaves the demo record, so the site shows it and the
 * dashboard stops marking it. False when it is not (or no longer) demo content.
 */
export async function confirmDemoItem(db: Pick<Db, "select" | "update">, item: string): Promise<boolean> {
  const [record] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, DEMO_CONTENT_KEY));
  let demo: DemoContent | null;
  try {
    demo = JSON.parse(record?.value ?? "null") as DemoContent | null;
  } catch {
    return false;
  }
  if (!demo) return false;
  const [kind, rest] = [item.slice(0, item.indexOf(":")), item.slice(item.indexOf(":") + 1)];
  if (kind === "testimonial") {
    if (!demo.testimonials.some((t) => t.id === rest)) return false;
    demo.testimonials = demo.testimonials.filter((t) => t.id !== rest);
  } else {
    const [section, key] = rest.split(".");
    if (!(key in (demo.homepage[section] ?? {}))) return false;
    delete demo.homepage[section][key];
  }
  await db
    .update(siteSettings)
    .set({ value: JSON.stringify(demo), updated_at: new Date() })
    .where(eq(siteSettings.key, DEMO_CONTENT_KEY));
  return true;
}
