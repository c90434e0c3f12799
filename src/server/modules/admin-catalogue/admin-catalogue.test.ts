// What each admin resource does beyond plain CRUD, and that the public site shows an admin's
// edit at once (the change feed invalidates the cached public reads). Also: the packages list
// carries today's price (specials included), and the lifecycle's settings are range-checked.
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, siteSettings } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { GRACE_DAYS_MESSAGE, TRIAL_HOURS_MESSAGE } from "@/shared/lifecycle";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  cookie = (await signedInAdmin(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies in assertions are read loosely; the expectations check them
type Json = Record<string, any>;
const api = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/admin/${url}`,
    headers: { origin: "http://localhost:8080", cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const publicGet = async (url: string) => (await t.app.inject({ method: "GET", url })).json() as Json;
const rows = async (resource: string) => (await api("GET", resource)).json().data as Json[];
const expectFields = (res: { statusCode: number; json(): Json }, status: number, fields: Record<string, string | RegExp>) => {
  expect(res.statusCode).toBe(status);
  const actual = res.json().error.fields as Record<string, string>;
  expect(Object.keys(actual).sort()).toEqual(Object.keys(fields).sort());
  for (const [key, message] of Object.entries(fields)) expect(actual[key]).toMatch(message);
};

describe("packages", () => {
  it("an admin's price change and deactivation show on GET /api/packages at once", async () => {
    const before = (await publicGet("/api/packages")).data as Json[];
    const threeMonths = before.find((p) => p.name === "3 Months")!;
    expect(threeMonths.price).toBe(1650);

    const res = await api("PATCH", `packages/${threeMonths.id}`, { price: 1700 });
    expect(res.json().price).toBe(1700);
    await eventually(async () => {
      const now = (await publicGet("/api/packages")).data as Json[];
      expect(now.find((p) => p.id === threeMonths.id)?.price).toBe(1700);
    });

    await api("PATCH", `packages/${threeMonths.id}`, { is_active: false });
    await eventually(async () => {
      const now = (await publicGet("/api/packages")).data as Json[];
      expect(now.some((p) => p.id === threeMonths.id)).toBe(false);
    });
    // the admin still sees it
    expect((await rows("packages")).find((p) => p.id === threeMonths.id)?.is_active).toBe(false);
    await api("PATCH", `packages/${threeMonths.id}`, { is_active: true, price: 1650 });
  });

  it("reorders: sort_order follows the list, in the admin and on the public site", async () => {
    const ids = (await rows("packages")).map((p) => p.id as string);
    const reversed = [...ids].reverse();
    const res = await api("POST", "packages/reorder", { ids: reversed });
    expect(res.statusCode).toBe(200);
    expect((res.json().data as Json[]).map((p) => p.id)).toEqual(reversed);
    expect((res.json().data as Json[]).map((p) => p.sort_order)).toEqual(reversed.map((_, i) => i + 1));
    await eventually(async () => {
      expect(((await publicGet("/api/packages")).data as Json[]).map((p) => p.id)).toEqual(reversed);
    });
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "packages"), eq(auditLog.action, "reorder")));
    expect(entry.after).toEqual({ order: reversed.map((id, i) => ({ id, sort_order: i + 1 })) });

    expectFields(await api("POST", "packages/reorder", { ids: [ids[0], ids[0]] }), 400, { ids: "Each package may appear only once" });
    expectFields(await api("POST", "packages/reorder", { ids: ["x"] }), 400, { "ids.0": "Each id must be a package id" });
    const unknown = await api("POST", "packages/reorder", { ids: [ids[0], "00000000-0000-4000-8000-000000000000"] });
    expect(unknown.statusCode).toBe(404);
  });

  it("reports every bad field at once", async () => {
    const res = await api("POST", "packages", { name: " ", price: "abc", duration: "", sort_order: 1.5 });
    expectFields(res, 400, {
      name: "Please enter a package name",
      price: "Price must be an amount in rand",
      duration: /Please enter a duration/,
      sort_order: "Sort order must be a whole number",
    });
  });
});

describe("packages: price_today", () => {
  const priceToday = async (name: string) => {
    const row = (await rows("packages")).find((p) => p.name === name)!;
    return { price: row.price as number, price_today: row.price_today as number };
  };

  it("is the special price while a matching special runs, else the price (what a client pays today)", async () => {
    // the seeded special: 3 Months R1,650 for R1,450
    expect(await priceToday("3 Months")).toEqual({ price: 1650, price_today: 1450 });
    expect(await priceToday("Month to Month")).toEqual({ price: 650, price_today: 650 });

    // a special that has not started yet does not count; once its window is open it does
    const special = (
      await api("POST", "specials", {
        package_name: "6 Months",
        original_price: 3150,
        special_price: 2999,
        starts_at: "2099-01-01T00:00:00Z",
      })
    ).json();
    try {
      expect(await priceToday("6 Months")).toEqual({ price: 3150, price_today: 3150 });
      await api("PATCH", `specials/${special.id}`, { starts_at: null });
      expect(await priceToday("6 Months")).toEqual({ price: 3150, price_today: 2999 });
      // the storefront's rule: a special whose original price no longer matches the package does not apply
      const sixMonths = (await rows("packages")).find((p) => p.name === "6 Months")!;
      await api("PATCH", `packages/${sixMonths.id}`, { price: 3200 });
      expect(await priceToday("6 Months")).toEqual({ price: 3200, price_today: 3200 });
      await api("PATCH", `packages/${sixMonths.id}`, { price: 3150 });
      // switched off, it does not count either
      await api("PATCH", `specials/${special.id}`, { is_active: false });
      expect(await priceToday("6 Months")).toEqual({ price: 3150, price_today: 3150 });
    } finally {
      await api("DELETE", `specials/${special.id}`);
    }
  });

  it("the reorder answer carries it too (the dashboard keeps that answer as the list)", async () => {
    const ids = (await rows("packages")).map((p) => p.id as string);
    const res = await api("POST", "packages/reorder", { ids });
    const threeMonths = (res.json().data as Json[]).find((p) => p.name === "3 Months");
    expect(threeMonths).toMatchObject({ price: 1650, price_today: 1450 });
  });
});

describe("specials", () => {
  it("checks a patch against the stored row: the special price stays below the original, the end after the start", async () => {
    const created = (await api("POST", "specials", { package_name: "12 Months", original_price: 5999, special_price: 5499 })).json();
    expectFields(await api("PATCH", `specials/${created.id}`, { special_price: 6000 }), 400, {
      special_price: "The special price must be lower than the original price",
    });
    await api("PATCH", `specials/${created.id}`, { starts_at: "2030-01-10T00:00:00Z" });
    expectFields(await api("PATCH", `specials/${created.id}`, { ends_at: "2030-01-01T00:00:00Z" }), 400, {
      ends_at: "The end must be after the start",
    });
    // a special that has not started yet is not public; clearing the start shows it
    expect(((await publicGet("/api/specials")).data as Json[]).some((s) => s.id === created.id)).toBe(false);
    await api("PATCH", `specials/${created.id}`, { starts_at: null });
    await eventually(async () => {
      const special = ((await publicGet("/api/specials")).data as Json[]).find((s) => s.id === created.id);
      expect(special).toMatchObject({ original_price: 5999, special_price: 5499 });
    });
  });
});

describe("settings", () => {
  it("POST upserts by key: an existing key changes only what was sent (200), a new one is created (201)", async () => {
    const [before] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, "support_hours"));
    const updated = await api("POST", "settings", { key: "support_hours", value: "8am-9pm, every day" });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: before.id, value: "8am-9pm, every day", description: before.description });
    await eventually(async () => expect((await publicGet("/api/settings")).data.support_hours).toBe("8am-9pm, every day"));

    const created = await api("POST", "settings", { key: "whatsapp_greeting", value: "Hi!" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ key: "whatsapp_greeting", value: "Hi!", is_active: true });
  });

  it("keeps the system's private_ settings out of reach", async () => {
    const keys = (await rows("settings")).map((s) => s.key as string);
    expect(keys).toContain("support_hours");
    expect(keys.some((k) => k.startsWith("private_"))).toBe(false);
    const [marker] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, "private_seeded_at"));
    for (const [method, payload] of [["GET"], ["PATCH", { value: "x" }], ["DELETE"]] as const) {
      expect((await api(method, `settings/${marker.id}`, payload)).statusCode).toBe(404);
    }
    expectFields(await api("POST", "settings", { key: "private_seeded_at", value: "x" }), 400, { key: /reserved for the system/ });
  });

  it("a key another setting uses is a 409 naming the key", async () => {
    const mine = (await api("POST", "settings", { key: "temp_setting", value: "1" })).json();
    const res = await api("PATCH", `settings/${mine.id}`, { key: "support_hours" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: "conflict",
      message: "Another setting already uses this key",
      fields: { key: "Another setting already uses this key" },
    });
  });
});

describe("settings the lifecycle reads", () => {
  const stored = async (key: string) => (await rows("settings")).find((s) => s.key === key)?.value;

  it.each([
    ["free_trial_hours", ["1", "168", "24"], ["0", "169", "-5", "abc", "", "2.5"], TRIAL_HOURS_MESSAGE],
    ["grace_days", ["0", "30", "3"], ["31", "-5", "abc", ""], GRACE_DAYS_MESSAGE],
    [
      "panel_credit_warning",
      ["0", "25", "10"],
      ["-1", "abc", "", "2.5"],
      "The credit warning must be a whole number of credits (0 or more)",
    ],
  ] as const)("%s: POST accepts %j and refuses %j with a 400 on value, writing nothing", async (key, good, bad, message) => {
    for (const value of good) {
      const res = await api("POST", "settings", { key, value });
      expect([200, 201]).toContain(res.statusCode);
      expect(await stored(key)).toBe(value);
    }
    const last = good[good.length - 1];
    for (const value of bad) {
      const res = await api("POST", "settings", { key, value });
      expectFields(res, 400, { value: message });
      expect(res.json().error.fields.value).toBe(message);
      expect(await stored(key)).toBe(last);
    }
    // another field of the setting alone is not a new value: it saves
    expect((await api("POST", "settings", { key, description: "checked" })).statusCode).toBe(200);
  });

  it("PATCH checks a new value, and a key renamed to one of them, as the row will read", async () => {
    await api("POST", "settings", { key: "grace_days", value: "3" });
    const grace = (await rows("settings")).find((s) => s.key === "grace_days")!;
    expectFields(await api("PATCH", `settings/${grace.id}`, { value: "31" }), 400, { value: GRACE_DAYS_MESSAGE });
    expectFields(await api("PATCH", `settings/${grace.id}`, { value: "abc" }), 400, { value: GRACE_DAYS_MESSAGE });
    expect((await api("PATCH", `settings/${grace.id}`, { value: "30" })).json().value).toBe("30");
    expect((await api("PATCH", `settings/${grace.id}`, { value: "0" })).json().value).toBe("0");
    expect((await api("PATCH", `settings/${grace.id}`, { description: "only this" })).statusCode).toBe(200);

    const draft = (await api("POST", "settings", { key: "trial_hours_draft", value: "500" })).json();
    expectFields(await api("PATCH", `settings/${draft.id}`, { key: "free_trial_hours" }), 400, { value: TRIAL_HOURS_MESSAGE });
    await api("DELETE", `settings/${draft.id}`);
  });
});

describe("downloads", () => {
  it("the QR code follows the download URL unless the admin set other data", async () => {
    const app = (
      await api("POST", "downloads", { name: "Follow", download_url: "https://example.test/a.apk", device_compatibility: "pc" })
    ).json();
    expect(app.device_compatibility).toEqual(["pc"]);
    const moved = (await api("PATCH", `downloads/${app.id}`, { download_url: "https://example.test/b.apk" })).json();
    expect(moved.qr_code_data).toBe("https://example.test/b.apk");

    const custom = (await api("PATCH", `downloads/${app.id}`, { qr_code_data: "CODE-123" })).json();
    expect(custom.qr_code_data).toBe("CODE-123");
    const movedAgain = (await api("PATCH", `downloads/${app.id}`, { download_url: "https://example.test/c.apk" })).json();
    expect(movedAgain.qr_code_data).toBe("CODE-123");
    // clearing the QR data makes it follow the URL again
    expect((await api("PATCH", `downloads/${app.id}`, { qr_code_data: "" })).json().qr_code_data).toBe("https://example.test/c.apk");
    // clearing the URL
    expect((await api("PATCH", `downloads/${app.id}`, { download_url: null })).json()).toMatchObject({
      download_url: null,
      qr_code_data: null,
    });
  });
});

describe("testimonials", () => {
  it("approving and publishing puts a testimonial on the public site", async () => {
    const created = (await api("POST", "testimonials", { client_name: "Zanele", content: "Set up in five minutes." })).json();
    expect(((await publicGet("/api/testimonials")).data as Json[]).some((r) => r.id === created.id)).toBe(false);
    await api("PATCH", `testimonials/${created.id}`, { is_approved: true, is_published: true, is_featured: true, sort_order: -1 });
    await eventually(async () => expect(((await publicGet("/api/testimonials")).data as Json[])[0].id).toBe(created.id));
  });
});

describe("images", () => {
  it("each new image URL bumps the version; other edits do not", async () => {
    const image = (await api("POST", "images", { image_key: "hero_background", image_url: "/images/hero.jpg" })).json();
    expect(image.version).toBe(1);
    expect((await api("PATCH", `images/${image.id}`, { image_url: "/images/hero-2.jpg" })).json().version).toBe(2);
    expect((await api("PATCH", `images/${image.id}`, { image_url: "/images/hero-2.jpg", alt_text: "Hero" })).json().version).toBe(3);
    expect((await api("PATCH", `images/${image.id}`, { alt_text: "A family watching" })).json().version).toBe(3);
    await eventually(async () => {
      const [entry] = (await publicGet("/api/images?keys=hero_background")).data as Json[];
      expect(entry.image_url).toBe("/images/hero-2.jpg?v=3");
    });
  });

  it("an image key in use is a 409 naming the key", async () => {
    const res = await api("POST", "images", { image_key: "hero_background", image_url: "/x.png" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.fields).toEqual({ image_key: "Another image already uses this key" });
  });
});

describe("homepage content", () => {
  it("checks the about features and footer links against their shapes", async () => {
    const about = (await rows("content")).find((c) => c.section_name === "about")!;
    const features = about.content.features as Json[];
    const res = await api("PATCH", `content/${about.id}`, { content: { features: [{ ...features[0], icon: "Star" }] } });
    expectFields(res, 400, { "content.features.0.icon": "Icon must be one of Shield, Zap, Users, Heart" });
    expectFields(await api("PATCH", `content/${about.id}`, { content: { features: [{ ...features[0], color: "blue" }] } }), 400, {
      "content.features.0.color": /hex colour/,
    });

    const footer = (await rows("content")).find((c) => c.section_name === "footer")!;
    expectFields(await api("PATCH", `content/${footer.id}`, { content: { ...footer.content, links: [{ text: "Nowhere" }] } }), 400, {
      "content.links.0.url": "A link needs either a section id or a URL (one of them)",
    });
    expectFields(
      await api("PATCH", `content/${footer.id}`, { content: { ...footer.content, support_links: [{ text: "Bad", url: "javascript:x" }] } }),
      400,
      { "content.support_links.0.url": "Link URL must start with https:// or /" },
    );
    // moving a free-form section onto a known one checks its content against that shape
    const promo = (await api("POST", "content", { section_name: "promo", content: { features: "not a list" } })).json();
    expectFields(await api("PATCH", `content/${promo.id}`, { section_name: "hero" }), 400, { "content.features": /expected array/ });
  });

  it("a valid hero edit shows on GET /api/content at once", async () => {
    const hero = (await rows("content")).find((c) => c.section_name === "hero")!;
    const content = { ...hero.content, cta_primary: "Start Free Trial" };
    const res = await api("PATCH", `content/${hero.id}`, { content });
    expect(res.statusCode).toBe(200);
    await eventually(async () => {
      const [section] = (await publicGet("/api/content?section=hero")).data as Json[];
      expect(section.content.cta_primary).toBe("Start Free Trial");
      // the seeded rating line is still the demo's: it stays off the public site (issue 48 item 7)
      expect(section.content.rating_text).toBeUndefined();
      expect(section.content.features).toEqual(hero.content.features);
    });
  });
});

describe("branding", () => {
  it("reads and writes the branding map, each value checked", async () => {
    const current = (await api("GET", "branding")).json().data;
    expect(current).toMatchObject({ company_name: "StreamDesk", whatsapp_number: "27821234567" });

    expectFields(await api("PUT", "branding", { support_email: "not-an-email" }), 400, {
      support_email: "Please enter a valid email address",
    });
    expectFields(await api("PUT", "branding", { whatsapp_number: "0821" }), 400, { whatsapp_number: /at least 9 digits/ });
    expectFields(await api("PUT", "branding", { company_name: "  " }), 400, { company_name: "Please enter the company name" });
    expect((await api("PUT", "branding", {})).statusCode).toBe(400);

    const res = await api("PUT", "branding", { company_name: "Kasi Streams", whatsapp_number: "082 555 1234" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ company_name: "Kasi Streams", whatsapp_number: "27825551234", tagline: current.tagline });
    await eventually(async () => expect((await publicGet("/api/branding")).data.company_name).toBe("Kasi Streams"));

    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, "branding")).orderBy(desc(auditLog.created_at));
    expect(entry.before).toMatchObject({ company_name: "StreamDesk" });
    expect(entry.after).toMatchObject({ company_name: "Kasi Streams" });
  });
});

describe("help centre", () => {
  it("makes a free slug from the title, refuses a taken one typed by hand, and publishes at once", async () => {
    const first = (await api("POST", "kb", { title: "Resetting your TV box", body: "Hold the button." })).json();
    const second = (await api("POST", "kb", { title: "Resetting your TV box", body: "Another way." })).json();
    expect([first.slug, second.slug]).toEqual(["resetting-your-tv-box", "resetting-your-tv-box-2"]);

    const taken = await api("POST", "kb", { title: "X", body: "Y", slug: "resetting-your-tv-box" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual({ slug: "Another article already uses this slug" });

    const renamed = (await api("PATCH", `kb/${second.id}`, { title: "Resetting a Fire Stick", slug: "" })).json();
    expect(renamed.slug).toBe("resetting-a-fire-stick");
    await eventually(async () => {
      const res = await t.app.inject({ method: "GET", url: "/api/kb/resetting-a-fire-stick" });
      expect(res.statusCode).toBe(200);
      expect(res.json().title).toBe("Resetting a Fire Stick");
    });
  });
});

describe("status page", () => {
  it("the maintenance switch shows the component under maintenance, and hands it back when turned off", async () => {
    const payments = (await rows("components")).find((c) => c.key === "payments")!;
    const on = (await api("PATCH", `components/${payments.id}`, { maintenance: true })).json();
    expect(on).toMatchObject({ maintenance: true, status: "maintenance", message: "Scheduled maintenance" });
    await eventually(async () => expect((await publicGet("/api/status")).overall).toBe("maintenance"));

    const off = (await api("PATCH", `components/${payments.id}`, { maintenance: false })).json();
    expect(off).toMatchObject({ maintenance: false, status: "operational", message: "" });
    await eventually(async () => expect((await publicGet("/api/status")).overall).toBe("stable"));

    const dup = await api("POST", "components", { key: "payments", name: "Again" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toEqual({ key: "Another component already uses this key" });
  });

  it("incidents name real components, resolve once, and reopen", async () => {
    expectFields(await api("POST", "incidents", { title: "X", component_keys: ["streaming", "teleport"] }), 400, {
      component_keys: "No component has the key 'teleport'",
    });
    const incident = (await api("POST", "incidents", { title: "Payments slow", component_keys: ["payments"] })).json();
    expect(incident.resolved_at).toBeNull();
    await eventually(async () =>
      expect(((await publicGet("/api/status")).incidents as Json[]).some((i) => i.id === incident.id)).toBe(true),
    );

    const resolved = await api("POST", `incidents/${incident.id}/resolve`);
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: "resolved", resolved_at: expect.any(String) });
    expect((await api("POST", `incidents/${incident.id}/resolve`)).statusCode).toBe(409);

    const reopened = (await api("PATCH", `incidents/${incident.id}`, { status: "monitoring" })).json();
    expect(reopened).toMatchObject({ status: "monitoring", resolved_at: null });
    const viaPatch = (await api("PATCH", `incidents/${incident.id}`, { status: "resolved" })).json();
    expect(viaPatch.resolved_at).toEqual(expect.any(String));
    expectFields(await api("PATCH", `incidents/${incident.id}`, { resolved_at: "2000-01-01T00:00:00Z" }), 400, {
      resolved_at: "The resolved time must be after the start",
    });
    expect((await api("POST", "incidents/nope/resolve")).statusCode).toBe(404);
  });

  it("a blackout day can be listed once", async () => {
    expect((await api("POST", "trial-blackout-days", { day: "2031-02-01", reason: "Derby" })).statusCode).toBe(201);
    const again = await api("POST", "trial-blackout-days", { day: "2031-02-01" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields).toEqual({ day: "That day is already a blackout day" });
  });
});
