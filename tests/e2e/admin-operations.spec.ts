// The dashboard's operations and account sections, on desktop and phone: run the health check
// and see the components; publish a notice, find it on the public notices feed and in the audit
// log, then delete it; see the e-mails an order queues in the outbox; add an admin and remove it.
//
// One signed-in page per project, its steps in order: sign-ins are rate limited per IP, so each
// project signs in once. What a step creates it removes (notice, admin); the order's lead and its
// messages stay, tagged per project and run so they never collide with other specs.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin } from "./e2e-env";

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const errors: string[] = [];
let tag = "";

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  tag = `${testInfo.project.name}${Date.now().toString(36)}`;
});

test.afterAll(async () => {
  await context?.close();
});

test("signs in to the dashboard", async () => {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Welcome back to the admin dashboard")).toBeVisible();
});

test("System status: Run health check refreshes the components with their history", async () => {
  await page.goto("/admin/status");
  await expect(page.getByRole("heading", { level: 1, name: "System status" })).toBeVisible();
  const components = page.getByTestId("status-component");
  await expect(components.first()).toBeVisible();
  const { components: expected } = (await (await page.request.get("/api/status")).json()) as { components: { name: string }[] };
  await expect(components).toHaveCount(expected.length);

  await page.getByRole("button", { name: "Run health check" }).click();
  await expect(page.getByText("Health check done")).toBeVisible();
  for (const component of expected) {
    const card = components.filter({ hasText: component.name });
    await expect(card.getByText(/Last checked/)).toBeVisible();
    await expect(card.getByRole("img", { name: `${component.name}: 90-day history` })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Incidents" })).toBeVisible();
});

test("Notices: a new notice reaches the public notices feed and the audit log, then is deleted", async () => {
  const title = `Planned maintenance ${tag}`;
  await page.goto("/admin/notices");
  await page.getByRole("button", { name: "New notice" }).click();
  const dialog = page.getByRole("dialog", { name: "New notice" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Message").fill("Streams may drop for a few minutes on Sunday from 02:00.");
  await dialog.getByLabel("Severity").selectOption("warning");
  await dialog.getByLabel("Audience").selectOption("public");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Notice created")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: `Open ${title}` })).toBeVisible();

  // the public site reads its notices from /api/notices (the notice bar, the live alerts, the client portal)
  await expect
    .poll(async () => {
      const { data } = (await (await page.request.get("/api/notices")).json()) as { data: { title: string; severity: string }[] };
      return data.find((n) => n.title === title)?.severity;
    })
    .toBe("warning");
  // and a visitor sees it under the navigation, and can close it for the page view
  const visitor = await page.context().newPage();
  await visitor.goto("/status");
  const shown = visitor.getByRole("region", { name: "Notices" }).getByText(title);
  await expect(shown).toBeVisible();
  await visitor.getByRole("button", { name: `Close notice: ${title}` }).click();
  await expect(shown).toBeHidden();
  await visitor.close();

  // the audit log names who created it, with the values it was created with
  await page.goto("/admin/audit?resource=notices");
  const entry = page.getByRole("button", { name: `Open Create of Notices ${title}` });
  await expect(entry).toBeVisible();
  await entry.click();
  const details = page.getByRole("dialog", { name: `Create: Notices ${title}` });
  await expect(details.getByText(`By ${e2eAdmin.email}`)).toBeVisible();
  await expect(details.getByTestId("audit-diff").getByText(title, { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  // delete it, confirming first; it leaves the public feed
  await page.goto("/admin/notices");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this notice?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Notice deleted")).toBeVisible();
  await expect(page.getByRole("button", { name: `Open ${title}` })).toHaveCount(0);
  const { data } = (await (await page.request.get("/api/notices")).json()) as { data: { title: string }[] };
  expect(data.some((n) => n.title === title)).toBe(false);
});

test("Outbox: an order's confirmation e-mail shows with its state, and opens to its text", async ({ baseURL }) => {
  const email = `outbox.${tag}@example.co.za`;
  const order = await page.request.post("/api/orders", {
    headers: { origin: baseURL ?? "" },
    data: {
      name: `Lindiwe Outbox ${tag}`,
      email,
      whatsapp: `083 ${String(Date.now()).slice(-7)}`,
      package: "Month to Month",
      duration: "1 Month",
      device: "android",
      internetPlatform: "fibre",
      internetSpeed: "20 Mbps",
      communicationMethod: "email",
    },
  });
  expect(order.ok()).toBe(true);

  await page.goto(`/admin/outbox?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  const open = page.getByRole("button", { name: new RegExp(`^Open message to ${email.replace(/\./g, "\\.")}`) }).first();
  await expect(open).toBeVisible();
  await open.click();
  const sheet = page.getByRole("dialog");
  await expect(sheet.getByText(email).first()).toBeVisible();
  await expect(sheet.getByRole("heading", { name: "Message" })).toBeVisible();
  await expect(sheet.getByText(/Lindiwe/).first()).toBeVisible();
  await page.keyboard.press("Escape");
});

test("Admins: add an admin (password shown once), then remove them after confirming", async () => {
  const name = `Sipho Admin ${tag}`;
  const email = `sipho.${tag}@example.co.za`;
  await page.goto("/admin/admins");
  await expect(page.getByRole("heading", { level: 1, name: "Admins" })).toBeVisible();
  await page.getByRole("button", { name: "Add admin" }).click();
  const dialog = page.getByRole("dialog", { name: "Add admin" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Generate" }).click();
  await expect(dialog.getByLabel("First password")).toHaveValue(/\S{16}/);
  await dialog.getByRole("button", { name: "Add admin" }).click();

  const done = page.getByRole("dialog", { name: `${name} is an admin` });
  await expect(done.getByTestId("one-time-password")).toHaveText(/\S{16}/);
  await done.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText(email)).toBeVisible();

  await page.getByRole("button", { name: `Remove ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${name}?` });
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Admin removed")).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
});

test("no page errors along the way", async () => {
  expect(errors).toEqual([]);
});
