// The server's floors (scripts/check-boundaries.mjs) on planted imports: lib ↛ modules ↛ jobs,
// by alias and by relative path, each named with its file and import; downward imports and
// tests pass.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { checkBoundaries } from "./check-boundaries.mjs";

let root = "";
function tree(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), "boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("check-boundaries: the server's floors", () => {
  it("fails on lib importing modules or jobs, naming the file and the import", () => {
    const dir = tree({
      "src/server/lib/accounts.ts": `import { baseUsername } from "@/server/modules/admin-business/usernames";\n`,
      "src/server/lib/cache.ts": `import type { Job } from "../jobs/provisioning-job";\n`,
    });
    expect(checkBoundaries(dir)).toEqual([
      "src/server/lib/accounts.ts: src/server/lib must not import src/server/modules (@/server/modules/admin-business/usernames); move what both need down to src/server/lib",
      "src/server/lib/cache.ts: src/server/lib must not import src/server/jobs (../jobs/provisioning-job); move what both need down to src/server/lib",
    ]);
  });

  it("fails on a module importing a job, by alias or relative path, a dynamic import too", () => {
    const dir = tree({
      "src/server/modules/panel/routes.ts": `import { runPanelSync } from "@/server/jobs/panel-sync";\n`,
      "src/server/modules/monitor/routes.ts": `const m = await import("../../jobs/health-monitor");\n`,
    });
    expect(checkBoundaries(dir)).toEqual([
      "src/server/modules/monitor/routes.ts: src/server/modules must not import src/server/jobs (../../jobs/health-monitor); move what both need down to src/server/modules or src/server/lib",
      "src/server/modules/panel/routes.ts: src/server/modules must not import src/server/jobs (@/server/jobs/panel-sync); move what both need down to src/server/modules or src/server/lib",
    ]);
  });

  it("passes imports down a floor or within one, and tests that drive jobs", () => {
    const dir = tree({
      "src/server/jobs/panel-sync.ts": `import { runPanelSync } from "@/server/modules/panel/sync";\nimport { alertOwner } from "@/server/lib/owner-alerts";\n`,
      "src/server/modules/panel/routes.ts": `import { runPanelSync } from "./sync";\nimport { enqueue } from "@/server/lib/outbox";\nimport { x } from "@/server/modules/client/service";\n`,
      "src/server/lib/lifecycle.ts": `import { preferredContact } from "./contact";\nimport { formatDate } from "@/shared/dates";\n`,
      "src/server/modules/panel/credits.test.ts": `import { runPanelSync } from "@/server/jobs/panel-sync";\n`,
      "src/server/lib/owner-alerts.test.ts": `import { makeClient } from "@/server/modules/client/test-helpers";\n`,
    });
    expect(checkBoundaries(dir)).toEqual([]);
  });
});
