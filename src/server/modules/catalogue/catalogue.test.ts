import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { banners, downloads, packages, pricingSpecials, siteSettings, testimonialsManaged } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { Banner, Download, Package, SettingsMap, Special, Testimonial } from "@/shared/api";

let t: TestApp;
const get = (url: string) => t.app.inject({ method: "GET", url });
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/packages", () => {
  it("lists active packages by sort_order then name, with numbers and ISO dates", async () => {
    await t.app.db.insert(packages).values([
      { name: "6 Months", price: 900, duration: "6 Months", duration_months: 6, sort_order: 3 },
      { name: "Month to Month", price: 199.99, duration: "1 Month", features: ["HD", "4K"], sort_order: 1, is_featured: true },
      { name: "3 Months", price: 500, duration: "3 Months", duration_months: 3, sort_order: 2 },
      { name: "Annual", price: 1650, duration: "12 Months", sort_order: 2 },
      { name: "Retired", price: 100, duration: "1 Month", sort_order: 0, is_active: false },
    ]);
    const res = await get("/api/packages");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["cache-control"]).toBe("no-cache");
    const { data } = res.json() as { data: Package[] };
    expect(data.map((p) => p.name)).toEqual(["Month to Month", "3 Months", "Annual", "6 Months"]);
    const first = data[0];
    expect(first.price).toBe(199.99);
    expect(first.features).toEqual(["HD", "4K"]);
    expect(first.is_featured).toBe(true);
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(data[1].duration_months).toBe(3);
  });

  it("shows a change made directly in the database (the change feed refreshes the cache)", async () => {
    const before = (await get("/api/packages")).json() as { data: Package[] };
    expect(before.data.find((p) => p.name === "3 Months")?.price).toBe(500);
    await t.app.db.update(packages).set({ price: 450 }).where(eq(packages.name, "3 Months"));
    await eventually(async () => {
      const after = (await get("/api/packages")).json() as { data: Package[] };
      expect(after.data.find((p) => p.name === "3 Months")?.price).toBe(450);
    });
    await t.app.db.update(packages).set({ is_active: false }).where(eq(packages.name, "Annual"));
    await eventually(async () => {
      const after = (await get("/api/packages")).json() as { data: Package[] };
      expect(after.data.map((p) => p.name)).not.toContain("Annual");
    });
  });
});

describe("GET /api/specials", () => {
  it("lists active specials whose window contains now; missing bounds are open", async () => {
    await t.app.db.insert(pricingSpecials).values([
      { package_name: "3 Months", original_price: 500, special_price: 450, title: "open-ended" },
      { package_name: "6 Months", original_price: 900, special_price: 800, title: "running", starts_at: at(-DAY), ends_at: at(DAY) },
      { package_name: "1 Month", original_price: 200, special_price: 150, title: "started", starts_at: at(-DAY) },
      { package_name: "12 Months", original_price: 1650, special_price: 1500, title: "until", ends_at: at(DAY) },
      { package_name: "3 Months", original_price: 500, special_price: 400, title: "future", starts_at: at(DAY) },
      { package_name: "3 Months", original_price: 500, special_price: 420, title: "expired", ends_at: at(-DAY) },
      { package_name: "3 Months", original_price: 500, special_price: 410, title: "inactive", is_active: false },
    ]);
    const res = await get("/api/specials");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    const { data } = res.json() as { data: Special[] };
    expect(data.map((s) => s.title).sort()).toEqual(["open-ended", "running", "started", "until"]);
    const running = data.find((s) => s.title === "running");
    expect(running).toMatchObject({ package_name: "6 Months", original_price: 900, special_price: 800 });
    expect(Object.keys(running ?? {}).sort()).toEqual(["description", "id", "original_price", "package_name", "special_price", "title"]);
  });

  it("opens and closes windows on time even when nothing is written", async () => {
    await t.app.db.insert(pricingSpecials).values([
      { package_name: "Soon", original_price: 10, special_price: 5, title: "opens-soon", starts_at: at(1200) },
      { package_name: "Ending", original_price: 10, special_price: 5, title: "closes-soon", ends_at: at(1200) },
    ]);
    await eventually(async () => {
      const titles = ((await get("/api/specials")).json() as { data: Special[] }).data.map((s) => s.title);
      expect(titles).toContain("closes-soon");
      expect(titles).not.toContain("opens-soon");
    });
    await eventually(
      async () => {
        const titles = ((await get("/api/specials")).json() as { data: Special[] }).data.map((s) => s.title);
        expect(titles).toContain("opens-soon");
        expect(titles).not.toContain("closes-soon");
      },
      5000,
      100,
    );
  });
});

describe("GET /api/banners", () => {
  it("lists active banners by sort_order, newest first within one sort_order", async () => {
    await t.app.db.insert(banners).values([
      { title: "older", sort_order: 1, created_at: at(-2 * DAY) },
      { title: "newer", sort_order: 1, created_at: at(-DAY), banner_type: "special" },
      { title: "first", sort_order: 0, created_at: at(-3 * DAY) },
      { title: "hidden", sort_order: 0, is_active: false },
    ]);
    const { data } = (await get("/api/banners")).json() as { data: Banner[] };
    expect(data.map((b) => b.title)).toEqual(["first", "newer", "older"]);
    expect(data[1].banner_type).toBe("special");
  });
});

describe("GET /api/settings", () => {
  it("answers a key→value map of active settings and never exposes secret_ or private_ keys", async () => {
    await t.app.db.insert(siteSettings).values([
      { key: "bank_name", value: "FNB" },
      { key: "support_hours", value: "9am-8pm, 7 days" },
      { key: "old_setting", value: "x", is_active: false },
      { key: "secret_ikhokha_key", value: "sk_live_123" },
      { key: "private_note", value: "internal" },
      { key: "SECRET_UPPER", value: "also hidden" },
    ]);
    const res = await get("/api/settings");
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: SettingsMap };
    expect(data).toEqual({ bank_name: "FNB", support_hours: "9am-8pm, 7 days" });
    expect(res.body).not.toContain("sk_live_123");
  });

  it("refreshes after a direct change", async () => {
    await get("/api/settings");
    await t.app.db.update(siteSettings).set({ value: "Capitec" }).where(eq(siteSettings.key, "bank_name"));
    await eventually(async () => {
      expect(((await get("/api/settings")).json() as { data: SettingsMap }).data.bank_name).toBe("Capitec");
    });
  });
});

describe("GET /api/downloads", () => {
  it("lists active apps featured first, then sort_order, then name", async () => {
    await t.app.db.insert(downloads).values([
      { name: "Zeta Player", sort_order: 1, device_compatibility: ["android"], download_url: "https://example.test/zeta.apk" },
      { name: "Alpha Player", sort_order: 1 },
      { name: "Smart TV Player", sort_order: 5, is_featured: true, installation_guide: "Open the store" },
      { name: "Early", sort_order: 0 },
      { name: "Gone", sort_order: 0, is_active: false, is_featured: true },
    ]);
    const { data } = (await get("/api/downloads")).json() as { data: Download[] };
    expect(data.map((d) => d.name)).toEqual(["Smart TV Player", "Early", "Alpha Player", "Zeta Player"]);
    const zeta = data[3];
    expect(zeta.device_compatibility).toEqual(["android"]);
    expect(zeta.download_url).toBe("https://example.test/zeta.apk");
    expect(data[1].download_url).toBeNull();
    expect(data[1].installation_guide).toBeNull();
    expect(data[0].installation_guide).toBe("Open the store");
  });
});

describe("GET /api/testimonials", () => {
  it("lists only published and approved ones: featured first, sort_order, newest first", async () => {
    await t.app.db.insert(testimonialsManaged).values([
      { client_name: "old", content: "c", is_published: true, is_approved: true, sort_order: 1, created_at: at(-3 * DAY) },
      { client_name: "new", content: "c", is_published: true, is_approved: true, sort_order: 1, created_at: at(-DAY) },
      { client_name: "star", content: "c", is_published: true, is_approved: true, is_featured: true, sort_order: 9 },
      { client_name: "top", content: "c", is_published: true, is_approved: true, sort_order: 0, created_at: at(-9 * DAY) },
      { client_name: "unapproved", content: "c", is_published: true, is_approved: false },
      { client_name: "unpublished", content: "c", is_published: false, is_approved: true },
    ]);
    const { data } = (await get("/api/testimonials")).json() as { data: Testimonial[] };
    expect(data.map((x) => x.client_name)).toEqual(["star", "top", "new", "old"]);
    expect(data[0].rating).toBe(5);
  });
});

describe("every catalogue read follows direct changes (change feed → cache)", () => {
  const names = async (url: string, field: string) =>
    ((await get(url)).json() as { data: Record<string, unknown>[] }).data.map((row) => row[field]);

  it("specials, banners, downloads and testimonials", async () => {
    // read first so each list is cached, then change the rows behind the cache's back
    expect(await names("/api/specials", "title")).not.toContain("fresh special");
    expect(await names("/api/banners", "title")).toContain("older");
    expect(await names("/api/downloads", "name")).toContain("Early");
    expect(await names("/api/testimonials", "client_name")).not.toContain("unapproved");

    await t.app.db
      .insert(pricingSpecials)
      .values({ package_name: "3 Months", original_price: 500, special_price: 399, title: "fresh special" });
    await t.app.db.update(banners).set({ is_active: false }).where(eq(banners.title, "older"));
    await t.app.db.update(downloads).set({ name: "Early Bird" }).where(eq(downloads.name, "Early"));
    await t.app.db.update(testimonialsManaged).set({ is_approved: true }).where(eq(testimonialsManaged.client_name, "unapproved"));

    await eventually(async () => {
      expect(await names("/api/specials", "title")).toContain("fresh special");
      expect(await names("/api/banners", "title")).not.toContain("older");
      expect(await names("/api/downloads", "name")).toContain("Early Bird");
      expect(await names("/api/testimonials", "client_name")).toContain("unapproved");
    });
  });
});

describe("bad and unknown requests", () => {
  const endpoints = ["/api/packages", "/api/specials", "/api/banners", "/api/settings", "/api/downloads", "/api/testimonials"];
  const hostile = [
    "?foo=bar",
    "?id=1%27%20OR%201%3D1%3B--&drop=table%20packages",
    "?a=1&a=2&a[]=3",
    "?emoji=%F0%9F%98%80%E2%80%AE&nul=%00",
    `?long=${"x".repeat(5000)}`,
    "?%FF%FE=%C0%AF",
  ];

  it("ignores unknown and hostile query parameters", async () => {
    for (const endpoint of endpoints) {
      for (const query of hostile) {
        const res = await get(`${endpoint}${query}`);
        expect(res.statusCode, `${endpoint}${query}`).toBe(200);
        expect(res.json()).toHaveProperty("data");
      }
    }
  });

  it("answers an unknown /api path with a 404 in the error shape", async () => {
    const res = await get("/api/no-such-thing?x=1");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });
});
