import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing";
import { DEFAULT_DOWNLOAD_BYTES, garbageStream, MAX_DOWNLOAD_BYTES, MAX_UPLOAD_BYTES } from "./service";

let t: TestApp;
/** real HTTP (not inject): streaming, compression and connection handling as a browser sees them */
let base: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** Reads a response body, counting bytes without keeping them. */
async function drainCount(response: Response): Promise<number> {
  let total = 0;
  const reader = response.body?.getReader();
  if (!reader) return 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
  }
}

describe("GET /api/speedtest/download", () => {
  it("sends exactly the bytes asked for, uncompressed even when gzip is offered, never cached", async () => {
    const bytes = 3 * 1024 * 1024 + 12_345;
    // fetch decompresses transparently; the raw length is checked through content-length and the count.
    const response = await fetch(`${base}/api/speedtest/download?bytes=${bytes}`, { headers: { "accept-encoding": "gzip, br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-length")).toBe(String(bytes));
    expect(await drainCount(response)).toBe(bytes);
  });

  it("defaults to 10 MiB and caps larger requests at 50 MiB", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/api/speedtest/download", headers: { "accept-encoding": "gzip" } });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBe(DEFAULT_DOWNLOAD_BYTES);
    expect(plain.headers["content-encoding"]).toBeUndefined();

    const huge = await fetch(`${base}/api/speedtest/download?bytes=999999999999`);
    expect(huge.status).toBe(200);
    expect(huge.headers.get("content-length")).toBe(String(MAX_DOWNLOAD_BYTES));
    expect(await drainCount(huge)).toBe(MAX_DOWNLOAD_BYTES);
  });

  it("answers small sizes exactly, zero included", async () => {
    for (const bytes of [0, 1, 65_537]) {
      const res = await t.app.inject({ method: "GET", url: `/api/speedtest/download?bytes=${bytes}` });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(bytes);
    }
  });

  it("refuses a size that is not a whole number with 400 in the error shape", async () => {
    for (const bytes of ["abc", "-5", "1.5", "1e6"]) {
      const res = await t.app.inject({ method: "GET", url: `/api/speedtest/download?bytes=${bytes}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe("validation");
    }
  });

  it("sends bytes a compressor cannot shrink", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/speedtest/download?bytes=262144" });
    // random data: gzip output is not smaller than its input
    expect(gzipSync(res.rawPayload).length).toBeGreaterThanOrEqual(res.rawPayload.length);
  });
});

describe("garbageStream", () => {
  it("pushes slices no larger than 64 KiB and stops at the exact size", async () => {
    const sizes: number[] = [];
    for await (const chunk of garbageStream(1024 * 1024 + 100)) sizes.push((chunk as Buffer).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1024 * 1024 + 100);
  });
});

describe("GET /api/speedtest/ping", () => {
  it("answers a tiny, uncached body", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/speedtest/ping" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("pong");
    expect(res.headers["cache-control"]).toBe("no-store");
  });
});

describe("POST /api/speedtest/upload", () => {
  it("counts the bytes of any body type and throws them away", async () => {
    const bytes = 5 * 1024 * 1024 + 7;
    for (const type of ["application/octet-stream", "application/json", "text/plain", "multipart/form-data; boundary=x"]) {
      const response = await fetch(`${base}/api/speedtest/upload`, {
        method: "POST",
        headers: { "content-type": type },
        body: new Uint8Array(bytes),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({ received: bytes });
    }
  });

  it("counts a streamed body without a declared length, and an empty one", async () => {
    const chunk = new Uint8Array(256 * 1024);
    const body = Readable.toWeb(
      Readable.from(
        (function* () {
          for (let i = 0; i < 8; i++) yield chunk;
        })(),
      ),
    );
    const response = await fetch(`${base}/api/speedtest/upload`, {
      method: "POST",
      body: body as ReadableStream,
      duplex: "half",
    } as RequestInit);
    expect(await response.json()).toEqual({ received: 8 * 256 * 1024 });
    const empty = await t.app.inject({ method: "POST", url: "/api/speedtest/upload" });
    expect(empty.json()).toEqual({ received: 0 });
  });

  it("refuses more than 50 MiB with 413 in the error shape, declared or streamed", async () => {
    const declared = await t.app.inject({
      method: "POST",
      url: "/api/speedtest/upload",
      headers: { "content-type": "application/octet-stream", "content-length": String(MAX_UPLOAD_BYTES + 1) },
      payload: Buffer.alloc(10),
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({ error: { code: "payload_too_large", message: "Uploads are limited to 50 MB." } });

    const chunk = new Uint8Array(1024 * 1024);
    const offered = 4 * MAX_UPLOAD_BYTES;
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent >= offered) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    let sentWhenAnswered = 0;
    const response = await fetch(`${base}/api/speedtest/upload`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: stream,
      duplex: "half",
    } as RequestInit)
      .catch((error: unknown) => error)
      .finally(() => {
        sentWhenAnswered = sent;
      });
    // The server answers 413 and closes the connection; depending on timing the client sees the
    // answer or a reset while still sending. Either way it stopped long before the client would.
    if (response instanceof Response) {
      expect(response.status).toBe(413);
      expect((await response.json()).error.code).toBe("payload_too_large");
    } else {
      expect(response).toBeInstanceOf(Error);
    }
    expect(sentWhenAnswered).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(sentWhenAnswered).toBeLessThan(2 * MAX_UPLOAD_BYTES);
  });

  it("leaves JSON parsing alone elsewhere in the API (the catch-all parser stays inside this module)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/downloads/00000000-0000-4000-8000-000000000000/instructions",
      payload: { type: "email", contact: "" },
    });
    // the body arrived as an object: the field rule ran and gave the spec's message
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("Please enter contact information");
  });
});

describe("the per-address byte budget", () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ SPEEDTEST_BUDGET_MB: 1 }, { seed: false });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("lets a few tests through, then answers 429 with Retry-After for a minute; another address is not affected", async () => {
    const download = (ip: string) =>
      small.app.inject({ method: "GET", url: `/api/speedtest/download?bytes=${300 * 1024}`, remoteAddress: ip });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await download("192.0.2.10")).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await download("192.0.2.10");
    expect(refused.json().error).toEqual({
      code: "rate_limited",
      message: "Too many speed tests from your connection. Please wait a minute and try again.",
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Uploads spend the same budget, by their declared size, before the body is read.
    const upload = await small.app.inject({
      method: "POST",
      url: "/api/speedtest/upload",
      payload: Buffer.alloc(10),
      remoteAddress: "192.0.2.10",
    });
    expect(upload.statusCode).toBe(429);
    expect((await download("192.0.2.11")).statusCode).toBe(200);
  });
});
