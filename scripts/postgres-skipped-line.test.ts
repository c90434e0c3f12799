// `npm test` ends with `vitest run`: without TEST_DATABASE_URL its last line says PostgreSQL was
// skipped, so a green run is not read as "on PostgreSQL too"; with it, the line is not there.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const LINE = "PostgreSQL tests skipped: set TEST_DATABASE_URL (the API tests ran on PGlite only)";

/** `vitest run` on one quick file, as npm test runs it, outside this run's own environment. */
async function vitestRun(testDatabaseUrl?: string): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "TEST_DATABASE_URL"),
  );
  if (testDatabaseUrl) env.TEST_DATABASE_URL = testDatabaseUrl;
  const { stdout } = await promisify(execFile)(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "scripts/readme.test.ts"], {
    cwd: root,
    env: { ...env, NO_COLOR: "1" },
  });
  return stdout;
}

describe("npm test on PGlite only", () => {
  it("ends with a plain line saying PostgreSQL was skipped when TEST_DATABASE_URL is unset", async () => {
    const stdout = await vitestRun();
    expect(stdout).toMatch(/Tests +\d+ passed/);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe(LINE);
    expect(stdout.split(LINE)).toHaveLength(2);
  }, 60_000);

  it("says nothing of the kind when TEST_DATABASE_URL is set", async () => {
    // (no API test runs here, so the address is never dialled)
    const stdout = await vitestRun("postgres://postgres@127.0.0.1:5432/postgres");
    expect(stdout).toMatch(/Tests +\d+ passed/);
    expect(stdout).not.toContain("PostgreSQL tests skipped");
  }, 60_000);
});
