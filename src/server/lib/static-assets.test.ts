// The SPA's hashed assets from memory (lib/static-assets.ts), over real HTTP: the server answers
// them before Fastify, with the headers Fastify's first answer had, the precompressed form the
// client accepts, 304 on a matching ETag; index.html and the service worker stay no-cache.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing";

const SCRIPT = `export const hello = ${JSON.stringify("x".repeat(4000))};\n`;
// The build writes .br/.gz beside the shell too (vite-plugin-compression), as it does here.
const INDEX = "<!doctype html><title>t</title><div id=root></div>";
const WORKER = `self.addEventListener('fetch', () => {}); // ${"pad ".repeat(400)}\n`;
let t: TestApp;
let port: number;
let web: string;

beforeAll(async () => {
  web = mkdtempSync(path.join(tmpdir(), "sd-static-assets-"));
  mkdirSync(path.join(web, "assets"));
  writeFileSync(path.join(web, "index.html"), INDEX);
  writeFileSync(path.join(web, "index.html.br"), brotliCompressSync(INDEX));
  writeFileSync(path.join(web, "index.html.gz"), gzipSync(INDEX));
  writeFileSync(path.join(web, "sw.js"), WORKER);
  writeFileSync(path.join(web, "sw.js.br"), brotliCompressSync(WORKER));
  writeFileSync(path.join(web, "sw.js.gz"), gzipSync(WORKER));
  const script = path.join(web, "assets", "app-AbC123.js");
  writeFileSync(script, SCRIPT);
  writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
  writeFileSync(path.join(web, "assets", "font-Xyz.woff2"), Buffer.alloc(3000, 7)); // no compressed forms
  t = await createTestApp({ WEB_DIST_DIR: web }, { seed: false });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: url, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const without = (headers: http.IncomingHttpHeaders, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

describe("hashed assets from memory", () => {
  it("answers like Fastify's first answer did, from memory (the file gone from disk changes nothing)", async () => {
    const first = await get("/assets/app-AbC123.js");
    expect(first.status).toBe(200);
    expect(first.body.toString()).toBe(SCRIPT);
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    unlinkSync(path.join(web, "assets", "app-AbC123.js"));
    const second = await get("/assets/app-AbC123.js");
    expect(second.status).toBe(200);
    expect(second.body.toString()).toBe(SCRIPT);
    // The same headers (helmet's, the type, the caching), less those made per response.
    const perResponse = ["date", "etag", "last-modified", "connection", "keep-alive", "accept-ranges", "vary"];
    expect(without(second.headers, ...perResponse)).toEqual(without(first.headers, ...perResponse));
    expect(second.headers["content-type"]).toMatch(/javascript/);
    expect(second.headers["x-content-type-options"]).toBe("nosniff");
    expect(second.headers.vary).toBe("Accept-Encoding");
  });

  it("sends the precompressed form the client accepts: brotli, else gzip, else the file", async () => {
    const br = await get("/assets/app-AbC123.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.equals(brotliCompressSync(SCRIPT))).toBe(true);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    const gz = await get("/assets/app-AbC123.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.equals(gzipSync(SCRIPT))).toBe(true);
    const refusingBr = await get("/assets/app-AbC123.js", { "accept-encoding": "br;q=0, gzip" });
    expect(refusingBr.headers["content-encoding"]).toBe("gzip");
    const plain = await get("/assets/app-AbC123.js", { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    // A file the build did not compress (a font) goes as it is, whatever is accepted.
    await get("/assets/font-Xyz.woff2");
    const font = await get("/assets/font-Xyz.woff2", { "accept-encoding": "br, gzip" });
    expect(font.status).toBe(200);
    expect(font.headers["content-encoding"]).toBeUndefined();
    expect(font.body.length).toBe(3000);
  });

  it("answers 304 to a matching If-None-Match, one ETag for every encoding", async () => {
    const br = await get("/assets/app-AbC123.js", { "accept-encoding": "br" });
    const gz = await get("/assets/app-AbC123.js", { "accept-encoding": "gzip" });
    expect(br.headers.etag).toBeDefined();
    expect(gz.headers.etag).toBe(br.headers.etag);
    const again = await get("/assets/app-AbC123.js", { "if-none-match": br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("keeps index.html and the service worker no-cache; an unknown asset is a 404", async () => {
    for (const url of ["/", "/sw.js"]) {
      await get(url);
      const again = await get(url);
      expect(again.status, url).toBe(200);
      expect(again.headers["cache-control"], url).toBe("no-cache");
    }
    expect((await get("/assets/missing-123.js")).status).toBe(404);
  });

  // An installed app must pick up a new service worker or shell at once: whatever encoding the
  // browser takes, the precompressed forms included, they are revalidated, never cached an hour.
  it.each(["gzip", "br, gzip", "gzip, deflate, br", ""])(
    "revalidates /, /index.html and /sw.js under Accept-Encoding %j",
    async (encoding) => {
      for (const url of ["/", "/index.html", "/sw.js"]) {
        const answer = await get(url, encoding ? { "accept-encoding": encoding } : {});
        expect(answer.status, url).toBe(200);
        expect(answer.headers["cache-control"], `${url} (${encoding || "none"})`).toBe("no-cache");
      }
    },
  );
});
