// The real process (main.ts through tsx, a fresh PGlite data dir): its terminal output and log
// lines, then SIGTERM with an SSE stream open and a client stalled half-way through a request.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./test-support/free-port";
import { eventually } from "./testing";

const root = path.resolve(import.meta.dirname, "../..");
const SHUTDOWN_TIMEOUT_S = 3;

let server: ChildProcess;
let dataDir: string;
let base: string;
let stdout = "";
let stderr = "";
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      })
      .on("error", reject);
  });

// Only once: the process is the same on either database.
describe.skipIf(process.env.TEST_DB === "postgres")("the server process", () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-shutdown-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      ADMIN_EMAIL: "",
      ADMIN_PASSWORD: "",
      JOBS: "on",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S),
    };
    server = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    server.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    server.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    exited = new Promise((resolve) => server.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })));
    await eventually(() => expect(stdout).toContain("StreamDesk is running"), 50_000);
    // The generated login is printed last, a moment after the running line (main.ts).
    await eventually(() => expect(stderr).toMatch(/password: \S+/), 10_000);
  });

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill("SIGKILL");
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints the generated admin password once to stderr, never into the JSON log on stdout", () => {
    const password = stderr.match(/password: (\S+)/)?.[1];
    expect(password).toBeTruthy();
    expect(stderr.match(/password: /g)).toHaveLength(1);
    expect(stdout).not.toContain(password);
  });

  it("logs one JSON line per request, with no cookie, authorization or token", async () => {
    expect(await get("/api/health?token=s3cret-token", { cookie: "sd_admin=session-secret", authorization: "Bearer abc-secret" })).toBe(
      200,
    );
    expect(await get("/api/no-such-route")).toBe(404);
    const lines = await eventually(() => {
      const found = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === "request");
      expect(found).toHaveLength(2);
      return found;
    }, 2000);
    expect(lines[0]).toMatchObject({ method: "GET", route: "/api/health", status: 200, url: "/api/health?token=[hidden]" });
    expect(lines[0].ms).toEqual(expect.any(Number));
    // (the SPA's catch-all when dist/web is built, else no route)
    expect(lines[1]).toMatchObject({ url: "/api/no-such-route", status: 404, route: expect.stringMatching(/^(\/\*|unmatched)$/) });
    expect(stdout).not.toMatch(/session-secret|abc-secret|s3cret-token/);
  });

  it(`on SIGTERM finishes a request in flight, ends SSE streams, refuses new connections and exits within SHUTDOWN_TIMEOUT_S (${SHUTDOWN_TIMEOUT_S} s) despite a stalled client`, async () => {
    // An SSE subscriber, connected.
    let sseEnded = false;
    let sseBytes = "";
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/api/events?tables=packages`, { agent: false, headers: { accept: "text/event-stream" } }, (res) => {
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            sseBytes += chunk;
            if (sseBytes.includes("retry:")) resolve();
          });
          res.on("close", () => {
            sseEnded = true;
          });
          res.on("error", () => {});
        })
        .on("error", reject);
    });
    // A client that sends half a request and stops.
    const stalled = net.connect(Number(new URL(base).port), "127.0.0.1");
    let stalledClosed = false;
    stalled.on("close", () => {
      stalledClosed = true;
    });
    stalled.on("error", () => {});
    await new Promise<void>((resolve) => stalled.once("connect", () => resolve()));
    stalled.write(`POST /api/leads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // A download in flight, its reader paused: it must still arrive whole.
    const DOWNLOAD = 20_000_000;
    let received = 0;
    let downloadDone = false;
    const download = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${base}/api/speedtest/download?bytes=${DOWNLOAD}`, { agent: false }, resolve).on("error", reject);
    });
    expect(download.statusCode).toBe(200);
    download.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    download.on("end", () => {
      downloadDone = true;
    });
    download.on("error", () => {});
    download.pause();

    const sent = Date.now();
    server.kill("SIGTERM");
    setTimeout(() => download.resume(), 300);
    // New connections are refused at once.
    await eventually(async () => {
      await expect(get("/api/health")).rejects.toThrow(/ECONNREFUSED|ECONNRESET|socket hang up/);
    }, 1000);
    await eventually(() => expect(sseEnded).toBe(true), 1000);
    await eventually(() => expect(downloadDone).toBe(true), 1500);
    expect(received).toBe(DOWNLOAD);

    const { code, signal, at } = await exited;
    const took = at - sent;
    expect(signal).toBeNull();
    // The stalled connection was cut (at 80 % of the deadline), the database closed, exit 0.
    expect(code).toBe(0);
    expect(stalledClosed).toBe(true);
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000 + 700);
    expect(stdout).toContain("SIGTERM: shutting down");
  });
});

// A stop asked for while the server is still starting (a fresh data dir: migrations and seeding
// under way) waits for the step in progress and exits 0; the same data dir then starts cleanly.
describe.skipIf(process.env.TEST_DB === "postgres")("a signal while starting", () => {
  const start = (dir: string, port: number) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dir,
        DATABASE_URL: "",
        ADMIN_EMAIL: "",
        ADMIN_PASSWORD: "",
        JOBS: "off",
        LOG_LEVEL: "warn",
        SHUTDOWN_TIMEOUT_S: "60",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = { stdout: "", stderr: "" };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out.stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      out.stderr += chunk;
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    return { child, out, exit };
  };

  it("finishes the step in progress, closes the database and exits 0; the data dir then starts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "streamdesk-early-"));
    try {
      const first = start(dir, await freePort());
      // The database is being made: the process is past its imports, its start-up handlers are on.
      await eventually(() => expect(readdirSync(dir).length).toBeGreaterThan(0), 50_000, 10);
      first.child.kill("SIGTERM");
      const { code, signal } = await first.exit;
      expect(signal).toBeNull();
      expect(code).toBe(0);
      expect(first.out.stderr).toContain("SIGTERM while starting: stopping once the current step is done");
      expect(first.out.stdout).not.toContain("StreamDesk is running");

      const again = start(dir, await freePort());
      await eventually(() => expect(again.out.stdout).toContain("StreamDesk is running"), 50_000);
      again.child.kill("SIGTERM");
      expect((await again.exit).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
