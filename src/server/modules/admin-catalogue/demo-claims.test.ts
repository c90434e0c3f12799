// Demo claims are not shown as facts (issue 48 item 7): on a fresh shop the seeded reviews and the
// hero's "Rated 5 stars by 5,000+ South African customers" are listed as demo for the owner and
// left off the public site; the owner replacing one, or keeping it as true, puts it on the site at
// once; anything else named is a 400 or a 404.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, testimonialsManaged } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const publicReviews = async (): Promise<{ id: string; client_name: string }[]> =>
  (await t.app.inject({ method: "GET", url: "/api/testimonials" })).json().data;
const hero = async (): Promise<Record<string, unknown>> =>
  (await t.app.inject({ method: "GET", url: "/api/content?section=hero" })).json().data[0].content;
const demoLeft = async () => (await admin.call({ method: "GET", url: "/api/admin/demo-content" })).json().data;
const confirm = (item: unknown) => admin.call({ method: "POST", url: "/api/admin/demo-content/confirm", payload: { item } });

describe("a fresh shop's demo claims", () => {
  it("are listed as demo for the owner and left off the public site: no seeded review, no seeded rating line", async () => {
    const seeded = await t.app.db.select().from(testimonialsManaged);
    expect(seeded.length).toBeGreaterThanOrEqual(6);
    const left = await demoLeft();
    expect(left.testimonials.sort()).toEqual(seeded.map((r) => r.id).sort());
    expect(left.homepage).toContain("hero.rating_text");
    expect(await publicReviews()).toEqual([]);
    const content = await hero();
    expect(content.rating_text).toBeUndefined();
    expect(content.features).toBeDefined(); // the rest of the hero is there
  });

  it("a review kept as true is on the site at once, and the keeping is audited", async () => {
    const [first] = await t.app.db.select().from(testimonialsManaged).where(eq(testimonialsManaged.client_name, "Thabo M."));
    const kept = await confirm(`testimonial:${first.id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.testimonials).not.toContain(first.id);
    expect((await publicReviews()).map((r) => r.client_name)).toEqual(["Thabo M."]);
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, "confirm-demo"));
    expect(entry).toMatchObject({ resource: "demo_content", resource_id: `testimonial:${first.id}` });
    // kept once: a second time there is nothing to keep
    expect((await confirm(`testimonial:${first.id}`)).statusCode).toBe(404);
  });

  it("a review the owner rewrites is theirs: on the site without keeping", async () => {
    const [second] = await t.app.db.select().from(testimonialsManaged).where(eq(testimonialsManaged.client_name, "Lerato K."));
    const edited = await admin.call({
      method: "PATCH",
      url: `/api/admin/testimonials/${second.id}`,
      payload: { content: "Set up in ten minutes, and they answered on a Sunday." },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // the cached list hears of the edit through the change feed (on PostgreSQL a moment later)
    await expect
      .poll(async () => (await publicReviews()).map((r) => r.client_name).sort(), { timeout: 5_000 })
      .toEqual(["Lerato K.", "Thabo M."]);
  });

  it("the hero's rating line kept as true shows on the site", async () => {
    expect((await confirm("homepage:hero.rating_text")).statusCode).toBe(200);
    expect(await hero()).toMatchObject({ rating_text: "Rated 5 stars by 5,000+ South African customers" });
    expect((await demoLeft()).homepage).not.toContain("hero.rating_text");
  });

  it("anything else named is a 400 on the field, or a 404 when it is not demo content", async () => {
    for (const item of ["", "everything", "testimonial:not-an-id", 42]) {
      const bad = await confirm(item);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.item).toBe("Name a demo item: testimonial:<id> or homepage:<section>.<key>");
    }
    expect((await confirm(`testimonial:${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await confirm("homepage:about.title")).statusCode).toBe(404);
  });
});
