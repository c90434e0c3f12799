// A reseller's first start, as the terminal shows it: the real server process (main.ts through
// tsx, a fresh PGlite data directory, HOST unset) listens on this machine only and prints the
// admin login last, after it is listening; a lost password is replaced by
// `npm run admin:password` on the same DATA_DIR, and the next start signs in with it.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/server/test-support/free-port";
import { eventually } from "@/server/testing";

const root = path.resolve(import.meta.dirname, "..");
let dataDir: string;
let port: number;
let running: { child: ChildProcess; output: () => string; exited: Promise<number | null> } | null = null;

/** What the process gets; `databaseUrl` puts it on PostgreSQL instead of DATA_DIR. */
function env(databaseUrl = ""): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: "",
    ADMIN_PASSWORD: "",
    PUBLIC_URL: "",
    WEB_DIST_DIR: path.join(dataDir, "no-web-build"),
    JOBS: "off",
    LOG_LEVEL: "info",
    PASSWORD_HASH_COST: "14",
  };
  delete base.HOST;
  return base;
}

/** The server as `npm start` runs it, its stdout and stderr in one stream as a terminal shows them. */
async function start(databaseUrl?: string): Promise<string> {
  const child = spawn("sh", ["-c", "exec node --import tsx src/server/main.ts 2>&1"], {
    cwd: root,
    env: env(databaseUrl),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  running = { child, output: () => output, exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))) };
  await eventually(() => expect(output).toMatch(/StreamDesk is running on .*\n/), 90_000, 100);
  // Anything printed after the running line is printed in the same turn: give it a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return output;
}

async function stop(): Promise<void> {
  if (!running) return;
  running.child.kill("SIGTERM");
  expect(await running.exited).toBe(0);
  running = null;
}

async function adminPassword(databaseUrl?: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "-s", "admin:password"], { cwd: root, env: env(databaseUrl) });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function signIn(email: string, password: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const passwordIn = (text: string) => text.match(/password: (\S+)/)?.[1] as string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-first-start-"));
  port = await freePort();
});
afterAll(async () => {
  if (running) {
    running.child.kill("SIGKILL");
    await running.exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a reseller's first start", () => {
  let firstPassword: string;

  it("listens on 127.0.0.1 only when HOST is unset, and prints the admin login last, after the server is listening", async () => {
    const output = await start();
    expect(output).toContain(`(listening on 127.0.0.1:${port})`);
    expect(await accepts("127.0.0.1")).toBe(true);
    // This machine's other addresses do not answer: a fresh demo is not on the network.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    if (outside) expect(await accepts(outside.address)).toBe(false);

    const lines = output.trimEnd().split("\n");
    const runningAt = lines.findIndex((line) => line.startsWith("StreamDesk is running on"));
    const boxAt = lines.findIndex((line) => line.includes("An admin account was created"));
    expect(runningAt).toBeGreaterThan(-1);
    expect(boxAt).toBeGreaterThan(runningAt);
    // The box closes the output: nothing (no log line) scrolls it away.
    expect(lines.at(-1)).toContain("This password is shown only once");
    expect(lines.slice(boxAt)).toHaveLength(4);
    firstPassword = passwordIn(output);
    expect(firstPassword).toMatch(/^\S{16}$/);
    expect(await signIn("admin@streamdesk.local", firstPassword)).toBe(200);
  }, 120_000);

  it("npm run admin:password refuses while the server holds the embedded database", async () => {
    const refused = await adminPassword();
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/has .* open\. Stop it first/);
    expect(await signIn("admin@streamdesk.local", firstPassword)).toBe(200);
  }, 60_000);

  it("npm run admin:password sets and prints a new password for the first admin; the next start signs in with it, not the old one", async () => {
    await stop();
    const reset = await adminPassword();
    expect(reset.code).toBe(0);
    expect(reset.output).toContain("email:    admin@streamdesk.local");
    const newPassword = passwordIn(reset.output);
    expect(newPassword).toMatch(/^\S{16}$/);
    expect(newPassword).not.toBe(firstPassword);

    const output = await start();
    expect(output).not.toContain("An admin account was created");
    expect(await signIn("admin@streamdesk.local", newPassword)).toBe(200);
    expect(await signIn("admin@streamdesk.local", firstPassword)).toBe(401);
    await stop();
  }, 180_000);
});

// PostgreSQL is shared by every process, so the running server need not stop.
describe.skipIf(!process.env.TEST_DATABASE_URL)("npm run admin:password on PostgreSQL (DATABASE_URL)", () => {
  // (the describe's body runs even when skipped: nothing here may need the URL to be set)
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://unset";
  const name = `sd_admin_password_${Date.now().toString(36)}`;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  beforeAll(() => admin(`CREATE DATABASE ${name}`));
  afterAll(async () => {
    await stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it("sets and prints a new password for the first admin while the server runs; it signs in with it at once", async () => {
    const firstPassword = passwordIn(await start(databaseUrl));
    const reset = await adminPassword(databaseUrl);
    expect(reset.code, reset.output).toBe(0);
    expect(reset.output).toContain("PostgreSQL (DATABASE_URL)");
    const newPassword = passwordIn(reset.output);
    expect(newPassword).toMatch(/^\S{16}$/);
    expect(await signIn("admin@streamdesk.local", newPassword)).toBe(200);
    expect(await signIn("admin@streamdesk.local", firstPassword)).toBe(401);
  }, 180_000);
});
