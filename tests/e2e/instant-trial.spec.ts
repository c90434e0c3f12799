// Instant free trials (issue 27) at 390 px against the real server (sandbox panel, jobs on, no
// WhatsApp Cloud API: the code goes to the e-mail address given, read from the mailbox): landing → the
// hero's free trial → the order → the code step → the line's details on screen, made by the panel
// a moment after the code. The owner's trial_mode is set to instant for this spec and put back
// after (the other journeys expect approve mode, the default without a mapped trial package).
// Then the trial-ending message's one-tap pay link (issue 27 item 4) opened at 390 px: the pay page,
// no sign-in, and a tap to the sandbox checkout.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { SPECIAL_POPUP_SESSION_FLAG } from "../../src/shared/constants";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { codeMailedTo } from "./mailbox";

let api: APIRequestContext;

// One worker, in order: with fullyParallel each test ran in its own worker, and the shorter one's
// afterAll put the shop back in approve mode while the journey was still ordering its trial.
test.describe.configure({ mode: "default" });

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
  // no Cloud API here: WhatsApp cannot carry a code, so it went to the address they gave, and the page says so
  await expect(page.getByText("We sent a code to i***@example.com")).toBeVisible();
  const code = await codeMailedTo(`instant-${stamp}@example.com`);
  // and nothing waits for the owner on WhatsApp
  const queued = await api.get(`/api/admin/outbox?q=${number}`);
  expect(((await queued.json()) as { data: { kind: string }[] }).data.filter((m) => m.kind === "verification-code")).toEqual([]);
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

test("the trial-ending message's pay link → 'Pay R1,450 for 3 Months' → the sandbox checkout, no sign-in", async ({ page }) => {
  // a trial for 3 Months, started as the order form does (the journey above drives the form)
  const stamp = `${Date.now()}`.slice(-7);
  const number = `2787${stamp}`;
  const order = await api.post("/api/orders", {
    data: {
      name: "Naledi Paylink",
      email: `paylink-${stamp}@example.com`,
      whatsapp: `087 ${stamp.slice(0, 3)} ${stamp.slice(3)}`,
      package: "3 Months",
      duration: "free-trial",
      formType: "free-trial",
    },
  });
  expect(order.status(), await order.text()).toBe(202);
  const { trialId } = (await order.json()) as { trialId: string };
  const verified = await api.post(`/api/trials/${trialId}/verify`, { data: { code: await codeMailedTo(`paylink-${stamp}@example.com`) } });
  expect(verified.status(), await verified.text()).toBe(201);
  const clients = await api.get(`/api/admin/clients?q=${number}`);
  const client = ((await clients.json()) as { data: { id: string; status: string }[] }).data[0];
  expect(client?.status).toBe("trial");

  // the trial-ending message as it will read (the reminders job sends it on its 15-minute round)
  const preview = await api.post("/api/admin/message-templates/trial-ending/preview", { data: { client_id: client.id } });
  expect(preview.ok(), await preview.text()).toBe(true);
  const body = ((await preview.json()) as { data: { body: string } }).data.body;
  const link = /tap to pay for your 3 Months: (\S+\/pay\/[A-Za-z0-9_-]{71})/.exec(body)?.[1];
  expect(link, body).toBeTruthy();

  await page.goto(new URL(link as string).pathname);
  await expect(page.getByRole("heading", { level: 1, name: "Pay R1,450 for 3 Months" })).toBeVisible();
  await expect(page.getByText("Hi Naledi, this is your payment to")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole("button", { name: "Pay by card (test checkout)" }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await expect(page.getByRole("heading", { name: "R1,450" })).toBeVisible();
});
