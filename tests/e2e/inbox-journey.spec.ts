// The WhatsApp inbox, on desktop and phone (issue 26): the owner has the inbox open when a
// customer writes (a webhook signed as Meta signs it, WHATSAPP_APP_SECRET from e2e-env.ts); the
// conversation appears without a reload (the change feed), the owner opens it and replies. This
// server has no Cloud API, so the reply is kept as the owner's and opens wa.me with the text (the
// outside world is stubbed, never reached), and it shows in the thread. For a client with a line,
// "Resend line details" queues the login again and says where it went; the WhatsApp one, handed to
// the owner's queue by the worker, shows so live.
//
// One signed-in page per project, its steps in order: sign-ins are rate limited per IP, so each
// project signs in once. The number is unique per project and run, so an unknown number: a lead.
import { createHmac } from "node:crypto";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin, e2eWhatsAppAppSecret } from "./e2e-env";
import { uniqueWhatsApp } from "./owner-queue";

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const errors: string[] = [];
/** 27 + 9 digits, its own per project and run */
let number = "";
let question = "";
const reply = "Yes, it came through. Your line is on.";

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  const run = String(Date.now()).slice(-6);
  number = `2786${testInfo.project.name === "phone" ? "1" : "2"}${run}`;
  question = `Hi, did my payment go through? (${testInfo.project.name} ${run})`;
  // No network: wa.me (and anything else outside) answers with an empty page.
  await context.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>WhatsApp</title>" }));
});

test.afterAll(async () => {
  await context?.close();
});

/** What Meta posts when `from` writes `text`, signed over the exact bytes sent. */
function inboundWebhook(from: string, text: string) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA-ID",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "27110000000", phone_number_id: "PNID" },
              contacts: [{ profile: { name: "E2E Customer" }, wa_id: from }],
              messages: [
                {
                  from,
                  id: `wamid.e2e${Date.now().toString(16)}${from}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: "text",
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", e2eWhatsAppAppSecret).update(body).digest("hex")}`;
  return { body, signature };
}

test("the owner signs in and opens the inbox from the overview", async () => {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Welcome back to the admin dashboard")).toBeVisible();
  await page.goto("/admin");
  await page.getByRole("link", { name: /WhatsApp messages to answer/ }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
});

test("a customer's message appears in the open inbox without a reload", async ({ baseURL }) => {
  // a mark on this document: a reload would lose it
  await page.evaluate(() => {
    (window as unknown as { inboxMark: boolean }).inboxMark = true;
  });
  const { body, signature } = inboundWebhook(number, question);
  // as Meta sends it: no cookie, no Origin
  const response = await fetch(`${baseURL}/api/whatsapp/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signature },
    body,
  });
  expect(response.status).toBe(200);

  const conversation = page.getByRole("navigation", { name: "Conversations" }).getByRole("link").filter({ hasText: question });
  // the list has no timer: only the change feed brings it
  await expect(conversation).toBeVisible({ timeout: 5_000 });
  await expect(conversation).toContainText("1 unread");
  expect(await page.evaluate(() => (window as unknown as { inboxMark?: boolean }).inboxMark)).toBe(true);
});

test("the owner opens it, replies, and WhatsApp opens with the reply, which shows in the thread", async () => {
  await page.getByRole("navigation", { name: "Conversations" }).getByRole("link").filter({ hasText: question }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/inbox/${number}$`));
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem").filter({ hasText: question })).toContainText("They wrote:");
  // an unknown number became a lead, with its quick action beside the thread
  const facts = page.getByRole("complementary");
  await expect(facts.getByRole("heading", { name: "Lead" })).toBeVisible();
  await expect(facts.getByRole("button", { name: "Convert lead" })).toBeVisible();

  await expect(page.getByText("your reply opens in WhatsApp")).toBeVisible();
  await page.getByLabel(/Reply/).fill(reply);
  await page.getByRole("button", { name: "Send" }).click();
  const open = page.getByRole("link", { name: "Open WhatsApp to send" });
  await expect(open).toBeVisible();
  const href = (await open.getAttribute("href")) ?? "";
  expect(href.startsWith(`https://wa.me/${number}?text=`)).toBe(true);
  expect(decodeURIComponent(href.split("?text=")[1])).toBe(reply);
  await expect(open).toHaveAttribute("target", "_blank");
  const [chat] = await Promise.all([context.waitForEvent("page"), open.click()]);
  await chat.waitForURL(/^https:\/\/wa\.me\//);
  expect(chat.url()).toBe(href);
  await chat.close();

  const ours = messages.getByRole("listitem").filter({ hasText: reply });
  await expect(ours).toContainText("We wrote:");
  await expect(ours).toContainText(/sent by hand/i);
  expect(errors).toEqual([]);
});

test("for a client with a line, the owner resends the line details and sees where they went, live", async ({ baseURL }) => {
  const origin = baseURL ?? "";
  const whatsapp = uniqueWhatsApp();
  const username = `inbox-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await page.request.post("/api/admin/clients", {
    headers: { origin },
    data: {
      username,
      full_name: "Lindiwe Line",
      email: `${username}@example.test`,
      whatsapp,
      communication_method: "whatsapp",
      line_username: `line-${username}`,
      line_password: "line-secret-123",
      line_portal_url: "http://line.example.test:8080",
    },
  });
  expect(created.status()).toBe(201);
  const { body, signature } = inboundWebhook(whatsapp, "I lost my login details");
  const hook = await fetch(`${origin}/api/whatsapp/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signature },
    body,
  });
  expect(hook.status).toBe(200);

  await page.goto(`/admin/inbox/${whatsapp}`);
  const facts = page.getByRole("complementary");
  await expect(facts.getByRole("heading", { name: "Client" })).toBeVisible();
  await facts.getByRole("button", { name: "Resend line details" }).click();
  const queued = facts.getByTestId("line-details-queued");
  await expect(queued).toContainText(`WhatsApp ending ${whatsapp.slice(-4)}`);
  await expect(queued).toContainText(`E-mail ${username.slice(0, 1)}***@example.test`);
  // no Cloud API: the worker hands the WhatsApp one to the owner, and the note follows the thread
  await expect(queued.getByRole("link", { name: "To send on WhatsApp" })).toBeVisible({ timeout: 10_000 });
  await expect(
    page
      .getByRole("list", { name: "Messages" })
      .getByRole("listitem")
      .filter({ hasText: `line-${username}` }),
  ).toContainText("We wrote:");
  expect(errors).toEqual([]);
});
