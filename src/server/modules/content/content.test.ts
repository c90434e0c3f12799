import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homepageContent, imageRegistry, notices, releases, siteBranding } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { BrandingMap, ContentSection, ImageEntry, Notice, Release } from "@/shared/api";
import { withVersion } from "./service";

let t: TestApp;
const get = (url: string) => t.app.inject({ method: "GET", url });
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  await t.app.db.insert(imageRegistry).values([
    { image_key: "pwa_icon", image_url: "/icon-192.png", version: 3 },
    { image_key: "footer_logo", image_url: "https://cdn.example.test/logo.png?w=200", version: 2, alt_text: "Logo" },
    { image_key: "about_company_logo", image_url: "/about.png#top", version: 1 },
    { image_key: "footer_mascot", image_url: "/mascot.svg" },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe("withVersion", () => {
  it.each([
    ["/a.png", 3, "/a.png?v=3"],
    ["/a.png?w=2", 3, "/a.png?w=2&v=3"],
    ["/a.png?", 1, "/a.png?v=1"],
    ["/a.png#frag", 2, "/a.png?v=2#frag"],
  ])("%s at version %i → %s", (url, version, expected) => {
    expect(withVersion(url, version)).toBe(expected);
  });
});

describe("GET /api/images", () => {
  it("lists every image with its version in the URL", async () => {
    const res = await get("/api/images");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    const { data } = res.json() as { data: ImageEntry[] };
    const byKey = Object.fromEntries(data.map((i) => [i.image_key, i]));
    expect(Object.keys(byKey).sort()).toEqual(["about_company_logo", "footer_logo", "footer_mascot", "pwa_icon"]);
    expect(byKey.pwa_icon.image_url).toBe("/icon-192.png?v=3");
    expect(byKey.footer_logo.image_url).toBe("https://cdn.example.test/logo.png?w=200&v=2");
    expect(byKey.about_company_logo.image_url).toBe("/about.png?v=1#top");
    expect(byKey.footer_logo).toMatchObject({ version: 2, alt_text: "Logo" });
    expect(byKey.footer_mascot.version).toBe(1);
  });

  it("filters by a comma list of keys (trimmed, duplicates merged, unknown keys ignored)", async () => {
    const res = await get(`/api/images?keys=${encodeURIComponent(" pwa_icon, footer_logo ,pwa_icon,,nope")}`);
    expect(res.statusCode).toBe(200);
    const keys = (res.json() as { data: ImageEntry[] }).data.map((i) => i.image_key).sort();
    expect(keys).toEqual(["footer_logo", "pwa_icon"]);
    const none = (await get("/api/images?keys=nothing_here")).json() as { data: ImageEntry[] };
    expect(none.data).toEqual([]);
  });

  it("refuses too many keys, too long a key or repeated keys parameters with a 400 in the error shape", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `k${i}`).join(",");
    const fifty = Array.from({ length: 50 }, (_, i) => `k${i}`).join(",");
    expect((await get(`/api/images?keys=${fifty}`)).statusCode).toBe(200);
    for (const url of [`/api/images?keys=${many}`, `/api/images?keys=${"k".repeat(65)}`, "/api/images?keys=a&keys=b"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json() as { error: { code: string; message: string; fields: Record<string, string> } };
      expect(body.error.code).toBe("validation");
      expect(body.error.message).toEqual(expect.any(String));
      expect(Object.keys(body.error.fields)).toEqual(["keys"]);
    }
    expect((await get(`/api/images?keys=${"k".repeat(64)}`)).statusCode).toBe(200);
  });

  it("shows a new version after a direct change", async () => {
    await get("/api/images?keys=pwa_icon");
    await t.app.db.update(imageRegistry).set({ version: 4 }).where(eq(imageRegistry.image_key, "pwa_icon"));
    await eventually(async () => {
      const { data } = (await get("/api/images?keys=pwa_icon")).json() as { data: ImageEntry[] };
      expect(data[0].image_url).toBe("/icon-192.png?v=4");
    });
  });
});

describe("GET /api/content", () => {
  beforeAll(async () => {
    await t.app.db.insert(homepageContent).values([
      { section_name: "hero", title: "Stream", sort_order: 1, content: { cta_primary: "Try Free Now" } },
      { section_name: "about", title: "About us", sort_order: 2, content: { features: [{ icon: "Shield", title: "Privacy" }] } },
      { section_name: "footer", title: "Footer", sort_order: 0 },
      { section_name: "about", title: "Old about", sort_order: 0, is_active: false },
    ]);
  });

  it("lists active sections by sort_order, content as an object", async () => {
    const { data } = (await get("/api/content")).json() as { data: ContentSection[] };
    expect(data.map((c) => c.section_name)).toEqual(["footer", "hero", "about"]);
    expect(data[1].content).toEqual({ cta_primary: "Try Free Now" });
    expect(data[0].content).toEqual({});
  });

  it("filters by section", async () => {
    const { data } = (await get("/api/content?section=about")).json() as { data: ContentSection[] };
    expect(data.map((c) => c.title)).toEqual(["About us"]);
    expect(data[0].content).toEqual({ features: [{ icon: "Shield", title: "Privacy" }] });
    expect(((await get("/api/content?section=nothing")).json() as { data: ContentSection[] }).data).toEqual([]);
    expect(((await get("/api/content?section=")).json() as { data: ContentSection[] }).data).toHaveLength(3);
  });

  it("refuses an over-long or repeated section with a 400", async () => {
    for (const url of [`/api/content?section=${"s".repeat(101)}`, "/api/content?section=a&section=b"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect((res.json() as { error: { code: string } }).error.code).toBe("validation");
    }
  });

  it("shows a direct change", async () => {
    await get("/api/content?section=hero");
    await t.app.db.update(homepageContent).set({ title: "Stream everything" }).where(eq(homepageContent.section_name, "hero"));
    await eventually(async () => {
      const { data } = (await get("/api/content?section=hero")).json() as { data: ContentSection[] };
      expect(data[0].title).toBe("Stream everything");
    });
  });
});

describe("GET /api/branding", () => {
  it("answers a setting_name→setting_value map of active branding", async () => {
    await t.app.db.insert(siteBranding).values([
      { setting_name: "company_name", setting_value: "StreamDesk" },
      { setting_name: "support_email", setting_value: "help@example.test" },
      { setting_name: "tagline", setting_value: "old", is_active: false },
    ]);
    const res = await get("/api/branding");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect((res.json() as { data: BrandingMap }).data).toEqual({ company_name: "StreamDesk", support_email: "help@example.test" });
    await t.app.db.update(siteBranding).set({ is_active: true }).where(eq(siteBranding.setting_name, "tagline"));
    await eventually(async () => {
      expect(((await get("/api/branding")).json() as { data: BrandingMap }).data.tagline).toBe("old");
    });
  });
});

describe("GET /api/manifest.webmanifest", () => {
  it("names the installed app after the business, and follows a rebrand", async () => {
    const manifest = async () => {
      const res = await get("/api/manifest.webmanifest");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/manifest\+json/);
      return res.json() as { name: string; short_name: string; description: string; start_url: string; icons: unknown[] };
    };
    const before = await manifest();
    expect(before).toMatchObject({ start_url: "/", display: "standalone", lang: "en-ZA" });
    expect(before.icons).toHaveLength(2);

    await t.app.db
      .update(siteBranding)
      .set({ setting_value: "Kasi Stream Co-operative" })
      .where(eq(siteBranding.setting_name, "company_name"));
    await t.app.db.update(siteBranding).set({ setting_value: "Local TV, local help" }).where(eq(siteBranding.setting_name, "tagline"));
    await eventually(async () => {
      expect(await manifest()).toMatchObject({ name: "Kasi Stream Co-operative", short_name: "Kasi", description: "Local TV, local help" });
    });
  });
});

describe("GET /api/notices", () => {
  it("lists active public notices inside their window, newest first", async () => {
    await t.app.db.insert(notices).values([
      { title: "all-old", audience: "all", created_at: at(-3 * DAY) },
      { title: "public-new", audience: "public", created_at: at(-DAY), starts_at: at(-DAY), ends_at: at(DAY), severity: "warning" },
      { title: "clients-only", audience: "clients" },
      { title: "inactive", audience: "public", is_active: false },
      { title: "future", audience: "public", starts_at: at(DAY) },
      { title: "past", audience: "all", ends_at: at(-1000) },
    ]);
    const res = await get("/api/notices");
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: Notice[] };
    expect(data.map((n) => n.title)).toEqual(["public-new", "all-old"]);
    expect(data[0].severity).toBe("warning");
    expect(data[0].starts_at).toMatch(/Z$/);
    expect(data[1].starts_at).toBeNull();
  });

  it("opens a window on time without a write", async () => {
    await t.app.db.insert(notices).values({ title: "soon", audience: "public", starts_at: at(1000) });
    await eventually(async () => {
      expect(((await get("/api/notices")).json() as { data: Notice[] }).data).toHaveLength(2);
    });
    await eventually(
      async () => {
        expect(((await get("/api/notices")).json() as { data: Notice[] }).data[0].title).toBe("soon");
      },
      5000,
      100,
    );
  });
});

describe("GET /api/releases", () => {
  it("lists published releases, newest release date first", async () => {
    await t.app.db.insert(releases).values([
      { version: "1.0.0", title: "Launch", released_on: "2025-01-10" },
      { version: "1.2.0", title: "Status page", released_on: "2025-06-01", body: "New" },
      { version: "1.1.0", title: "Downloads", released_on: "2025-03-15" },
      { version: "2.0.0", title: "Draft", released_on: "2026-01-01", is_published: false },
    ]);
    const { data } = (await get("/api/releases")).json() as { data: Release[] };
    expect(data.map((r) => r.version)).toEqual(["1.2.0", "1.1.0", "1.0.0"]);
    expect(data[0]).toMatchObject({ title: "Status page", body: "New", released_on: "2025-06-01" });
  });
});

describe("notices and releases follow direct changes (change feed → cache)", () => {
  it("hides a deactivated notice and shows a newly published release", async () => {
    expect(((await get("/api/notices")).json() as { data: Notice[] }).data.map((n) => n.title)).toContain("all-old");
    expect(((await get("/api/releases")).json() as { data: Release[] }).data.map((r) => r.version)).not.toContain("2.0.0");
    await t.app.db.update(notices).set({ is_active: false }).where(eq(notices.title, "all-old"));
    await t.app.db.update(releases).set({ is_published: true }).where(eq(releases.version, "2.0.0"));
    await eventually(async () => {
      expect(((await get("/api/notices")).json() as { data: Notice[] }).data.map((n) => n.title)).not.toContain("all-old");
      expect(((await get("/api/releases")).json() as { data: Release[] }).data[0].version).toBe("2.0.0");
    });
  });
});

describe("hostile query parameters", () => {
  it("never answer 5xx", async () => {
    const endpoints = ["/api/images", "/api/content", "/api/branding", "/api/notices", "/api/releases"];
    const queries = [
      "?keys=%27%3B%20DROP%20TABLE%20image_registry%3B--",
      "?section=%27%20OR%20%271%27%3D%271",
      "?keys=%00&section=%00",
      "?keys=%F0%9F%98%80,%E2%80%AE&section=%C3%A9t%C3%A9",
      "?keys[]=a&section[x]=b",
      `?unknown=${"z".repeat(4000)}`,
    ];
    for (const endpoint of endpoints) {
      for (const query of queries) {
        const res = await get(`${endpoint}${query}`);
        expect(res.statusCode, `${endpoint}${query}`).toBeLessThan(500);
        if (res.statusCode !== 200) expect(res.statusCode).toBe(400);
        expect(res.json()).toSatisfy((body: object) => "data" in body || "error" in body);
      }
    }
  });
});
