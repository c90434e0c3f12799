// The demo seed: spec §9's prices, a special that matches by spec §4's rules, written once,
// never over an operator's edits, and exactly once when several processes start together.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, openTestDatabase, type TestApp } from "@/server/testing";
import { type Database, type Db, openDatabase } from "./client";
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
import { demoContentLeft, SEED_MARKER_KEY, seedIfEmpty } from "./seed";
import {
  DEMO_CONTENT_KEY,
  REVIEW_AGES_DAYS,
  seedBanners,
  seedBranding,
  seedDownloads,
  seedHomepageContent,
  seedImages,
  seedKbArticles,
  seedReleases,
  seedSettings,
  seedSpecials,
  seedTestimonials,
} from "./seed-content";

const PUBLIC_DIR = path.resolve(import.meta.dirname, "../../../public");

const DEVICE_VALUES = [
  "android",
  "ios",
  "apple-tv",
  "smart-tv-android",
  "smart-tv-samsung",
  "firestick",
  "android-box",
  "non-google-certified",
  "pc",
];

/** Row counts of every table the seed writes: "nothing changed" means these stay equal. */
async function counts(db: Db): Promise<Record<string, number>> {
  const tables = {
    packages,
    pricingSpecials,
    banners,
    siteSettings,
    homepageContent,
    siteBranding,
    downloads,
    testimonialsManaged,
    systemComponents,
    kbArticles,
    releases,
    imageRegistry,
  };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    const [{ n }] = await db.select({ n: count() }).from(table);
    out[name] = n;
  }
  return out;
}

describe("seed on a new shop", () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.db;
  });
  afterAll(async () => {
    await t.close();
  });

  it("writes spec §9's five packages with their prices, in sort order, 3 Months featured", async () => {
    const rows = await db.select().from(packages).orderBy(asc(packages.sort_order));
    expect(rows.map((p) => [p.name, p.price, p.duration, p.duration_months])).toEqual([
      ["Month to Month", 650, "1 Month", 1],
      ["3 Months", 1650, "3 Months", 3],
      ["6 Months", 3150, "6 Months", 6],
      ["12 Months", 5999, "12 Months", 12],
      ["24 Months", 10999, "24 Months", 24],
    ]);
    expect(rows.filter((p) => p.is_featured).map((p) => p.name)).toEqual(["3 Months"]);
    for (const p of rows) {
      expect(p.is_active).toBe(true);
      expect(p.features.length).toBeGreaterThanOrEqual(3);
      expect(p.description).not.toBe("");
    }
  });

  it("writes one special that matches the 3 Months package by spec §4 (name and price within 0.01)", async () => {
    const specials = await db.select().from(pricingSpecials);
    expect(specials).toHaveLength(1);
    const [special] = specials;
    const [pkg] = await db.select().from(packages).where(eq(packages.name, special.package_name));
    expect(pkg?.name).toBe("3 Months");
    expect(Math.abs(special.original_price - pkg.price)).toBeLessThanOrEqual(0.01);
    expect(special.special_price).toBeLessThan(special.original_price);
    expect(special.is_active).toBe(true);
  });

  it("writes one special popup banner and one inline banner", async () => {
    const rows = await db.select().from(banners);
    expect(rows.map((b) => b.banner_type).sort()).toEqual(["info", "special"]);
  });

  it("writes settings with EFT placeholders and legal facts left empty for the operator", async () => {
    const rows = await db.select().from(siteSettings);
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    expect(value("support_hours")).toBe("9am-8pm, 7 days a week");
    expect(value("free_trial_hours")).toBe("24");
    expect(value("prices_include_vat")).toBe("false");
    expect(value("eft_account_number")).toBe("Set in Admin › Settings");
    for (const key of [
      "business_legal_name",
      "business_address",
      "registration_number",
      "information_officer_name",
      "information_officer_email",
    ]) {
      const row = rows.find((r) => r.key === key);
      expect(row?.value, key).toBe("");
      expect(row?.description, key).toMatch(/fill in/i);
    }
    // The marker is there but never public (public reads take active settings only).
    expect(rows.find((r) => r.key === SEED_MARKER_KEY)?.is_active).toBe(false);
  });

  it("writes the homepage sections, branding and image keys the spec names", async () => {
    const sections = await db.select().from(homepageContent);
    const hero = sections.find((s) => s.section_name === "hero");
    expect(hero?.content).toMatchObject({ cta_primary: "Try Free Now", cta_secondary: "Start Streaming Today" });
    const about = sections.find((s) => s.section_name === "about")?.content as { features: { icon: string }[] };
    const features = about.features;
    expect(features.map((f) => f.icon)).toEqual(["Shield", "Zap", "Users", "Heart"]);
    const footer = sections.find((s) => s.section_name === "footer")?.content as {
      links: { id: string }[];
      support_links: { url: string }[];
    };
    expect(footer.links.map((l) => l.id)).toEqual(["pricing", "about", "testimonials", "order"]);
    expect(footer.support_links.map((l) => l.url)).toEqual(["/setup-guide", "/technical-support", "/downloads"]);

    const branding = Object.fromEntries((await db.select().from(siteBranding)).map((b) => [b.setting_name, b.setting_value]));
    expect(branding).toMatchObject({
      company_name: "StreamDesk",
      whatsapp_number: "27821234567",
      support_email: "support@streamdesk.co.za",
    });

    const images = await db.select().from(imageRegistry);
    const byKey = Object.fromEntries(images.map((i) => [i.image_key, i]));
    expect(byKey.pwa_icon?.image_url).toBe("/icon-192.png");
    for (const key of ["about_company_logo", "footer_logo", "hero_logo", "testimonial_avatar", "footer_mascot"]) {
      expect(byKey[key]?.image_url, key).toMatch(/^\/images\/.+\.svg$/);
      expect(byKey[key]?.version).toBe(1);
    }
    // Pictures are described; logos are left for the pages to name after company_name.
    for (const key of ["testimonial_avatar", "footer_mascot", "pwa_icon"]) expect(byKey[key]?.alt_text, key).not.toBe("");
    for (const key of ["about_company_logo", "footer_logo", "hero_logo"]) expect(byKey[key]?.alt_text, key).toBe("");
  });

  it("writes three apps with store links, guides and the spec's device values, one featured", async () => {
    const apps = await db.select().from(downloads);
    expect(apps).toHaveLength(3);
    expect(apps.filter((a) => a.is_featured)).toHaveLength(1);
    for (const app of apps) {
      expect(app.download_url).toMatch(/^https:\/\//);
      expect(app.installation_guide).toMatch(/^1\. /);
      expect(app.logo_url).toMatch(/^\/images\/apps\/.+\.svg$/);
      expect(app.device_compatibility.length).toBeGreaterThan(0);
      for (const device of app.device_compatibility) expect(DEVICE_VALUES).toContain(device);
    }
  });

  it("writes six public testimonials, articles in four categories, three 2026 releases and five components", async () => {
    const testimonials = await db.select().from(testimonialsManaged);
    expect(testimonials).toHaveLength(6);
    for (const r of testimonials) {
      expect(r.is_approved && r.is_published).toBe(true);
      expect(r.rating).toBeGreaterThanOrEqual(4);
      expect(r.rating).toBeLessThanOrEqual(5);
    }
    const articles = await db.select().from(kbArticles);
    expect(articles).toHaveLength(6);
    expect(new Set(articles.map((a) => a.category))).toEqual(new Set(["Getting Started", "Devices", "Troubleshooting", "Billing & EFT"]));
    expect(articles.some((a) => /buffering/i.test(a.title))).toBe(true);
    const rel = await db.select().from(releases);
    expect(rel).toHaveLength(3);
    for (const r of rel) expect(r.released_on.startsWith("2026-")).toBe(true);
    const components = await db.select().from(systemComponents).orderBy(asc(systemComponents.sort_order));
    expect(components.map((c) => c.key)).toEqual(["streaming", "website", "payments", "messaging", "database"]);
  });

  it("dates the demo reviews over the months before the first start, not all on the day it ran", async () => {
    const rows = await db.select().from(testimonialsManaged).orderBy(asc(testimonialsManaged.sort_order));
    const days = new Set(rows.map((r) => r.created_at.toISOString().slice(0, 10)));
    expect(days.size).toBe(rows.length);
    const ages = rows.map((r) => Math.round((Date.now() - r.created_at.getTime()) / 86_400_000));
    expect(ages).toEqual([...REVIEW_AGES_DAYS]);
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(90);
  });

  it("records what is only an example, and stops calling each part demo once the owner replaces it", async () => {
    const [record] = await db.select().from(siteSettings).where(eq(siteSettings.key, DEMO_CONTENT_KEY));
    expect(record.is_active).toBe(false); // never public
    const left = await demoContentLeft(db);
    expect(left.testimonials).toHaveLength(6);
    expect(left.homepage).toEqual(["hero.rating_text"]);
    expect(left.branding.sort()).toEqual(["support_email", "whatsapp_number"]);
    expect(left.settings).toEqual(
      expect.arrayContaining(["eft_bank_name", "eft_account_number", "vat_note", "business_address", "information_officer_name"]),
    );
    expect(left.settings).not.toContain("support_hours");

    // The owner rewrites one review, puts in the real bank and WhatsApp number, and rewords the rating line.
    const [review] = await db.select().from(testimonialsManaged).limit(1);
    await db.update(testimonialsManaged).set({ content: "A real customer's words." }).where(eq(testimonialsManaged.id, review.id));
    await db.update(siteSettings).set({ value: "FNB" }).where(eq(siteSettings.key, "eft_bank_name"));
    await db.update(siteBranding).set({ setting_value: "27831112222" }).where(eq(siteBranding.setting_name, "whatsapp_number"));
    const [hero] = await db.select().from(homepageContent).where(eq(homepageContent.section_name, "hero"));
    await db
      .update(homepageContent)
      .set({ content: { ...hero.content, rating_text: "Rated 4.8 by 212 customers" } })
      .where(eq(homepageContent.id, hero.id));

    const after = await demoContentLeft(db);
    expect(after.testimonials).toHaveLength(5);
    expect(after.testimonials).not.toContain(review.id);
    expect(after.homepage).toEqual([]);
    expect(after.branding).toEqual(["support_email"]);
    expect(after.settings).not.toContain("eft_bank_name");
    expect(after.settings).toContain("eft_account_number");
  });

  it("never spells out the product's own name or promises 24/7 support in the texts a customer reads", () => {
    const texts = JSON.stringify([
      seedHomepageContent,
      seedKbArticles,
      seedReleases,
      seedImages,
      seedBanners,
      seedSpecials,
      seedDownloads,
      seedTestimonials(new Date()),
      seedSettings.filter((row) => row.key !== "eft_reference_prefix"),
    ]);
    expect(texts).not.toMatch(/StreamDesk/i);
    expect(texts).not.toMatch(/24\/7|24 hours a day/i);
    // The name lives in branding only, where the owner changes it.
    expect(seedBranding.find((b) => b.setting_name === "company_name")?.setting_value).toBe("StreamDesk");
  });

  it("spells as South Africans do: centre and e-mail", () => {
    const texts = JSON.stringify([seedHomepageContent, seedKbArticles, seedReleases, seedBanners, seedDownloads, seedSettings]);
    expect(texts).not.toMatch(/\bcenter\b/i);
    expect(texts).not.toMatch(/\bemail\b/i);
  });

  it("describes paying by EFT as the site offers it: in the review step when card payments are off, and on request", () => {
    const eft = seedKbArticles.find((a) => a.slug === "paying-by-eft");
    expect(eft?.body).toMatch(/Pay Now/);
    expect(eft?.body).toMatch(/card payments are (switched )?off/i);
    expect(eft?.body).toMatch(/ask us/i);
    expect(eft?.body).not.toMatch(/select EFT as the payment method/i);
  });

  it("changes nothing when run again, and keeps an operator's edits", async () => {
    const before = await counts(db);
    await seedIfEmpty(db);
    expect(await counts(db)).toEqual(before);

    // The operator changes a price and deletes a testimonial; a restart must not undo either.
    await db.update(packages).set({ price: 700 }).where(eq(packages.name, "Month to Month"));
    const [gone] = await db.select().from(testimonialsManaged).limit(1);
    await db.delete(testimonialsManaged).where(eq(testimonialsManaged.id, gone.id));
    await seedIfEmpty(db);

    const [edited] = await db.select().from(packages).where(eq(packages.name, "Month to Month"));
    expect(edited.price).toBe(700);
    expect(await db.select().from(testimonialsManaged).where(eq(testimonialsManaged.id, gone.id))).toEqual([]);
    expect((await counts(db)).testimonialsManaged).toBe(5);
    expect((await counts(db)).packages).toBe(5);
  });
});

describe("seeded image addresses", () => {
  it("point at files that ship in public/ (served at the site root)", () => {
    const urls = [
      ...seedImages.map((i) => i.image_url),
      ...seedDownloads.map((d) => d.logo_url as string),
      "/favicon.svg",
      "/icon-512.png",
    ];
    for (const url of urls) {
      const file = path.join(PUBLIC_DIR, url);
      expect(existsSync(file), url).toBe(true);
      // Small enough for phones on mobile data.
      expect(statSync(file).size, url).toBeLessThan(url.endsWith(".svg") ? 8 * 1024 : 64 * 1024);
    }
  });
});

describe("seed on an unseeded database", () => {
  /** The counts of a seeded database, and its one marker. */
  async function expectSeededOnce(db: Db) {
    const n = await counts(db);
    expect(n.packages).toBe(5);
    expect(n.pricingSpecials).toBe(1);
    expect(n.testimonialsManaged).toBe(6);
    expect(n.downloads).toBe(3);
    expect(n.releases).toBe(3);
    expect(n.homepageContent).toBe(3);
    const markers = await db.select().from(siteSettings).where(eq(siteSettings.key, SEED_MARKER_KEY));
    expect(markers).toHaveLength(1);
  }

  it.skipIf(onPostgres())(
    "seeds exactly once when started twice together (on PGlite's one connection the two take turns; the race is the PostgreSQL test below)",
    async () => {
      const database = await openTestDatabase();
      try {
        await Promise.all([seedIfEmpty(database.db), seedIfEmpty(database.db)]);
        await expectSeededOnce(database.db);
      } finally {
        await database.close();
      }
    },
  );

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): seeds exactly once when two processes start at the same moment",
    async () => {
      const database = await openTestDatabase();
      // the second start gets its own connection pool, as a second process would
      const second: Database = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
      try {
        // both claims (the marker in site_settings) wait behind the lock, then go together; both finish
        await startTogether(database.url as string, "LOCK TABLE site_settings IN EXCLUSIVE MODE", 2, () =>
          Promise.all([seedIfEmpty(database.db), seedIfEmpty(second.db)]),
        );
        await expectSeededOnce(database.db);
      } finally {
        await second.close();
        await database.close();
      }
    },
  );

  it("writes no demo content over a catalogue that already exists", async () => {
    const database = await openTestDatabase();
    try {
      await database.db.insert(packages).values({ name: "Operator's own", price: 99, duration: "1 Month" });
      await seedIfEmpty(database.db);
      const n = await counts(database.db);
      expect(n.packages).toBe(1);
      expect(n.testimonialsManaged).toBe(0);
      expect(n.downloads).toBe(0);
    } finally {
      await database.close();
    }
  });
});
