// Instant free trials (issue 27) at 390 px against the real server (sandbox panel, jobs on, no
// WhatsApp Cloud API: the code waits for the owner, whose chat link carries it): landing → the
// hero's free trial → the order → the code step → the line's details on screen, made by the panel
// a moment after the code. The owner's trial_mode is set to instant for this spec and put back
// after (the other journeys expect approve mode, the default without a mapped trial package).
import { type APIRequestContext, expect, test } from "@playwright/test";
import { SPECIAL_POPUP_SESSION_FLAG } from "../../src/shared/constants";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { codeTheOwnerSends } from "./owner-queue";

let api: APIRequestContext;

async function setting(key: string, value: string) {
  const res = await api.post("/api/admin/settings", { data: { key, value } });
  expect(res.ok(), await res.text()).toBe(true);
}

test.beforeAll(async ({ playwright, baseURL }, testInfo) => {
  test.skip(
    testInfo.project.name !== "phone-shop-mode",
    "the journey is at 390 px, in the project that runs alone (it switches the shop's trial mode)",
  );
  api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: ownOrigin() });
  const login = await api.post("/api/admin/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } });
  expect(login.ok(), await login.text()).toBe(true);
  await setting("trial_mode", "instant");
  // every browser of the suite comes from 127.0.0.1: the per-network limit is the API tests' to check
  await setting("trial_network_daily_limit", "1000");
});
test.afterAll(async () => {
  if (!api) return;
  await setting("trial_mode", "");
  await setting("trial_network_daily_limit", "2");
  await api.dispose();
});

test.beforeEach(async ({ context }) => {
  await context.addInitScript((flag) => window.sessionStorage.setItem(flag, "true"), SPECIAL_POPUP_SESSION_FLAG);
});

test("landing → free trial → code → the line's details on screen", async ({ page }) => {
  const stamp = `${Date.now()}`.slice(-7);
  const number = `2786${stamp}`;
  await page.goto("/");
  await expect(page.locator("#order form")).toBeAttached();
  await page.getByRole("button", { name: "Try Free Now" }).click();
  await expect(page.locator("#order-duration")).toHaveValue("free-trial");
  await page.locator("#order-name").fill("Instant Trialist");
  await page.locator("#order-email").fill(`instant-${stamp}@example.com`);
  await page.locator("#order-whatsapp").fill(`086 ${stamp.slice(0, 3)} ${stamp.slice(3)}`);
  await page.getByRole("button", { name: "Start My Free Trial" }).click();

  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  await expect(page.getByText(`We sent a code to WhatsApp ending ${number.slice(-4)}`)).toBeVisible();
  const code = await codeTheOwnerSends(api, number);
  // a wrong code first: the field says so, nothing starts
  await page.getByRole("textbox", { name: "Code" }).fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Start My Free Trial" }).click();
  await expect(page.locator("#trial-code-error")).toContainText("That code is not right");

  await page.getByRole("textbox", { name: "Code" }).fill(code);
  await page.getByRole("button", { name: "Start My Free Trial" }).click();
  await expect(page.getByRole("heading", { name: "Your free trial line is ready" })).toBeVisible({ timeout: 20_000 });
  const line = page.getByTestId("trial-line");
  await expect(line).toContainText("Username");
  await expect(line).toContainText("Password");
  await expect(line).toContainText("get.php?username=");
  // nothing wider than the phone's screen
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
