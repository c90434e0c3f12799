// The first screen's reads inlined in the page (lib/first-screen.ts), served by the real app on
// a real database: what the API would answer, safe inside a <script>, and only on public pages.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homepageContent } from "../db/schema";
import { createTestApp, eventually, type TestApp } from "../testing";
import { firstScreenReads, scriptSafeJson } from "./first-screen";

const INDEX_HTML = `<!doctype html><html><head><title>x</title></head><body><div id="root">Loading...</div><script type="module" src="/assets/app.js"></script></body></html>`;

let t: TestApp;
let webDir: string;

function bootData(html: string): Record<string, unknown> | null {
  const match = html.match(/<script id="boot-data" type="application\/json">([\s\S]*?)<\/script>/);
  return match ? (JSON.parse(match[1] ?? "") as Record<string, unknown>) : null;
}

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), "streamdesk-web-"));
  writeFileSync(path.join(webDir, "index.html"), INDEX_HTML);
  t = await createTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe("the reads inlined in a page", () => {
  it("the landing carries its first screen's reads, each exactly as the API answers it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["cache-control"]).toBe("no-cache");
    const data = bootData(res.body);
    expect(Object.keys(data ?? {}).sort()).toEqual([...firstScreenReads("/")].sort());
    for (const url of firstScreenReads("/")) {
      const api = await t.app.inject({ method: "GET", url });
      expect(data?.[url], url).toEqual(api.json());
    }
    // The block sits before the app's script, inside the body.
    expect(res.body.indexOf('id="boot-data"')).toBeLessThan(res.body.indexOf("</body>"));
  });

  it("other public pages carry the navigation's reads only; the dashboard and the portal none", async () => {
    const pricing = bootData((await t.app.inject({ method: "GET", url: "/pricing?x=1" })).body);
    expect(Object.keys(pricing ?? {}).sort()).toEqual(["/api/branding", "/api/images?keys=pwa_icon", "/api/notices", "/api/status"]);
    expect(firstScreenReads("/home")).toContain("/api/content?section=hero");
    for (const url of ["/admin", "/admin/login", "/client", "/client/login"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(bootData(res.body), url).toBeNull();
    }
  });

  it("text that would close the script stays data", async () => {
    const title = `Sale </script><script>alert("x")</script> <!-- ends \u2028 today`;
    await t.app.db.update(homepageContent).set({ title }).where(eq(homepageContent.section_name, "hero"));
    // The content cache hears of the change through the change feed.
    const res = await eventually(async () => {
      const page = await t.app.inject({ method: "GET", url: "/" });
      const hero = bootData(page.body)?.["/api/content?section=hero"] as { data: { title: string }[] };
      expect(hero.data[0]?.title).toBe(title);
      return page;
    });
    expect(res.body).not.toContain("<script>alert");
    expect(scriptSafeJson({ a: "</script>" })).toBe('{"a":"\\u003c/script>"}');
  });

  it("an unknown /api path is still a JSON 404, never the page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
