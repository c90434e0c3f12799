// `npm start`'s build step (scripts/build-check.mjs --build) as the terminal shows it: one line
// when the build works, the build's whole output when it fails. The script runs from a copy in a
// scratch project whose `npm run build` stands in for vite (a real build takes minutes).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
let project: string;

/** A project whose build prints `lines` lines on each stream, writes the outputs and exits `exitCode`. */
function scratchProject(lines: number, exitCode: number): void {
  mkdirSync(path.join(project, "scripts"));
  copyFileSync(path.join(root, "scripts/build-check.mjs"), path.join(project, "scripts/build-check.mjs"));
  mkdirSync(path.join(project, "node_modules/.bin"), { recursive: true });
  writeFileSync(path.join(project, "node_modules/.bin/vite"), "");
  mkdirSync(path.join(project, "src"));
  writeFileSync(path.join(project, "src/main.ts"), "export {};\n");
  const build = `
    const fs = require("node:fs");
    for (let i = 0; i < ${lines}; i++) { console.log("vite: transforming module " + i); console.error("warning " + i); }
    if (${exitCode} !== 0) { console.error("error TS2322: Type 'string' is not assignable to type 'number'."); process.exitCode = ${exitCode}; return; }
    for (const f of ["dist/web/index.html", "dist/ssr/first-screen.js", "dist/server/main.js"]) {
      fs.mkdirSync(require("node:path").dirname(f), { recursive: true });
      fs.writeFileSync(f, "");
    }`;
  writeFileSync(path.join(project, "build.cjs"), build);
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "scratch", private: true, scripts: { build: "node build.cjs" } }),
  );
}

async function buildCheck(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.npm_execpath;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["scripts/build-check.mjs", "--build"], { cwd: project, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), "sd-build-check-"));
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

describe("npm start's build step", () => {
  it("prints one line for a build that works, none of the build's own output", async () => {
    scratchProject(250, 0);
    const run = await buildCheck();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Building \(dist\/web\/index\.html, .* missing\)… built in \d+ s \(dist\/web, dist\/ssr, dist\/server\)\.\n$/,
    );
    expect(run.stderr).toBe("");
    // Built now: the next start says nothing at all.
    const again = await buildCheck();
    expect(again).toEqual({ code: 0, stdout: "", stderr: "" });
  }, 60_000);

  it("prints the build's whole output, in order, when it fails, and exits non-zero", async () => {
    scratchProject(250, 2);
    const run = await buildCheck();
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/failed after \d+ s\. The build's output:/);
    expect(run.stderr).toContain("vite: transforming module 0");
    expect(run.stderr).toContain("vite: transforming module 249");
    expect(run.stderr).toContain("warning 249");
    expect(run.stderr).toContain("error TS2322");
    const at = (text: string) => run.stderr.indexOf(text);
    expect(at("vite: transforming module 0")).toBeLessThan(at("vite: transforming module 1\n"));
    expect(at("vite: transforming module 1\n")).toBeLessThan(at("vite: transforming module 249"));
    expect(at("warning 249")).toBeLessThan(at("error TS2322"));
    expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(/The build failed \(exit 2\); its output is above/);
  }, 60_000);
});
