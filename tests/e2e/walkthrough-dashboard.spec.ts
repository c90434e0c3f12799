// Issue 16, "Dashboard and portal": what an owner and a subscriber walking through at 1280 and
// 390 px found, each checked in the browser against the real server: the launch checklist,
// one toast for a failed refresh, a tab title per section, the audit log in names and SAST,
// the sign-in toast clear of Logout, the reminder link opening on the Renew panel, and the lead
// drawer in words. Screenshots go to $SHOTS_DIR (default /tmp/shots-dashboard) for a look by eye.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { animationsDone, liveChangesHandled } from "./a11y-helpers";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { choosePassword, uniqueWhatsApp } from "./owner-queue";

const SHOTS_DIR = process.env.SHOTS_DIR || "/tmp/shots-dashboard";
mkdirSync(SHOTS_DIR, { recursive: true });

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const errors: string[] = [];
let tag = "";

const shot = (name: string, project: string) => page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${project}.png`) });

/** Whether two elements' boxes overlap on screen. */
/** A toast at rest: mounted (its slide-in started) and every finite animation of the page finished. */
async function toastAtRest(page: Page, toast: Locator): Promise<void> {
  await expect(toast).toHaveAttribute("data-mounted", "true");
  await animationsDone(page);
}

async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  await context.addInitScript(() => window.localStorage.setItem("initialized", "true"));
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  tag = `${testInfo.project.name}${Date.now().toString(36)}`;
});

test.afterAll(async () => {
  await context?.close();
});

test("17. the sign-in toast sits clear of Logout and of the page's heading", async () => {
  const testInfo = test.info();
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Login Successful" });
  await expect(toast).toBeVisible();
  const logout = page.getByRole("button", { name: "Logout" });
  await expect(logout).toBeVisible();
  // wait for the toast to finish sliding in before measuring
  await toastAtRest(page, toast);
  expect(await overlap(toast, logout)).toBe(false);
  // nor over the page's heading (on a phone toasts rise from the bottom)
  const heading = page.getByRole("heading", { level: 1 }).first();
  await expect(heading).toBeVisible();
  expect(await overlap(toast, heading)).toBe(false);
  await shot("17-login-toast", testInfo.project.name);
});

test("11. the overview shows the launch checklist, each item linking to where it is set", async () => {
  const testInfo = test.info();
  await page.goto("/admin");
  const checklist = page.getByTestId("launch-checklist");
  await expect(checklist.getByRole("heading", { name: "Before you take real customers" })).toBeVisible();
  // the e2e server runs the sandbox panel, never done here; its card checkout is the TEST one, but
  // PayFast, Ozow and Yoco are on (at our fakes), which count as real online payments
  await expect(checklist.locator('[data-item="card"]')).toHaveAttribute("data-done", "true");
  await expect(checklist.locator('[data-item="card"]')).toContainText("PayFast, Ozow, Yoco are connected");
  await expect(checklist.locator('[data-item="panel"]')).toHaveAttribute("data-done", "false");
  for (const label of ["Bank details for EFT", "Legal facts on the public pages", "Your WhatsApp number", "Demo content replaced"]) {
    await expect(checklist.getByRole("link", { name: new RegExp(label) })).toBeVisible();
  }
  await shot("11-launch-checklist", testInfo.project.name);
  await checklist.getByRole("link", { name: /IPTV panel connection/ }).click();
  await expect(page).toHaveURL(/\/admin\/panel$/);
});

test("13. each dashboard section names its own tab", async () => {
  const company = ((await (await page.request.get("/api/branding")).json()) as { data: Record<string, string> }).data.company_name;
  await page.goto("/admin");
  await expect(page).toHaveTitle(`Overview · Business Dashboard · ${company}`);
  await page.goto("/admin/leads");
  await expect(page).toHaveTitle(`Leads · Business Dashboard · ${company}`);
  await page.goto("/admin/audit");
  await expect(page).toHaveTitle(`Audit log · Business Dashboard · ${company}`);
});

test("12. a refresh that fails shows 'Sync Error' only, not 'Data Updated' beside it", async () => {
  // The dashboard's change stream (the one that watches leads; the site-wide stream opens first
  // and does not) opens once the dashboard's code is in: wait for it, or the change below goes unheard.
  const stream = page.waitForResponse(
    (response) => {
      const url = new URL(response.url());
      return url.pathname === "/api/events" && (url.searchParams.get("tables") ?? "").split(",").includes("leads");
    },
    { timeout: 15_000 },
  );
  await page.goto("/admin/leads");
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
  await stream;
  // past the streams' first moments, when every change is quiet anyway: else this proves nothing
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
  const handledBefore = await liveChangesHandled(page);
  // The dashboard's reads now fail; the change stream stays up.
  await page.route(/\/api\/admin\/(leads|stats|clients)/, (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"error":{"code":"unavailable","message":"Down"}}' }),
  );
  const order = await page.request.post("/api/interest", {
    headers: ownOrigin(),
    data: { firstName: "Sync", lastName: tag, email: `sync.${tag}@example.co.za`, whatsapp: `083 ${String(Date.now()).slice(-7)}` },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Sync Error" })).toBeVisible();
  // once the page has handled the change (its refetch failed, the toast decided), no 'Data Updated'
  await expect.poll(() => liveChangesHandled(page), { timeout: 10_000 }).toBeGreaterThan(handledBefore);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Data Updated" })).toHaveCount(0);
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("14 and 18. the lead drawer reads in words with one price; the audit log names the client in SAST", async () => {
  const testInfo = test.info();
  const packages = ((await (await page.request.get("/api/packages")).json()) as { data: { id: string; name: string; price: number }[] })
    .data;
  const monthly = packages.find((p) => p.name === "Month to Month");
  if (!monthly) throw new Error("no Month to Month package");
  const name = `Drawer ${tag}`;
  const ordered = await page.request.post("/api/orders", {
    headers: ownOrigin(),
    data: {
      name,
      email: `drawer.${tag}@example.co.za`,
      whatsapp: `084 ${String(Date.now()).slice(-7)}`,
      package: monthly.id,
      duration: "1 Month",
      device: "android",
      internetPlatform: "fibre",
      otherPlatform: "",
      internetSpeed: "",
      formType: "order",
      marketingOptIn: false,
      immediateStartConsent: true,
      shownPrice: "R650",
    },
  });
  expect(ordered.status(), await ordered.text()).toBeLessThan(300);

  await page.goto(`/admin/leads?q=${encodeURIComponent(name)}`);
  await page.getByRole("button", { name: `Open ${name}` }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByText("Price", { exact: true })).toBeVisible();
  await expect(drawer).not.toContainText("Immediate Start Consent");
  await expect(drawer).not.toContainText("Shown Price");
  await expect(drawer).toContainText("At once (waived the 7-day cooling-off)");
  await shot("18-lead-drawer", testInfo.project.name);
  await page.keyboard.press("Escape");

  // A client made and given time: the audit log names them, in South African time.
  const created = await page.request.post("/api/admin/clients", {
    headers: ownOrigin(),
    data: {
      username: `audit-${tag}`.toLowerCase(),
      full_name: `Audit ${tag}`,
      email: `audit.${tag}@example.co.za`,
      communication_method: "email",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { client } = (await created.json()) as { client: { id: string } };
  const granted = await page.request.post(`/api/admin/clients/${client.id}/grant`, {
    headers: { ...ownOrigin(), "idempotency-key": `audit-${tag}` },
    data: { days: 2, reason: "Walk-through goodwill" },
  });
  expect(granted.ok(), await granted.text()).toBe(true);
  await page.goto("/admin/audit?resource=clients");
  const entry = page.getByRole("button", { name: new RegExp(`Audit ${tag}`) }).first();
  await expect(entry).toBeVisible();
  await expect(page.getByText(/SAST$/).first()).toBeVisible();
  await expect(page.getByText(new RegExp(`#${client.id.slice(0, 8)}`))).toHaveCount(0);
  await shot("14-audit-log", testInfo.project.name);
});

test("17. the reminder link /client?renew=1 opens with the Renew panel in view", async ({ browser }, testInfo) => {
  const renewNumber = uniqueWhatsApp();
  const created = await page.request.post("/api/admin/clients", {
    headers: ownOrigin(),
    data: {
      username: `renew-${tag}`.toLowerCase(),
      full_name: `Renew ${tag}`,
      email: `renew.${tag}@example.co.za`,
      whatsapp: renewNumber,
      communication_method: "whatsapp",
    },
  });
  expect(created.status()).toBe(201);
  const password = await choosePassword(page.request, renewNumber);
  const portalContext = await browser.newContext(testInfo.project.use);
  await portalContext.addInitScript(() => window.localStorage.setItem("initialized", "true"));
  const portal = await portalContext.newPage();
  try {
    await portal.goto("/client/login");
    await portal.locator("#client-username").fill(`renew-${tag}`.toLowerCase());
    await portal.locator("#client-password").fill(password);
    await portal.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(portal).toHaveURL(/\/client$/);
    await expect(portal.getByRole("button", { name: "Sign out" })).toBeVisible();
    const toast = portal.locator("[data-sonner-toast]").filter({ hasText: "Login Successful" });
    await expect(toast).toBeVisible();
    await toastAtRest(portal, toast);
    expect(await overlap(toast, portal.getByRole("button", { name: "Sign out" }))).toBe(false);

    await portal.goto("/client?renew=1");
    const renew = portal.locator("#renew");
    await expect(renew).toBeVisible();
    // let the sections load around it, then check it is still what the screen shows
    await portal.waitForLoadState("networkidle");
    await expect(portal.locator('[aria-busy="true"], [data-skeleton]')).toHaveCount(0);
    await animationsDone(portal);
    await expect(renew).toBeInViewport();
    await portal.screenshot({ path: path.join(SHOTS_DIR, `17-renew-link-${testInfo.project.name}.png`) });
  } finally {
    await portalContext.close();
  }
  expect(errors).toEqual([]);
});
