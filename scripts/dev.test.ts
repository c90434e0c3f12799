// `npm run dev` (scripts/dev.mjs) as a developer meets it: Vite, and with it the /api proxy, starts
// only once the API answers, so the first page never meets the proxy's ECONNREFUSED; Ctrl-C
// (SIGINT) stops both.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/server/test-support/free-port";
import { eventually } from "@/server/testing";

const root = path.resolve(import.meta.dirname, "..");
let dev: ChildProcess | null = null;
let exited: Promise<number | null>;
let dataDir: string;

afterAll(async () => {
  if (dev && dev.exitCode === null && dev.signalCode === null) {
    dev.kill("SIGKILL");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("starts Vite only after the API answers; its /api proxy works from the first request; SIGINT stops both", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sd-dev-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      JOBS: "off",
      PASSWORD_HASH_COST: "14",
    };
    delete env.API_URL;
    delete env.HOST;
    // Both streams in one, in the order written, as a terminal shows them.
    dev = spawn("sh", ["-c", "exec node scripts/dev.mjs 2>&1"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
    exited = new Promise((resolve) => dev?.once("exit", (code) => resolve(code)));
    let output = "";
    dev.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const viteUrl = await eventually(
      () => {
        const url = output.match(/\[web\].*Local:\s+(http:\/\/\S+)/)?.[1];
        // on a failure, what the terminal showed by then
        expect(url, output.slice(-3000)).toBeTruthy();
        return (url as string).replace(/\/$/, "");
      },
      120_000,
      100,
    );
    const lines = output.split("\n");
    const waiting = lines.findIndex((line) => line.startsWith("[dev] waiting for the API"));
    const answered = lines.findIndex((line) => line.startsWith("[dev] the API answers; starting Vite"));
    const listening = lines.findIndex((line) => /^\[api\].*[Ll]istening/.test(line));
    const firstWeb = lines.findIndex((line) => line.startsWith("[web]"));
    expect(waiting).toBe(0);
    expect(listening).toBeGreaterThan(waiting);
    expect(answered).toBeGreaterThan(listening);
    expect(firstWeb).toBeGreaterThan(answered);

    // The first request through Vite's proxy reaches the API.
    const health = await fetch(`${viteUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(output).not.toMatch(/ECONNREFUSED|proxy error/i);

    dev.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 180_000);
});
