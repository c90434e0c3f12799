import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kbArticles } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { KbArticle, KbArticleSummary } from "@/shared/api";

let t: TestApp;
const get = (url: string) => t.app.inject({ method: "GET", url });
const list = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, url).toBe(200);
  return (res.json() as { data: KbArticleSummary[] }).data;
};

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  await t.app.db.insert(kbArticles).values([
    {
      slug: "fix-buffer",
      title: "Picture keeps stopping",
      category: "Troubleshooting",
      summary: "When the stream pauses",
      body: "Restart the router to clear the buffer. A wired connection helps.",
      sort_order: 2,
    },
    {
      slug: "router-basics",
      title: "Router basics",
      category: "Troubleshooting",
      summary: "Your home network",
      body: "Place the router in the open.",
      sort_order: 1,
    },
    {
      slug: "pay-by-eft",
      title: "Paying by EFT",
      category: "Billing",
      summary: "Bank transfer",
      body: "Use your reference.",
      sort_order: 5,
    },
    {
      slug: "card-payments",
      title: "Card payments",
      category: "Billing",
      summary: "Pay by card",
      body: "We use a pay link.",
      sort_order: 5,
    },
    { slug: "draft", title: "Buffering secrets", category: "Drafts", summary: "", body: "buffer buffer buffer", is_published: false },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/kb", () => {
  it("lists published articles by category, sort_order and title, without bodies", async () => {
    const res = await get("/api/kb");
    expect(res.headers["cache-control"]).toBe("no-cache");
    const data = (res.json() as { data: KbArticleSummary[] }).data;
    expect(data.map((a) => a.slug)).toEqual(["card-payments", "pay-by-eft", "router-basics", "fix-buffer"]);
    expect(data[0]).not.toHaveProperty("body");
    expect(Object.keys(data[0]).sort()).toEqual(["category", "id", "slug", "summary", "title", "updated_at"]);
    expect(data[0].updated_at).toMatch(/Z$/);
  });

  it("filters by category", async () => {
    expect((await list("/api/kb?category=Billing")).map((a) => a.slug)).toEqual(["card-payments", "pay-by-eft"]);
    expect(await list("/api/kb?category=Drafts")).toEqual([]);
  });

  it("finds an article by a stemmed word of its body ('buffering' finds 'buffer'), never a draft", async () => {
    expect((await list("/api/kb?q=buffering")).map((a) => a.slug)).toEqual(["fix-buffer"]);
    expect((await list("/api/kb?q=%20%20Buffering%20%20")).map((a) => a.slug)).toEqual(["fix-buffer"]);
    expect((await list("/api/kb?q=buffering&category=Billing")).map((a) => a.slug)).toEqual([]);
    expect(await list("/api/kb?q=satellite")).toEqual([]);
  });

  it("ranks the better match first", async () => {
    // 'router' appears in both Troubleshooting articles; the one titled with it and using it twice ranks first
    expect((await list("/api/kb?q=router")).map((a) => a.slug)).toEqual(["router-basics", "fix-buffer"]);
    expect((await list(`/api/kb?q=${encodeURIComponent('"pay link" OR reference')}`)).map((a) => a.slug).sort()).toEqual([
      "card-payments",
      "pay-by-eft",
    ]);
    expect((await list("/api/kb?q=router%20-wired")).map((a) => a.slug)).toEqual(["router-basics"]);
  });

  it("finds a word written with or without its hyphen ('loadshedding', 'load-shedding', 'Wi-Fi', 'wifi') alike", async () => {
    await t.app.db.insert(kbArticles).values([
      { slug: "power-cuts", title: "Streaming through load-shedding", category: "Power", body: "Keep the router on a UPS." },
      { slug: "wireless", title: "Better wifi at home", category: "Power", body: "Move closer to the router." },
    ]);
    for (const q of ["loadshedding", "load-shedding", "Loadshedding", "load shedding"]) {
      expect(
        (await list(`/api/kb?q=${encodeURIComponent(q)}`)).map((a) => a.slug),
        q,
      ).toEqual(["power-cuts"]);
    }
    for (const q of ["wifi", "Wi-Fi", "wi-fi"]) {
      expect(
        (await list(`/api/kb?q=${encodeURIComponent(q)}`)).map((a) => a.slug),
        q,
      ).toEqual(["wireless"]);
    }
    // A '-' before a word still means "without".
    expect((await list(`/api/kb?q=${encodeURIComponent("router -wifi")}`)).map((a) => a.slug)).toContain("power-cuts");
    expect((await list(`/api/kb?q=${encodeURIComponent("router -wifi")}`)).map((a) => a.slug)).not.toContain("wireless");
    await t.app.db.delete(kbArticles).where(eq(kbArticles.category, "Power"));
  });

  it("shows a change made directly in the database", async () => {
    expect(await list("/api/kb?q=satellite")).toEqual([]);
    await t.app.db.update(kbArticles).set({ body: "Satellite dishes are not needed." }).where(eq(kbArticles.slug, "router-basics"));
    await eventually(async () => {
      expect((await list("/api/kb?q=satellites")).map((a) => a.slug)).toEqual(["router-basics"]);
    });
    await t.app.db.update(kbArticles).set({ is_published: false }).where(eq(kbArticles.slug, "card-payments"));
    await eventually(async () => {
      expect((await list("/api/kb?category=Billing")).map((a) => a.slug)).toEqual(["pay-by-eft"]);
      expect((await get("/api/kb/card-payments")).statusCode).toBe(404);
    });
    await t.app.db.update(kbArticles).set({ is_published: true }).where(eq(kbArticles.slug, "card-payments"));
    await eventually(async () => expect((await get("/api/kb/card-payments")).statusCode).toBe(200));
  });

  it("refuses an over-long, repeated or NUL-carrying search with a 400 in the error shape", async () => {
    expect((await get(`/api/kb?q=${"a".repeat(200)}`)).statusCode).toBe(200);
    for (const url of [`/api/kb?q=${"a".repeat(201)}`, "/api/kb?q=a&q=b", "/api/kb?q=wifi%00", `/api/kb?category=${"c".repeat(101)}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json() as { error: { code: string; message: string; fields: Record<string, string> } };
      expect(body.error.code).toBe("validation");
      expect(body.error.message).toEqual(expect.any(String));
      expect(Object.keys(body.error.fields).length).toBe(1);
    }
  });

  it("treats hostile search text as text", async () => {
    const queries = [
      "' OR 1=1 --",
      "'); DROP TABLE kb_articles; --",
      '"unterminated',
      "a & | ! ( ) <-> :*",
      "-",
      "OR",
      "the and of",
      "стрим 📺 ‮",
      "\\x00 %",
    ];
    for (const q of queries) {
      const res = await get(`/api/kb?q=${encodeURIComponent(q)}&extra=1`);
      expect(res.statusCode, q).toBe(200);
      expect(Array.isArray((res.json() as { data: unknown }).data)).toBe(true);
    }
    expect((await list("/api/kb")).length).toBe(4);
  });
});

describe("GET /api/kb/categories", () => {
  it("counts published articles per category", async () => {
    const res = await get("/api/kb/categories");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { category: "Billing", count: 2 },
        { category: "Troubleshooting", count: 2 },
      ],
    });
  });
});

describe("GET /api/kb/:slug", () => {
  it("answers the published article with its body", async () => {
    const res = await get("/api/kb/fix-buffer");
    expect(res.statusCode).toBe(200);
    const article = res.json() as KbArticle;
    expect(article).toMatchObject({ slug: "fix-buffer", title: "Picture keeps stopping", category: "Troubleshooting" });
    expect(article.body).toContain("clear the buffer");
  });

  it("answers 404 in the error shape for an unknown or unpublished slug", async () => {
    for (const slug of ["nope", "draft", encodeURIComponent("' OR '1'='1"), "%F0%9F%98%80"]) {
      const res = await get(`/api/kb/${slug}`);
      expect(res.statusCode, slug).toBe(404);
      expect(res.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    }
    const longest = await get(`/api/kb/${"s".repeat(200)}`);
    expect(longest.statusCode).toBe(404);
    expect((longest.json() as { error: { code: string } }).error.code).toBe("not_found");
    // Beyond the router's maxParamLength (200) Fastify itself answers 414 before any route runs.
    expect((await get(`/api/kb/${"s".repeat(300)}`)).statusCode).toBeLessThan(500);
  });
});
