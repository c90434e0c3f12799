// Prepared public reads: ETag and 304, compressed forms, and the same answer (headers and
// bytes) whether Fastify or the fast path before routing sends it, fresh after a change.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packages } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { pickEncoding } from "./cache";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const request = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });

const withoutDate = (headers: http.IncomingHttpHeaders) => {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...rest } = headers;
  return rest;
};

describe("prepared public reads", () => {
  it("answer with an ETag, and 304 with no body when the browser has it", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/packages" });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const again = await t.app.inject({ method: "GET", url: "/api/packages", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    const other = await t.app.inject({ method: "GET", url: "/api/packages", headers: { "if-none-match": 'W/"other"' } });
    expect(other.statusCode).toBe(200);
  });

  it("send the compressed form the client accepts, made once", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/api/packages" });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await t.app.inject({ method: "GET", url: "/api/packages", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await t.app.inject({ method: "GET", url: "/api/packages", headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });

  it("answer the same headers and bytes from the fast path as from Fastify, and follow changes", async () => {
    let fast = 0;
    t.app.cache.onServed = () => {
      fast++;
    };
    for (const path of ["/api/banners", "/api/branding", "/api/manifest.webmanifest"]) {
      const viaFastify = await request(path, { "accept-encoding": "br" });
      const viaFastPath = await request(path, { "accept-encoding": "br" });
      expect(viaFastPath.status).toBe(200);
      expect(withoutDate(viaFastPath.headers)).toEqual(withoutDate(viaFastify.headers));
      expect(viaFastPath.body.equals(viaFastify.body)).toBe(true);
    }
    expect(fast).toBe(3);

    const before = await request("/api/packages");
    const cached = await request("/api/packages", { "if-none-match": before.headers.etag as string });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const head = await request("/api/packages", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(before.body.length));

    await t.app.db.insert(packages).values({ name: "Fresh package", price: 99, duration: "1 Month" });
    const after = await eventually(async () => {
      const answer = await request("/api/packages", { "if-none-match": before.headers.etag as string });
      expect(answer.status).toBe(200);
      return answer;
    }, 2000);
    expect(after.body.toString()).toContain("Fresh package");
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it("leave a read with a query string to Fastify (which ignores unknown parameters)", async () => {
    const plain = await request("/api/packages");
    const query = await request("/api/packages?x=1");
    expect(query.status).toBe(200);
    expect(query.body.equals(plain.body)).toBe(true);
  });
});

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, honouring q=0", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("*")).toBe("gzip");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding("gzip;q=0")).toBeNull();
  });
});
