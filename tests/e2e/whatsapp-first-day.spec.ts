// A shop's first day on WhatsApp (issue 41 item 2), at 1280 and 390 px: the Cloud API is
// connected with its webhook, no template is approved yet, no SMTP_URL (so no e-mail can carry a
// code either), and the visitor proves their number by writing to us. This spec runs a shop of
// its own per size — the built server on a fresh data dir, its WhatsApp Cloud API our fake on a
// loopback port — so the suite's shared server (no Cloud API) keeps its routing. The visitor
// orders a free trial, taps "Send the code on WhatsApp" (its wa.me link carries the code),
// WhatsApp delivers that message to our webhook signed as Meta signs it, and the page moves on by
// itself to the trial's line; the same code written from another number proves nothing.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  type FakeWhatsAppCloud,
  hubSignature,
  inboundMessage,
  startFakeWhatsAppCloud,
  webhookPayload,
} from "../../src/server/adapters/fake-whatsapp-cloud";
import { SPECIAL_POPUP_SESSION_FLAG } from "../../src/shared/constants";

const root = path.resolve(import.meta.dirname, "../..");
const APP_SECRET = "first-day-app-secret";
const TOKEN = "first-day-token";
const PHONE_NUMBER_ID = "104000000000001";

let fake: FakeWhatsAppCloud;
let server: ChildProcess | null = null;
let dataDir = "";
let base = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browserName }, testInfo) => {
  test.skip(!["phone", "desktop"].includes(testInfo.project.name) || browserName !== "chromium", "on a shop of its own, per size");
  test.setTimeout(120_000);
  fake = await startFakeWhatsAppCloud({ token: TOKEN, phoneNumberId: PHONE_NUMBER_ID });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-first-day-"));
  server = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      ADMIN_EMAIL: "owner@first-day.test",
      ADMIN_PASSWORD: "first-day-Passw0rd",
      JOBS: "on",
      LOG_LEVEL: "warn",
      SMTP_URL: "",
      WHATSAPP_TOKEN: TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: "first-day-verify",
      WHATSAPP_BUSINESS_ACCOUNT_ID: "",
      PANEL_API_URL: "",
      PANEL_API_KEY: "",
      PAYFAST_MERCHANT_ID: "",
      OZOW_SITE_CODE: "",
      YOCO_SECRET_KEY: "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${base}/api/health`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toBe(200);
  // The owner's choice: free trials start at once, on a code (the shop's default without a mapped trial package is approval).
  const login = await fetch(`${base}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "owner@first-day.test", password: "first-day-Passw0rd" }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  const setting = await fetch(`${base}/api/admin/settings`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie },
    body: JSON.stringify({ key: "trial_mode", value: "instant" }),
  });
  expect(setting.ok, await setting.text()).toBe(true);
  // Every visitor here comes from 127.0.0.1: room for this spec's trials from one network.
  const network = await fetch(`${base}/api/admin/settings`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie },
    body: JSON.stringify({ key: "trial_network_daily_limit", value: "10" }),
  });
  expect(network.ok, await network.text()).toBe(true);
});

/** WhatsApp delivers a message from `from` to our webhook, signed as Meta signs it. */
async function deliver(from: string, text: string) {
  const body = JSON.stringify(webhookPayload({ messages: [inboundMessage(from, text)] }));
  const delivered = await fetch(`${base}/api/whatsapp/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
    body,
  });
  expect(delivered.status).toBe(200);
}

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a visitor proves their number by writing to us, and sees the trial start", async ({ page }) => {
  await page.addInitScript((flag) => {
    window.sessionStorage.setItem(flag, "true");
    window.localStorage.setItem("initialized", "true");
  }, SPECIAL_POPUP_SESSION_FLAG);
  const stamp = `${Date.now()}`.slice(-7);
  const number = `2784${stamp}`;
  await page.goto(`${base}/`);
  await expect(page.locator("#order form")).toBeAttached();
  await page.getByRole("button", { name: "Try Free Now" }).click();
  await expect(page.locator("#order-duration")).toHaveValue("free-trial");
  await page.locator("#order-name").fill("First Day Visitor");
  await page.locator("#order-email").fill(`first-day-${stamp}@example.com`);
  await page.locator("#order-whatsapp").fill(`084 ${stamp.slice(0, 3)} ${stamp.slice(3)}`);
  await page.getByRole("button", { name: "Start My Free Trial" }).click();

  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  // No approved template and no open chat: no code went to WhatsApp; the page offers to write to us.
  const link = page.getByRole("link", { name: "Send the code on WhatsApp" });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
  const text = decodeURIComponent(href.slice(href.indexOf("?text=") + "?text=".length));
  const code = /\d{6}/.exec(text)?.[0];
  expect(code, text).toBeTruthy();
  expect(fake.messages.filter((m) => m.to === number)).toEqual([]);

  // WhatsApp delivers the visitor's message to our webhook, signed as Meta signs it.
  const body = JSON.stringify(webhookPayload({ messages: [inboundMessage(number, text)] }));
  const delivered = await fetch(`${base}/api/whatsapp/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
    body,
  });
  expect(delivered.status).toBe(200);

  // The page was polling: it moves on by itself.
  await expect(page.getByRole("heading", { name: "Your free trial line is ready" })).toBeVisible({ timeout: 30_000 });
  // nothing wider than the phone's screen
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // The chat the visitor opened lets the login go out on WhatsApp as free text, at once.
  await expect.poll(() => fake.messages.filter((m) => m.to === number).length, { timeout: 30_000 }).toBeGreaterThan(0);
});

test("no e-mail can carry the code: the page offers only 'Send the code on WhatsApp'; the same code from another number proves nothing; from the visitor's number the page shows the line's login", async ({
  page,
}) => {
  await page.addInitScript((flag) => {
    window.sessionStorage.setItem(flag, "true");
    window.localStorage.setItem("initialized", "true");
  }, SPECIAL_POPUP_SESSION_FLAG);
  const stamp = `${Date.now() + 1}`.slice(-7);
  const number = `2783${stamp}`;
  await page.goto(`${base}/`);
  await expect(page.locator("#order form")).toBeAttached();
  await page.getByRole("button", { name: "Try Free Now" }).click();
  await expect(page.locator("#order-duration")).toHaveValue("free-trial");
  await page.locator("#order-name").fill("Only WhatsApp Visitor");
  await page.locator("#order-email").fill(`only-wa-${stamp}@example.com`);
  await page.locator("#order-whatsapp").fill(`083 ${stamp.slice(0, 3)} ${stamp.slice(3)}`);
  // the code step asks after the trial (a message may start it): its id, to read it as the page does
  const polled = page.waitForRequest((r) => /^\/api\/trials\/[^/]+$/.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name: "Start My Free Trial" }).click();

  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  // No template, no open chat, no SMTP: no code went anywhere, and the page says only what works.
  await expect(page.getByText("We sent a code to")).toHaveCount(0);
  await expect(
    page.getByText(
      "Tap the button: WhatsApp opens with a message holding a code. Send it from the number you gave and your trial starts here.",
    ),
  ).toBeVisible();
  const link = page.getByRole("link", { name: "Send the code on WhatsApp" });
  await expect(link).toHaveCount(1);
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
  const text = decodeURIComponent(href.slice(href.indexOf("?text=") + "?text=".length));
  expect(/\d{6}/.exec(text)?.[0], text).toBeTruthy();
  expect(fake.messages.filter((m) => m.to === number)).toEqual([]);
  const trialPath = new URL((await polled).url()).pathname;

  // The same words from another number: Meta vouches for that sender, not for the visitor's number.
  const stranger = `2782${stamp}`;
  await deliver(stranger, text);
  const after = (await (await fetch(`${base}${trialPath}`)).json()) as { state: string; line: unknown };
  expect(after.state).toBe("awaiting-code");
  expect(after.line).toBeNull();
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();

  // From the visitor's own number: the page moves on by itself and shows the line's login.
  await deliver(number, text);
  await expect(page.getByRole("heading", { name: "Your free trial line is ready" })).toBeVisible({ timeout: 30_000 });
  const line = page.getByTestId("trial-line");
  // the line as this browser reads it (its cookie from the order: it alone sees the login)
  const trial = (await (await page.request.get(`${base}${trialPath}`)).json()) as {
    state: string;
    line: { username: string; password: string };
  };
  expect(trial.state).toBe("ready");
  // anyone else asking after the trial learns it started, not its login
  const outsider = (await (await fetch(`${base}${trialPath}`)).json()) as { state: string; line: unknown };
  expect(outsider).toMatchObject({ state: "ready", line: null });
  await expect(line).toContainText(trial.line.username);
  await expect(line).toContainText(trial.line.password);
  await expect(line.getByRole("button", { name: "Copy username" })).toBeVisible();
  // nothing wider than the screen
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // the login also went to the number that wrote, on WhatsApp (the chat it opened), never to the stranger
  await expect
    .poll(() => fake.messages.filter((m) => m.to === number).some((m) => (m.text ?? JSON.stringify(m.raw)).includes(trial.line.username)), {
      timeout: 30_000,
    })
    .toBe(true);
  expect(fake.messages.filter((m) => m.to === stranger && (m.text ?? JSON.stringify(m.raw)).includes(trial.line.username))).toEqual([]);
});
