// Issue 30, item 1: a live-update flood. ~20,000 streams from one address used every file
// handle; /api/health, /api/packages and / got connection resets. Streams are now capped per
// address (default 10) and per process (SSE_MAX_STREAMS; default from the open-file limit):
// beyond a cap, 429 in the error shape with Retry-After, and the connection is closed so its
// handle comes back. Real sockets throughout; a second address is another loopback address
// (127.0.0.x all reach the server), as a second machine would be.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTEN_BACKLOG } from "@/server/app";
import { defaultMaxStreams, openFileLimit, REFUSED_RETRY_AFTER_S } from "@/server/modules/realtime/routes";
import { createTestApp, eventually, type TestApp } from "@/server/testing";

let t: TestApp;
/** the app under test in the current test */
let port: number;

/** An app with the given caps, listening as main.ts does (a flood past Node's default listen queue would delay everyone's connection by a second). */
async function listening(overrides: Parameters<typeof createTestApp>[0]): Promise<TestApp> {
  const app = await createTestApp(overrides, { seed: false, database: t?.database });
  await app.app.listen({ port: 0, host: "127.0.0.1", backlog: LISTEN_BACKLOG });
  port = (app.app.server.address() as AddressInfo).port;
  return app;
}

beforeAll(async () => {
  // The default caps: 10 per address, the process's from its open-file limit.
  t = await createTestApp({}, { seed: false });
  expect(t.config.SSE_MAX_PER_ADDRESS).toBe(10);
  expect(t.config.SSE_MAX_STREAMS).toBe(0);
  await t.app.listen({ port: 0, host: "127.0.0.1", backlog: LISTEN_BACKLOG });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

interface Attempt {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the server closed the connection (a refused stream's handle is given back) */
  closed: Promise<void>;
  close(): void;
}

/** GET /api/events from `from` (a loopback address); resolves on the response's head (a 200 stays open). */
function attempt(from = "127.0.0.1", path = "/api/events?tables=packages"): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, localAddress: from, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      const closed = new Promise<void>((done) => res.socket.once("close", () => done()));
      const result: Attempt = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        closed,
        close: () => req.destroy(),
      };
      if (res.statusCode === 200) resolve(result);
      else res.on("end", () => resolve(result));
      res.on("error", () => {});
    });
    req.on("error", reject);
  });
}

interface FloodReport {
  statuses: Record<string, number>;
  retryAfter: string;
  body: string;
  refusedClosed: number;
}

/**
 * The flood (a child process): COUNT streams from FROM at once; reports the answers once every
 * refused connection is closed, then holds the open streams until its stdin closes.
 */
const FLOOD = `
const http = require("node:http");
const count = Number(process.env.COUNT);
const statuses = {};
let retryAfter = "", body = "", refusedClosed = 0;
const open = [];
const one = () => new Promise((resolve) => {
  const req = http.get({ host: "127.0.0.1", port: Number(process.env.PORT), path: "/api/events?tables=packages",
    localAddress: process.env.FROM, agent: false }, (res) => {
    statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
    if (res.statusCode === 200) { open.push(req); return resolve(); }
    retryAfter = res.headers["retry-after"];
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (c) => { text += c; });
    res.on("end", () => { body = text; });
    res.socket.once("close", () => { refusedClosed++; resolve(); });
  });
  req.on("error", () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
});
Promise.all(Array.from({ length: count }, one)).then(() => {
  process.stdout.write("done " + JSON.stringify({ statuses, retryAfter, body, refusedClosed }) + "\\n");
});
process.stdin.on("end", () => { for (const r of open) r.destroy(); process.exit(0); });
process.stdin.resume();
`;

/** GET /api/health on a fresh connection: its status and how long it took. */
async function health(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const answer = await attempt("127.0.0.1", "/api/health");
  return { status: answer.status, ms: performance.now() - started };
}

describe("live-update streams are capped", () => {
  it("the process cap comes from the open-file limit, leaving a fifth (at least 256 handles) for the rest", () => {
    expect(defaultMaxStreams(20_000)).toBe(16_000);
    expect(defaultMaxStreams(1024)).toBe(768);
    expect(defaultMaxStreams(null)).toBe(4096);
    const limit = openFileLimit();
    if (limit) expect(defaultMaxStreams()).toBe(defaultMaxStreams(limit));
  });

  // How fast /api/health answers under abuse is the bench's to measure (docs/performance.md, (g)):
  // a wall-clock bound here would time this shared machine as much as the server.
  it("2,000 streams from one address: 10 open, the rest 429 with Retry-After and closed; /api/health keeps answering", async () => {
    // The flood comes from another process, as an attacker's would; this one serves and checks.
    const flood = spawn(process.execPath, ["-e", FLOOD], {
      env: { ...process.env, PORT: String(port), FROM: "127.0.0.2", COUNT: "2000" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    try {
      let out = "";
      flood.stdout.setEncoding("utf8");
      const report = new Promise<FloodReport>((resolve, reject) => {
        flood.stdout.on("data", (chunk: string) => {
          out += chunk;
          const line = out.split("\n").find((l) => l.startsWith("done "));
          if (line) resolve(JSON.parse(line.slice(5)) as FloodReport);
        });
        flood.on("exit", (code) => reject(new Error(`the flood exited ${code}: ${out}`)));
      });
      // /api/health, asked every 100 ms while the flood arrives (answered, never reset: how fast
      // depends on the CPU the burst takes on this shared machine), then with the flood's streams
      // held open.
      const checks: { status: number; ms: number }[] = [];
      let done = false;
      void report.finally(() => {
        done = true;
      });
      while (!done) {
        checks.push(await health());
        await new Promise((r) => setTimeout(r, 100));
      }
      const result = await report;
      const after: { status: number; ms: number }[] = [];
      for (let i = 0; i < 5; i++) after.push(await health());

      expect(result.statuses).toEqual({ 200: 10, 429: 1990 });
      expect(result.retryAfter).toBe(String(REFUSED_RETRY_AFTER_S));
      expect(JSON.parse(result.body)).toEqual({ error: { code: "rate_limited", message: expect.stringContaining("Too many") } });
      // Every refused connection was closed by the server.
      expect(result.refusedClosed).toBe(1990);
      expect(checks.length).toBeGreaterThan(0);
      for (const check of checks) expect(check.status).toBe(200);
      for (const check of after) expect(check.status).toBe(200);
      // Another address is not affected.
      const neighbour = await attempt("127.0.0.3");
      expect(neighbour.status).toBe(200);
      neighbour.close();
    } finally {
      flood.stdin.end(); // the flood closes its open streams and exits
      flood.kill();
    }
  }, 60_000);

  it("holds per process: beyond SSE_MAX_STREAMS any address gets 429; a stream that ends frees its place", async () => {
    // Its own app (its own count), with a process cap three addresses reach.
    const small = await listening({ SSE_MAX_STREAMS: 25 });
    const streams: Attempt[] = [];
    try {
      for (const from of ["127.0.0.4", "127.0.0.5"]) for (let i = 0; i < 10; i++) streams.push(await attempt(from));
      for (let i = 0; i < 5; i++) streams.push(await attempt("127.0.0.6"));
      expect(streams.map((s) => s.status)).toEqual(Array(25).fill(200));
      const over = await attempt("127.0.0.7");
      expect(over.status).toBe(429);
      expect(over.headers["retry-after"]).toBe(String(REFUSED_RETRY_AFTER_S));
      expect(JSON.parse(over.body).error.message).toContain("busy");

      streams[0].close();
      const again = await eventually(async () => {
        const next = await attempt("127.0.0.7");
        expect(next.status).toBe(200);
        return next;
      }, 2000);
      streams.push(again);
    } finally {
      for (const s of streams) s.close();
      await small.app.close();
    }
  }, 30_000);
});
