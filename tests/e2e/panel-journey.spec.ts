// Paid means provisioned: a visitor pays for a package through the review step and the sandbox
// checkout, the sandbox panel makes their line within moments (the worker is nudged by the
// payment), and the new client's portal shows the M3U link, its QR code and the TEST LINE notice.
// The admin's panel page lists the create_line job as done.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin } from "./e2e-env";

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test.beforeEach(async ({ context }) => {
  // No first-run notification prompt or special popup over the journey.
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

interface ClientRow {
  id: string;
  username: string;
  full_name: string;
  whatsapp: string;
  line_username: string;
  line_is_test: boolean;
}

/** Serious or critical WCAG 2.1 AA violations inside `selector`. */
async function axe(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ rule: v.id, help: v.help }));
}

/** The client the payment made, found by name with an admin session (the browser context's, so the dashboard opens signed in). */
async function findClient(request: APIRequestContext, origin: string, name: string): Promise<ClientRow> {
  const login = await request.post("/api/admin/login", { data: e2eAdmin, headers: { origin } });
  expect(login.ok()).toBe(true);
  let found: ClientRow | undefined;
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/admin/clients?q=${encodeURIComponent(name)}`);
      found = ((await answer.json()) as { data: ClientRow[] }).data.find((c) => c.full_name === name);
      return found?.id ?? null;
    })
    .not.toBeNull();
  return found as ClientRow;
}

/** The storefront: Pay Now → review (a box and its MAC when given) → the sandbox checkout in a new tab → Pay. The client it made. */
async function payOnStorefront(
  page: Page,
  context: BrowserContext,
  origin: string,
  who: { name: string; whatsapp: string; box?: { label: string; mac: string } },
): Promise<ClientRow> {
  await page.goto("/");
  const card = page.locator('#pricing-packages article[data-plan="Month to Month"]');
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  await review.getByLabel("Full Name").fill(who.name);
  await review.getByLabel("WhatsApp Number").fill(who.whatsapp);
  if (who.box) {
    await review.getByRole("radio", { name: who.box.label, exact: true }).check();
    await review.getByRole("textbox", { name: /MAC address/ }).fill(who.box.mac);
  }
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Continue to payment" }).click()]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible();
  await checkout.close();
  return findClient(page.request, origin, who.name);
}

/**
 * The new client chooses their portal password with the link in their welcome, as the owner
 * sends it on WhatsApp (the waiting message's chat link, the link filled in).
 */
async function choosePortalPassword(page: Page, baseURL: string, client: ClientRow): Promise<string> {
  const origin = { origin: baseURL };
  let welcomeId = "";
  await expect(async () => {
    const list = await page.request.get(`/api/admin/outbox?q=${encodeURIComponent(client.whatsapp)}`);
    const rows = ((await list.json()) as { data: { id: string; kind: string; channel: string }[] }).data;
    welcomeId = rows.find((m) => m.kind === "welcome" && m.channel === "whatsapp")?.id ?? "";
    expect(welcomeId).not.toBe("");
  }).toPass({ timeout: 10_000 });
  const chat = await page.request.post(`/api/admin/outbox/${welcomeId}/chat-link`, { headers: origin });
  const token = /client-password-reset\?token=([A-Za-z0-9_-]{43})/.exec(
    decodeURIComponent(((await chat.json()) as { url: string }).url),
  )?.[1];
  expect(token).toBeTruthy();
  const password = "Panel-journey-42-kite";
  const chosen = await page.request.post("/api/client/password-reset/confirm", { data: { token, password }, headers: origin });
  expect(chosen.ok(), await chosen.text()).toBe(true);
  return password;
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto("/client/login");
  await page.locator("#client-username").fill(username);
  await page.locator("#client-password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/client$/);
}

test("pay for a package → the sandbox panel makes the line → the portal shows the M3U link, its QR code and TEST LINE; the panel page lists the job", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  const phone = testInfo.project.name === "phone";
  // A person of their own per project: a new client, not a returning one.
  const name = `Lerato Panel ${phone ? "Phone" : "Desktop"}`;
  const whatsapp = phone ? "082 710 0002" : "082 710 0001";

  const client = await payOnStorefront(page, context, baseURL ?? "", { name, whatsapp });
  const password = await choosePortalPassword(page, baseURL ?? "", client);
  // The sandbox panel makes the line moments after the payment: no sleeping, just asking.
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/admin/clients/${client.id}`);
      const row = ((await answer.json()) as { data: ClientRow }).data;
      return row.line_username ? { test: row.line_is_test } : null;
    })
    .toEqual({ test: true });

  // The portal: the login, the M3U link, its QR code and the TEST LINE notice.
  await signIn(page, client.username, password);
  const line = page.getByTestId("line-details");
  await expect(line).toBeVisible();
  await expect(line.getByText(/\/get\.php\?username=[^&]+&password=•+&type=m3u_plus&output=ts$/)).toBeVisible();
  await expect(line.getByRole("button", { name: "Copy m3u link" })).toBeVisible();
  await expect(line.getByRole("button", { name: "Copy epg link" })).toBeVisible();
  const qr = line.getByRole("img", { name: "QR code of your M3U playlist link" });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(line.getByTestId("test-line-notice")).toContainText("TEST LINE.");
  expect(await axe(page, "[data-testid=line-details]")).toEqual([]);

  // The dashboard's panel page: the create_line job, done, for this client.
  await page.goto("/admin/panel");
  await expect(page.getByRole("heading", { level: 1, name: "IPTV panel" })).toBeVisible();
  await expect(page.getByTestId("panel-status")).toHaveAttribute("data-mode", "sandbox");
  const done = page.getByRole("region", { name: /Done recently/ });
  await expect(done.locator("li").filter({ hasText: name }).filter({ hasText: "Create line" })).toBeVisible();
  await expect(done.locator("li").filter({ hasText: name })).toContainText("done");
  expect(await axe(page, "main")).toEqual([]);
  expect(errors).toEqual([]);
});

test("a MAG box at 390 px: ordered with its MAC, paid → the portal shows the portal URL and the MAC, no M3U link; the customer changes the MAC", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "one size is enough: the phone's");
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  const name = "Mandla Box Phone";
  const client = await payOnStorefront(page, context, baseURL ?? "", {
    name,
    whatsapp: "082 710 0003",
    box: { label: "MAG box", mac: "00:1a:79:e2:e0:01" },
  });
  const password = await choosePortalPassword(page, baseURL ?? "", client);
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/admin/clients/${client.id}`);
      const row = ((await answer.json()) as { data: ClientRow & { line_type: string; line_mac: string; panel_line_id: string | null } })
        .data;
      return row.panel_line_id ? [row.line_type, row.line_mac] : null;
    })
    .toEqual(["mag", "00:1A:79:E2:E0:01"]);

  await signIn(page, client.username, password);
  const line = page.getByTestId("line-details");
  await expect(line.getByRole("heading", { name: "Your MAG box" })).toBeVisible();
  await expect(line.getByText(/^http:\/\/.+\/c\/$/)).toBeVisible();
  await expect(line.getByText("00:1A:79:E2:E0:01")).toBeVisible();
  await expect(line.getByText(/get\.php/)).toHaveCount(0);

  await line.getByRole("button", { name: "Change MAC" }).click();
  const dialog = page.getByRole("dialog", { name: "Change your box's MAC address" });
  await dialog.getByLabel("New MAC address").fill("00:1A:79:E2:E0:02");
  await dialog.getByRole("button", { name: "Change MAC address" }).click();
  await expect(dialog).toBeHidden();
  // asked for, then made on the sandbox panel: the card reads again until it is
  await expect(line.getByText("00:1A:79:E2:E0:02")).toBeVisible({ timeout: 15_000 });
  await expect(line.getByTestId("mac-change-pending")).toHaveCount(0, { timeout: 15_000 });
  await expect(line.getByText("00:1A:79:E2:E0:01")).toHaveCount(0);
  // no sideways scrolling at 390 px
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await axe(page, "[data-testid=line-details]")).toEqual([]);
  expect(errors).toEqual([]);
});
