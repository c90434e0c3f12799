import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname, "src") };
const serverTests = ["src/server/**/*.test.ts"];

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
        test: { name: "web", include: ["src/web/**/*.test.{ts,tsx}"], environment: "happy-dom" },
      },
      {
        extends: true,
        test: {
          name: "api-pglite",
          include: serverTests,
          environment: "node",
          env: { TEST_DB: "pglite" },
          globalSetup: ["src/server/test-support/pglite-template.ts"],
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: "api-postgres", include: serverTests, environment: "node" as const, env: { TEST_DB: "postgres" } },
            },
          ]
        : []),
    ],
  },
});
