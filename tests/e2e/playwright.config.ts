// Browser tests against the real built server: `npm run test:e2e` builds dist/web, then
// Playwright starts src/server/main.ts on a free port with a fresh data dir (seeded on first
// start, admin from e2eAdmin, jobs on) and drives the system Chromium at /usr/bin/chromium.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";
import { e2eAdmin, e2eOzow, e2ePayfast, e2eYoco } from "./e2e-env";

const root = path.resolve(import.meta.dirname, "../..");
// Overridable so two runs can share a machine: each with its own build and results.
const distDir = process.env.E2E_DIST_DIR || path.join(root, "dist/web");
const outputDir = process.env.E2E_OUTPUT_DIR || path.join(root, "test-results");

/** A port nobody listens on right now. Synchronous, because the config object is built at load time. */
function freePort(): string {
  const probe =
    'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})';
  return execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }).trim();
}

// Workers load this file again; the runner's environment (inherited by them) keeps one port.
process.env.E2E_PORT ??= freePort();
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
// The fake PayFast, Ozow and Yoco the app's provider URLs point at (tests/e2e/fake-providers.ts).
process.env.E2E_PAYFAST_PORT ??= freePort();
process.env.E2E_OZOW_PORT ??= freePort();
process.env.E2E_YOCO_PORT ??= freePort();
const payfastUrl = `http://127.0.0.1:${process.env.E2E_PAYFAST_PORT}`;
const ozowUrl = `http://127.0.0.1:${process.env.E2E_OZOW_PORT}`;
const yocoUrl = `http://127.0.0.1:${process.env.E2E_YOCO_PORT}`;
// The customers' mailbox (start-server.mjs): the server sends its e-mail to this SMTP sink, and a
// spec reads what arrived from its HTTP port (tests/e2e/mailbox.ts).
process.env.E2E_SMTP_PORT ??= freePort();
process.env.E2E_MAIL_PORT ??= freePort();

export default defineConfig({
  testDir: ".",
  outputDir,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // 2 cores: two browsers at most, beside the server.
  workers: 2,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    // Recording a trace (a screencast and DOM snapshots) for every test cost 18–27 % of the
    // suite's CPU on two cores, for the few that fail. To debug one: run its spec again with
    // `--trace retain-on-failure`. The failure screenshot and the page's aria snapshot stay.
    trace: "off",
    screenshot: "only-on-failure",
  },
  projects: [
    // instant-trial.spec.ts switches the whole shop's trial mode: it runs alone, after the others,
    // so no free-trial order elsewhere meets the wrong mode.
    { name: "desktop", testIgnore: /instant-trial/, use: { viewport: { width: 1280, height: 800 } } },
    {
      name: "phone",
      testIgnore: /instant-trial/,
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    },
    {
      name: "phone-shop-mode",
      testMatch: /instant-trial/,
      dependencies: ["desktop", "phone"],
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    },
  ],
  webServer: [
    {
      command: "node --import tsx tests/e2e/fake-providers.ts",
      cwd: root,
      url: `${payfastUrl}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      env: {
        E2E_PORT: process.env.E2E_PORT,
        E2E_PAYFAST_PORT: process.env.E2E_PAYFAST_PORT,
        E2E_OZOW_PORT: process.env.E2E_OZOW_PORT,
        E2E_YOCO_PORT: process.env.E2E_YOCO_PORT,
      },
    },
    {
      command: "node tests/e2e/start-server.mjs",
      cwd: root,
      url: baseURL,
      reuseExistingServer: false,
      // first start creates and migrates a new PGlite data dir, then seeds it
      timeout: 120_000,
      stdout: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      env: {
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: process.env.E2E_PORT,
        PUBLIC_URL: baseURL,
        ADMIN_EMAIL: e2eAdmin.email,
        ADMIN_PASSWORD: e2eAdmin.password,
        JOBS: "on",
        // Every browser of the suite comes from 127.0.0.1, as no shop's customers do: with the
        // defaults (5 sign-ins, 20 public writes a minute per address) parallel specs would refuse
        // each other. The limits themselves are tested, with their defaults, by the API tests.
        LOGIN_LIMIT_PER_MIN: "100",
        PUBLIC_WRITE_LIMIT_PER_MIN: "300",
        LOG_LEVEL: "warn",
        WHATSAPP_APP_SECRET: "e2e-whatsapp-app-secret",
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        E2E_SMTP_PORT: process.env.E2E_SMTP_PORT,
        E2E_MAIL_PORT: process.env.E2E_MAIL_PORT,
        WEB_DIST_DIR: distDir,
        DATABASE_URL: "",
        // PayFast, Ozow and Yoco beside the sandbox card checkout (which stays the default choice), at the fakes.
        PAYFAST_MERCHANT_ID: e2ePayfast.merchantId,
        PAYFAST_MERCHANT_KEY: e2ePayfast.merchantKey,
        PAYFAST_PASSPHRASE: e2ePayfast.passphrase,
        PAYFAST_URL: payfastUrl,
        PAYFAST_API_URL: payfastUrl,
        // the fake PayFast posts its ITNs from here (its hosts' real addresses are not it)
        PAYFAST_VALID_IPS: "127.0.0.1,::1",
        OZOW_SITE_CODE: e2eOzow.siteCode,
        OZOW_PRIVATE_KEY: e2eOzow.privateKey,
        OZOW_API_KEY: e2eOzow.apiKey,
        OZOW_URL: ozowUrl,
        OZOW_API_URL: ozowUrl,
        YOCO_SECRET_KEY: e2eYoco.secretKey,
        YOCO_WEBHOOK_SECRET: e2eYoco.webhookSecret,
        YOCO_API_URL: yocoUrl,
      },
    },
  ],
});
