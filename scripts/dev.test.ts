// `npm run dev` (scripts/dev.mjs) as a developer meets it: Vite, and with it the /api proxy, starts
// only once the API answers, so the first page never meets the proxy's ECONNREFUSED; Ctrl-C
// (SIGINT) stops both.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
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
    let output = "";
    let viteUrl = "";
    // A port another process of the test run takes between freePort() and the API's listen (they
    // race for the same ephemeral range) fails the API at once, and node --watch then waits for a
    // file change rather than exit: that start is stopped and tried again, on a new port.
    for (let attempt = 1; attempt <= 2 && !viteUrl; attempt++) {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      dataDir = mkdtempSync(path.join(tmpdir(), "sd-dev-"));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        JOBS: "off",
        PASSWORD_HASH_COST: "14",
        NO_COLOR: "1",
      };
      delete env.API_URL;
      delete env.HOST;
      // CI sets FORCE_COLOR: Vite's "Local:" line would carry colour codes between its words
      delete env.FORCE_COLOR;
      // Both streams in one, in the order written, as a terminal shows them.
      const child = spawn("sh", ["-c", "exec node scripts/dev.mjs 2>&1"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
      dev = child;
      exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
      output = "";
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        // as a reader sees it: any colour codes left out
        output += stripVTControlCharacters(chunk);
      });
      viteUrl = await eventually(
        () => {
          const url = output.match(/\[web\].*Local:\s+(http:\/\/\S+)/)?.[1];
          if (!url && (child.exitCode !== null || /EADDRINUSE/.test(output))) return "";
          // on a failure, what the terminal showed by then
          expect(url, output.slice(-3000)).toBeTruthy();
          return (url as string).replace(/\/$/, "");
        },
        120_000,
        100,
      );
      if (viteUrl) break;
      if (!/EADDRINUSE/.test(output)) throw new Error(`npm run dev stopped before Vite started:\n${output.slice(-3000)}`);
      // as Ctrl-C would: dev.mjs stops the API it started too
      child.kill("SIGINT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    expect(viteUrl, output.slice(-3000)).toBeTruthy();
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

    dev?.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 300_000);
});
