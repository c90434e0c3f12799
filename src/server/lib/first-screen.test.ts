// The first screen's reads inlined in the page (lib/first-screen.ts), served by the real app on
// a real database: what the API would answer, safe inside a <script>, and only on public pages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homepageContent, siteBranding } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { firstScreenReads } from "@/shared/first-screen";
import { scriptSafeJson, withBusinessTitle } from "./first-screen";

const INDEX_HTML = `<!doctype html><html><head><title>x</title></head><body><div id="root"><!--first-screen--><div role="status">Loading...</div><!--/first-screen--></div><script type="module" src="/assets/app.js"></script></body></html>`;

let t: TestApp;
let webDir: string;

const CHUNK = `export const packages = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `Package ${i}`))};`;

function bootData(html: string): Record<string, unknown> | null {
  const match = html.match(/<script id="boot-data" type="application\/json">([\s\S]*?)<\/script>/);
  return match ? (JSON.parse(match[1] ?? "") as Record<string, unknown>) : null;
}

beforeAll(async () => {
  // No ssr/ beside web/: the pages carry their reads, and the browser draws them.
  webDir = path.join(mkdtempSync(path.join(tmpdir(), "streamdesk-web-")), "web");
  mkdirSync(webDir);
  writeFileSync(path.join(webDir, "index.html"), INDEX_HTML);
  // A built chunk with the compressed forms the build writes beside it (vite.config.ts).
  mkdirSync(path.join(webDir, "assets"));
  const chunk = path.join(webDir, "assets", "chunk-abc123.js");
  writeFileSync(chunk, CHUNK);
  writeFileSync(`${chunk}.br`, brotliCompressSync(CHUNK));
  writeFileSync(`${chunk}.gz`, gzipSync(CHUNK));
  t = await createTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(path.dirname(webDir), { recursive: true, force: true });
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
    // The block sits inside the body; without a server-side drawing, 'Loading...' stays.
    expect(res.body.indexOf('id="boot-data"')).toBeLessThan(res.body.indexOf("</body>"));
    expect(res.body).toContain('<div id="root"><!--first-screen--><div role="status">Loading...</div>');
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

  it("a path the app has no page at gets the app's not-found page with status 404", async () => {
    for (const url of ["/no-such-page", "/client/nothing", "/knowledge-base/a/b"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toContain("text/html");
      expect(res.body, url).toContain('<div id="root">');
    }
    for (const url of ["/knowledge-base/paying-by-eft", "/admin/leads", "/payment/success?ref=x", "/pricing/"]) {
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(200);
    }
  });

  it("names the tab with the business's own name before the app runs, escaped", async () => {
    for (const [setting_name, setting_value] of [
      ["company_name", "Mzansi <Streams> & Co"],
      ["tagline", "Sport, sorted"],
    ]) {
      await t.app.db
        .insert(siteBranding)
        .values({ setting_name, setting_value })
        .onConflictDoUpdate({ target: siteBranding.setting_name, set: { setting_value } });
    }
    const page = await eventually(async () => {
      const res = await t.app.inject({ method: "GET", url: "/pricing" });
      expect(res.body).toContain("<title>Mzansi &lt;Streams&gt; &amp; Co — Sport, sorted</title>");
      return res;
    });
    expect(page.body).not.toContain("<title>x</title>");
    expect(withBusinessTitle("<title>StreamDesk</title>", { data: {} })).toBe("<title>StreamDesk</title>");
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

describe("the build's assets", () => {
  it("go out in the compressed form the build made (brotli, then gzip), never compressed again per request", async () => {
    const code = CHUNK;
    const br = await t.app.inject({ method: "GET", url: "/assets/chunk-abc123.js", headers: { "accept-encoding": "br, gzip" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.rawPayload.equals(brotliCompressSync(code))).toBe(true);

    const gz = await t.app.inject({ method: "GET", url: "/assets/chunk-abc123.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.rawPayload.equals(gzipSync(code))).toBe(true);

    const plain = await t.app.inject({ method: "GET", url: "/assets/chunk-abc123.js", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(code);
  });
});

describe("the landing's first screen drawn on the server", () => {
  // A stand-in for dist/ssr/first-screen.js (the real one is built from src/web/ssr and tested
  // there): it draws the hero's title from the reads it is given, and fails on request.
  const RENDERER = `let calls = 0;
export async function renderFirstScreen(url, boot) {
  calls += 1;
  if (url.includes("fail")) throw new Error("drawing failed");
  if (!url.startsWith("/?") && url !== "/" && url !== "/home") return null;
  const hero = boot["/api/content?section=hero"];
  return '<main><h1 id="hero-heading">' + hero.data[0].title.replace(/</g, "&lt;") + '</h1><p>' + calls + '</p></main>';
}`;
  let root: string;
  let app: TestApp;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "streamdesk-ssr-"));
    mkdirSync(path.join(root, "web"));
    mkdirSync(path.join(root, "ssr"));
    writeFileSync(path.join(root, "web", "index.html"), INDEX_HTML);
    writeFileSync(path.join(root, "ssr", "first-screen.js"), RENDERER);
    app = await createTestApp({ WEB_DIST_DIR: path.join(root, "web") });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("puts the drawn markup in place of 'Loading...' and marks #root, with the reads it was drawn from", async () => {
    const res = await app.app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root" data-first-screen="server"><main><h1 id="hero-heading">');
    expect(res.body).not.toContain("Loading...");
    const data = bootData(res.body);
    const hero = data?.["/api/content?section=hero"] as { data: { title: string }[] };
    expect(res.body).toContain(`<h1 id="hero-heading">${hero.data[0]?.title.replace(/</g, "&lt;")}</h1>`);
  });

  it("draws the same reads once: later pages reuse the markup", async () => {
    const first = await app.app.inject({ method: "GET", url: "/home" });
    const again = await app.app.inject({ method: "GET", url: "/home" });
    const count = (body: string) => body.match(/<p>(\d+)<\/p>/)?.[1];
    expect(count(again.body)).toBe(count(first.body));
  });

  it("other pages, and a drawing that fails, keep 'Loading...' and still carry their reads", async () => {
    for (const url of ["/pricing", "/?fail=1"]) {
      const res = await app.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"><!--first-screen--><div role="status">Loading...</div>');
      expect(bootData(res.body), url).not.toBeNull();
    }
  });
});

// On the file's first app (no server drawing): the reads a page carries are the API's.
describe("pages reuse their reads", () => {
  it("for a few seconds, until the data changes: an edit shows on the next page", async () => {
    const read = async () => {
      const data = bootData((await t.app.inject({ method: "GET", url: "/" })).body);
      const hero = data?.["/api/content?section=hero"] as { data: { title: string }[] } | undefined;
      return hero?.data[0]?.title;
    };
    const before = await read();
    expect(await read()).toBe(before);
    await t.app.db.update(homepageContent).set({ title: "Fresh from the dashboard" }).where(eq(homepageContent.section_name, "hero"));
    await eventually(async () => expect(await read()).toBe("Fresh from the dashboard"));
  });
});
