// Every admin CRUD resource, the same walk: create (201, the row, numbers as numbers), list
// (all rows, active or not), read, update, a bad field (400 naming it), unknown ids (404),
// delete — with an audit entry holding before/after for each write.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
let cookie: string;
let adminEmail: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  const admin = await signedInAdmin(t.app);
  cookie = admin.cookie;
  adminEmail = admin.email;
});
afterAll(async () => {
  await t?.close();
});

const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/admin/${url}`,
    headers: { origin: "http://localhost:8080", cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

interface Case {
  resource: string;
  create: Record<string, unknown>;
  /** what the created row must contain (defaults filled in, values normalised) */
  created: Record<string, unknown>;
  patch: Record<string, unknown>;
  patched: Record<string, unknown>;
  /** a body with exactly one bad field, and that field's name */
  bad: { body: Record<string, unknown>; field: string };
}

const FUTURE = "2030-01-01T10:00:00+02:00";

const CASES: Case[] = [
  {
    resource: "packages",
    create: { name: "Weekend Pass", price: "99.50", duration: "1 Week", features: ["Sport"], is_active: false },
    created: { price: 99.5, duration_months: 1, features: ["Sport"], is_active: false, is_featured: false, sort_order: 0, description: "" },
    patch: { price: 120, is_featured: true },
    patched: { price: 120, is_featured: true, name: "Weekend Pass" },
    bad: { body: { name: "X", price: -5, duration: "1 Month" }, field: "price" },
  },
  {
    resource: "specials",
    create: { package_name: "6 Months", original_price: 3150, special_price: "2999.99", ends_at: FUTURE },
    created: { special_price: 2999.99, original_price: 3150, is_active: true, title: "", ends_at: "2030-01-01T08:00:00.000Z" },
    patch: { title: "Winter deal", ends_at: "" },
    patched: { title: "Winter deal", ends_at: null },
    bad: { body: { package_name: "6 Months", original_price: 100, special_price: 150 }, field: "special_price" },
  },
  {
    resource: "banners",
    create: { title: "Load-shedding notice" },
    created: { banner_type: "info", content: "", is_active: true, sort_order: 0 },
    patch: { banner_type: "special", sort_order: 7 },
    patched: { banner_type: "special", sort_order: 7 },
    bad: { body: { title: "" }, field: "title" },
  },
  {
    resource: "downloads",
    create: { name: "Player X", download_url: "https://example.test/x.apk", device_compatibility: ["android", "firestick"] },
    created: {
      qr_code_data: "https://example.test/x.apk",
      device_compatibility: ["android", "firestick"],
      download_count: 0,
      installation_guide: null,
    },
    patch: { installation_guide: "1. Install\n2. Sign in", version: "2.1" },
    patched: { installation_guide: "1. Install\n2. Sign in", version: "2.1" },
    bad: { body: { name: "Y", device_compatibility: ["toaster"] }, field: "device_compatibility.0" },
  },
  {
    resource: "testimonials",
    create: { client_name: "Naledi", content: "Great picture" },
    created: { rating: 5, is_published: false, is_approved: false, is_featured: false, location: "" },
    patch: { is_approved: true, is_published: true, sort_order: 3 },
    patched: { is_approved: true, is_published: true, sort_order: 3 },
    bad: { body: { client_name: "A", content: "B", rating: 6 }, field: "rating" },
  },
  {
    resource: "images",
    create: { image_key: "promo_banner", image_url: "/images/promo.png" },
    created: { version: 1, alt_text: "" },
    patch: { alt_text: "Promo" },
    patched: { alt_text: "Promo", version: 1 },
    bad: { body: { image_key: "promo2", image_url: "javascript:alert(1)" }, field: "image_url" },
  },
  {
    resource: "content",
    create: { section_name: "promo", title: "Promo", content: { anything: [1, 2] } },
    created: { content: { anything: [1, 2] }, is_active: true, sort_order: 0, description: "" },
    patch: { description: "Shown in December" },
    patched: { description: "Shown in December" },
    bad: { body: { section_name: "Not A Key!" }, field: "section_name" },
  },
  {
    resource: "notices",
    create: { title: "Maintenance tonight", severity: "warning", starts_at: "2030-01-01T00:00:00Z", ends_at: FUTURE },
    created: { severity: "warning", audience: "all", body: "", is_active: true, starts_at: "2030-01-01T00:00:00.000Z" },
    patch: { audience: "clients" },
    patched: { audience: "clients" },
    bad: { body: { title: "T", severity: "panic" }, field: "severity" },
  },
  {
    resource: "kb",
    create: { title: "Fixing Buffering on Wi-Fi!", body: "Move the router closer." },
    created: { slug: "fixing-buffering-on-wi-fi", category: "General", is_published: true, summary: "" },
    patch: { category: "Troubleshooting" },
    patched: { category: "Troubleshooting", slug: "fixing-buffering-on-wi-fi" },
    bad: { body: { title: "T", body: "B", slug: "Has Spaces" }, field: "slug" },
  },
  {
    resource: "releases",
    create: { version: "1.4.0", title: "Faster checkout", released_on: "2026-03-01" },
    created: { released_on: "2026-03-01", is_published: true, body: "" },
    patch: { body: "Card payments open faster." },
    patched: { body: "Card payments open faster." },
    bad: { body: { version: "1", title: "T", released_on: "2026-02-30" }, field: "released_on" },
  },
  {
    resource: "components",
    create: { key: "cdn", name: "Video delivery" },
    created: { status: "operational", maintenance: false, message: "", sort_order: 0 },
    patch: { status: "degraded", message: "Some channels are slow" },
    patched: { status: "degraded", message: "Some channels are slow" },
    bad: { body: { key: "cdn2", name: "N", status: "on fire" }, field: "status" },
  },
  {
    resource: "incidents",
    create: { title: "Sport channels buffering", component_keys: ["streaming"], impact: "major" },
    created: { status: "investigating", resolved_at: null, component_keys: ["streaming"], impact: "major" },
    patch: { status: "identified", body: "Upstream provider is on it." },
    patched: { status: "identified", resolved_at: null },
    bad: { body: { title: "T", impact: "huge" }, field: "impact" },
  },
  {
    resource: "trial-blackout-days",
    create: { day: "2030-06-14", reason: "Cup final" },
    created: { day: "2030-06-14", reason: "Cup final" },
    patch: { reason: "Cup final (moved)" },
    patched: { reason: "Cup final (moved)" },
    bad: { body: { day: "14/06/2030" }, field: "day" },
  },
  {
    resource: "settings",
    create: { key: "promo_code", value: "WINTER" },
    created: { value: "WINTER", description: "", is_active: true },
    patch: { value: "SUMMER", is_active: false },
    patched: { value: "SUMMER", is_active: false, key: "promo_code" },
    bad: { body: { key: "Bad Key", value: "x" }, field: "key" },
  },
];

const MISSING = "00000000-0000-4000-8000-000000000000";

async function auditEntries(resource: string, id: string) {
  return t.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.resource_id, id)))
    .orderBy(asc(auditLog.created_at));
}

describe.each(CASES)("/api/admin/$resource", (c) => {
  it("creates, lists, reads, updates and deletes, auditing each write", async () => {
    const created = await api("POST", c.resource, c.create);
    expect(created.statusCode, created.body).toBe(201);
    const row = created.json();
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row).toMatchObject(c.created);

    const list = await api("GET", c.resource);
    expect(list.statusCode).toBe(200);
    expect((list.json().data as { id: string }[]).some((r) => r.id === row.id)).toBe(true);

    const read = await api("GET", `${c.resource}/${row.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(row);

    const patched = await api("PATCH", `${c.resource}/${row.id}`, c.patch);
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject(c.patched);

    const deleted = await api("DELETE", `${c.resource}/${row.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true });
    expect((await api("GET", `${c.resource}/${row.id}`)).statusCode).toBe(404);

    const entries = await auditEntries(c.resource, row.id);
    expect(entries.map((e) => e.action)).toEqual(["create", "update", "delete"]);
    expect(entries.every((e) => e.admin_email === adminEmail)).toBe(true);
    const [create, update, remove] = entries;
    expect(create.before).toBeNull();
    expect(create.after).toMatchObject({ id: row.id });
    expect(update.before).toMatchObject({ id: row.id });
    expect(update.after).toMatchObject(c.patched);
    expect(remove.before).toMatchObject(c.patched);
    expect(remove.after).toBeNull();
  });

  it("answers a bad field with a 400 naming it, and writes nothing", async () => {
    const before = ((await api("GET", c.resource)).json().data as unknown[]).length;
    const res = await api("POST", c.resource, c.bad.body);
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe("validation");
    expect(Object.keys(error.fields)).toEqual([c.bad.field]);
    expect(error.message).toBe(error.fields[c.bad.field]);
    expect(((await api("GET", c.resource)).json().data as unknown[]).length).toBe(before);
  });

  it("answers 404 for an unknown id (or one that is not an id at all)", async () => {
    for (const id of [MISSING, "nope"]) {
      for (const [method, payload] of [["GET"], ["PATCH", c.patch], ["DELETE"]] as const) {
        const res = await api(method, `${c.resource}/${id}`, payload);
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json().error.code).toBe("not_found");
      }
    }
  });
});
