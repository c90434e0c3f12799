// The owner's "To send on WhatsApp" queue, on desktop and phone. This server has no WhatsApp
// Cloud API, so a WhatsApp message (an app's install guide, asked for from the storefront) waits
// for the owner: the overview's tile counts it and opens the queue, "Open chat" opens WhatsApp
// in a new tab with the message typed in (wa.me; the outside world is stubbed, never reached),
// and "Mark sent" takes it off the queue.
//
// One signed-in page per project, its steps in order: sign-ins are rate limited per IP, so each
// project signs in once. The number is unique per project and run, so other specs' messages never
// get in the way.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin } from "./e2e-env";

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const errors: string[] = [];
/** 27 + 9 digits, its own per project and run */
let number = "";

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  number = `2784${testInfo.project.name === "phone" ? "1" : "2"}${String(Date.now()).slice(-6)}`;
  // No network: wa.me (and anything else outside) answers with an empty page.
  await context.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>WhatsApp</title>" }));
});

test.afterAll(async () => {
  await context?.close();
});

test("a WhatsApp message the server cannot send waits for the owner", async ({ baseURL }) => {
  const { data } = (await (await page.request.get("/api/downloads")).json()) as { data: { id: string; name: string }[] };
  let asked = false;
  for (const app of data) {
    const response = await page.request.post(`/api/downloads/${app.id}/instructions`, {
      headers: { origin: baseURL ?? "" },
      data: { type: "whatsapp", contact: `+${number}` },
    });
    if (response.ok()) {
      asked = true;
      break;
    }
  }
  expect(asked).toBe(true);

  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Welcome back to the admin dashboard")).toBeVisible();
});

test("the overview's tile counts the queue and opens it", async () => {
  await page.goto("/admin");
  const tile = page.getByRole("link", { name: /To send on WhatsApp/ });
  await expect(tile).toBeVisible();
  await expect(tile).toContainText(/[1-9]\d*/);
  await tile.click();
  await expect(page).toHaveURL(/\/admin\/outbox\?status=owner$/);
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(page.getByText("Press Send there, then")).toBeVisible();
});

test("Open chat opens WhatsApp in a new tab with the message; Mark sent takes it off the queue", async () => {
  await page.goto(`/admin/outbox?status=owner&q=${number}`);
  const display = `+27 ${number.slice(2, 4)} ${number.slice(4, 7)} ${number.slice(7)}`;
  const open = page.getByRole("link", { name: `Open chat with ${display} on WhatsApp (new tab)` });
  await expect(open).toBeVisible();
  const href = (await open.getAttribute("href")) ?? "";
  expect(href.startsWith(`https://wa.me/${number}?text=`)).toBe(true);
  expect(decodeURIComponent(href.split("?text=")[1])).toContain("Install");
  await expect(open).toHaveAttribute("target", "_blank");

  const [chat] = await Promise.all([context.waitForEvent("page"), open.click()]);
  await chat.waitForURL(/^https:\/\/wa\.me\//);
  expect(chat.url()).toBe(href);
  await chat.close();

  await page.getByRole("button", { name: `Mark sent for the message to ${display}` }).click();
  await expect(page.getByText("Marked as sent")).toBeVisible();
  await expect(open).toHaveCount(0);

  // the outbox keeps it, sent by hand
  await page.goto(`/admin/outbox?q=${number}`);
  await page.getByRole("button", { name: new RegExp(`^Open message to ${number}`) }).click();
  const sheet = page.getByRole("dialog");
  await expect(sheet.getByText("By hand, marked sent from the dashboard")).toBeVisible();
  await page.keyboard.press("Escape");
  expect(errors).toEqual([]);
});
