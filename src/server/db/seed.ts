// Demo content for a new shop, written once. Several server processes may start together on
// one PostgreSQL, so the whole seed is one transaction that first claims a marker row: only
// the process whose insert of the marker succeeds seeds; the others' inserts wait on the
// unique key and then find it taken. The marker stays forever, so an operator who edits or
// deletes demo rows never sees them come back.
import { count } from "drizzle-orm";
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
    await tx.insert(testimonialsManaged).values(seedTestimonials);
    await tx.insert(systemComponents).values(seedComponents).onConflictDoNothing({ target: systemComponents.key });
    await tx.insert(kbArticles).values(seedKbArticles).onConflictDoNothing({ target: kbArticles.slug });
    await tx.insert(releases).values(seedReleases);
    await tx.insert(imageRegistry).values(seedImages).onConflictDoNothing({ target: imageRegistry.image_key });
  });
}
