// Manual panel mode that works (issue 28), at 1280 and 390 px: the review step offers card and
// EFT side by side (the shop's bank details are real), a card payment makes a task on the panel
// page, the owner completes it with the line's login and the stream server URL (none was set), and
// the customer's message and portal then carry absolute M3U/EPG links, the portal a QR code too.
//
// Panel mode is the server's configuration (PANEL_MODE), so this spec starts a server of its own
// (manual mode, no PANEL_STREAM_URL, a fresh database) on another port, one per worker: the suite's
// server, its panel mode and its settings stay as the other specs expect them.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { SPECIAL_POPUP_SESSION_FLAG } from "../../src/shared/constants";
import { e2eAdmin } from "./e2e-env";
import { chatText, choosePassword } from "./owner-queue";

const root = path.resolve(import.meta.dirname, "../..");
const STREAM = "http://tv.example.net:8080";

let server: ChildProcess | null = null;
let shop = "";
let api: APIRequestContext;

function freePort(): string {
  const probe =
    'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})';
  return execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }).trim();
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  const port = freePort();
  shop = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["tests/e2e/start-server.mjs"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: port,
      PUBLIC_URL: shop,
      ADMIN_EMAIL: e2eAdmin.email,
      ADMIN_PASSWORD: e2eAdmin.password,
      JOBS: "on",
      PANEL_MODE: "manual",
      PANEL_STREAM_URL: "",
      LOGIN_LIMIT_PER_MIN: "100",
      PUBLIC_WRITE_LIMIT_PER_MIN: "300",
      LOG_LEVEL: "warn",
      WEB_DIST_DIR: process.env.E2E_DIST_DIR || path.join(root, "dist/web"),
      DATABASE_URL: "",
      // the suite's mailbox is the suite server's (its SMTP port is taken): this shop sends no e-mail
      E2E_SMTP_PORT: "",
      E2E_MAIL_PORT: "",
      SMTP_URL: "",
    },
  });
  await expect
    .poll(async () => (await fetch(`${shop}/api/health`).catch(() => null))?.status ?? 0, { timeout: 150_000, intervals: [500] })
    .toBe(200);
  api = await playwright.request.newContext({ baseURL: shop, extraHTTPHeaders: { origin: shop } });
  const login = await api.post("/api/admin/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } });
  expect(login.ok(), await login.text()).toBe(true);
  // real bank details: EFT is offered beside card
  for (const [key, value] of Object.entries({
    eft_bank_name: "FNB",
    eft_account_name: "Manual Streams (Pty) Ltd",
    eft_account_number: "62000000003",
    eft_branch_code: "250655",
    eft_account_type: "Cheque",
  })) {
    const saved = await api.post("/api/admin/settings", { data: { key, value } });
    expect(saved.ok(), await saved.text()).toBe(true);
  }
});

test.afterAll(async () => {
  await api?.dispose();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
});

test.beforeEach(async ({ context }) => {
  await context.addInitScript((flag) => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem(flag, "true");
  }, SPECIAL_POPUP_SESSION_FLAG);
});

test("manual mode: card and EFT side by side → pay → the owner's task with the stream URL → absolute links and a QR for the customer", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  const phone = testInfo.project.name === "phone";
  const name = `Nomsa Manual ${phone ? "Phone" : "Desktop"}`;
  const whatsapp = phone ? "082 720 0002" : "082 720 0001";
  const number = `27${whatsapp.replace(/\D/g, "").slice(1)}`;
  const lineUser = phone ? "nomsa_phone" : "nomsa_desk";
  const linePass = "Tv-pass-731";

  // The storefront's review step: both ways to pay, side by side.
  await page.goto(`${shop}/`);
  const plan = page.locator('#pricing-packages article[data-plan="Month to Month"]');
  await plan.scrollIntoViewIfNeeded();
  await plan.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  const methods = review.getByTestId("pay-methods");
  await expect(methods.getByRole("button", { name: "Continue to payment by card" })).toBeVisible();
  await expect(methods.getByRole("button", { name: "Get EFT details" })).toBeVisible();
  await expect(review.getByTestId("card-only-note")).toHaveCount(0);
  await review.getByLabel("Full Name").fill(name);
  await review.getByLabel("WhatsApp Number").fill(whatsapp);
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    methods.getByRole("button", { name: "Continue to payment by card" }).click(),
  ]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible();
  await checkout.close();

  // The owner's panel page (signed in through this browser): the payment is a task; no stream
  // server is set yet, so the task asks for it with the login.
  const signedIn = await page.request.post(`${shop}/api/admin/login`, { data: e2eAdmin, headers: { origin: shop } });
  expect(signedIn.ok()).toBe(true);
  await page.goto(`${shop}/admin/panel`);
  await expect(page.getByTestId("panel-status")).toHaveAttribute("data-mode", "manual");
  const task = page.locator(`article[aria-label="Task: Create line for ${name}"]`);
  await expect(task).toBeVisible({ timeout: 20_000 });
  await task.getByLabel("Line username").fill(lineUser);
  await task.getByLabel("Line password").fill(linePass);
  // (each project's run has a server of its own: none is set)
  await task.getByLabel("Stream server URL").fill(STREAM);
  await task.getByRole("button", { name: "Save the login" }).click();
  await expect(page.getByText("Line saved")).toBeVisible();
  await expect(page.locator("form[aria-label='Panel settings'] [data-testid=stream-url-in-use]")).toHaveText(STREAM);

  // The customer's message (as the owner sends it on WhatsApp): the server, and absolute links.
  const message = await chatText(api, number, "credentials", shop);
  expect(message).toContain(STREAM);
  expect(message).toContain(`${STREAM}/get.php?username=${lineUser}&password=${linePass}&type=m3u_plus&output=ts`);
  expect(message).toContain(`${STREAM}/xmltv.php?username=${lineUser}&password=${linePass}`);
  expect(message).not.toMatch(/(^|\s)\/get\.php/m);

  // The portal: the same line card, absolute links and the QR code.
  const password = await choosePassword(api, number, `Manual-${phone ? "p" : "d"}-42-kite`, shop);
  const clients = await api.get(`/api/admin/clients?q=${encodeURIComponent(name)}`);
  const username = ((await clients.json()) as { data: { username: string; full_name: string }[] }).data.find(
    (c) => c.full_name === name,
  )?.username;
  expect(username).toBeTruthy();
  await page.goto(`${shop}/client/login`);
  await page.locator("#client-username").fill(username as string);
  await page.locator("#client-password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/client$/);
  const line = page.getByTestId("line-details");
  await expect(line).toBeVisible();
  await expect(line.getByText(STREAM, { exact: true })).toBeVisible();
  await expect(
    line.getByText(
      new RegExp(`^${STREAM.replace(/[.:/]/g, "\\$&")}/get\\.php\\?username=${lineUser}&password=•+&type=m3u_plus&output=ts$`),
    ),
  ).toBeVisible();
  const qr = line.getByRole("img", { name: "QR code of your M3U playlist link" });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(line.getByTestId("test-line-notice")).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
