import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname, "src") };
const serverTests = ["src/server/**/*.test.ts"];
// API test files share one module graph per worker (isolate: false): every file builds its own app
// on its own database, and importing the server once per worker instead of once per file takes the
// API stages from about 6 to 3 minutes each. These files replace modules (vi.mock) or check a
// module-wide default (the password cost), so they keep a graph of their own. A new file that mocks
// a module or changes module-wide state belongs here.
const ownModuleGraph = [
  "src/server/auth/passwords.test.ts",
  // replaces the PDF builder (vi.mock) to make it fail
  "src/server/modules/billing/document-failure.test.ts",
  "src/server/security/authz-matrix.test.ts",
  "src/server/security/fuzz-routes.test.ts",
];

// Without TEST_DATABASE_URL the api-postgres projects do not exist: say so as the run's last line,
// so a green run is not read as "and on PostgreSQL too". Only in a Vitest run (Vitest sets VITEST
// before it loads this file): other tools that read the config, such as knip, say nothing.
const POSTGRES_SKIPPED = "PostgreSQL tests skipped: set TEST_DATABASE_URL (the API tests ran on PGlite only)";
if (process.env.VITEST && !process.env.TEST_DATABASE_URL) process.once("exit", () => process.stdout.write(`\n${POSTGRES_SKIPPED}\n`));

export default defineConfig({
  resolve: { alias },
  test: {
    // 2 cores: two workers, each test file builds one app on its own database.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "shared", include: ["src/shared/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        // the repository's own checks (scripts/check-patterns.mjs) on planted violations
        test: { name: "scripts", include: ["scripts/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: { name: "web", include: ["src/web/**/*.test.{ts,tsx}"], environment: "happy-dom", setupFiles: ["src/web/testing/setup.ts"] },
      },
      ...apiProjects("api-pglite", { TEST_DB: "pglite" }, ["src/server/test-support/pglite-template.ts"]),
      ...(process.env.TEST_DATABASE_URL ? apiProjects("api-postgres", { TEST_DB: "postgres" }) : []),
    ],
  },
});

/** The API tests on one database: `name` (shared module graph) and `name-own` (ownModuleGraph). */
function apiProjects(name: string, env: Record<string, string>, globalSetup: string[] = []) {
  const common = { environment: "node" as const, env, globalSetup };
  return [
    { extends: true as const, test: { ...common, name, include: serverTests, exclude: ownModuleGraph, isolate: false } },
    { extends: true as const, test: { ...common, name: `${name}-own`, include: ownModuleGraph } },
  ];
}
