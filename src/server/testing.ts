// Test support for API tests: a real database per test file — an in-memory PGlite, or, when
// the suite runs in its PostgreSQL project (TEST_DB=postgres), a fresh database made on
// TEST_DATABASE_URL and dropped afterwards — and an app built on it.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type App, type BuildOptions, buildApp } from "./app";
import { type Config, testConfig } from "./config";
import { type Database, openDatabase } from "./db/client";
import { siteSettings } from "./db/schema";

export const onPostgres = () => process.env.TEST_DB === "postgres";

export interface TestDatabase extends Database {
  /** postgres URL of this test database (PostgreSQL only): lets a test open a second process/connection */
  url?: string;
}

/** A fresh, migrated, empty database. Close it with `await db.close()`. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (!onPostgres()) {
    const template = inject("pgliteTemplate");
    if (template && existsSync(template)) return openDatabase({ loadDataDir: new Blob([readFileSync(template)]) });
    return openDatabase({});
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `sd_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  const close = database.close.bind(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export interface TestApp {
  app: App;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/**
 * An app on a fresh database. Seeds demo content unless `seed: false`.
 * Use once per test file (beforeAll) and close in afterAll.
 */
export async function createTestApp(overrides: Partial<Config> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const config = testConfig(overrides);
  const app = await buildApp(config, { ...options, database });
  await app.ready();
  return {
    app,
    database: database as TestDatabase,
    config,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/** Wait until `check` passes (change-feed deliveries are asynchronous). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3000, stepMs = 20): Promise<T> {
  const start = Date.now();
  let lastError: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
  throw lastError;
}

/** Rate-limit windows are calendar minutes: start a test's hits well inside one, so its counts are one window's. */
export async function awayFromMinuteTurn(): Promise<void> {
  const left = 60 - new Date().getSeconds();
  if (left < 4) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

/** Bank details a test shop pays into: EFT is offered only once these replace the seed's placeholders. */
export const TEST_BANK_DETAILS = {
  eft_bank_name: "FNB",
  eft_account_name: "Test Streams (Pty) Ltd",
  eft_account_number: "62000000001",
  eft_branch_code: "250655",
  eft_account_type: "Cheque",
} as const;

/** Fills in the bank details as the owner would in Admin › Settings (and drops the cached profile). */
export async function fillBankDetails(app: App, details: Record<string, string> = TEST_BANK_DETAILS): Promise<void> {
  for (const [key, value] of Object.entries(details)) {
    await app.db
      .insert(siteSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
  }
  app.cache.clear();
}
