// The business dashboard's journeys, on desktop and phone: sign in (wrong, then right), a new
// lead converted to a client (waiting for their first payment), an EFT confirmed from the
// payments page (which says which card mode is on) making them active, complimentary time granted
// with a reason and both changes in the client's history, the same person ordering again showing
// as a returning client whose conversion renews them, a price edited through the admin API
// reaching an open /pricing page without a reload, and logout.
//
// One signed-in page per project, its steps in order: sign-ins are rate limited per IP (5 a
// minute), and every browser test comes from 127.0.0.1, so each project signs in only once.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { codeMailedTo } from "./mailbox";

test.describe.configure({ mode: "serial" });

interface PackageRow {
  id: string;
  name: string;
  price: number;
}

let context: BrowserContext;
let page: Page;
const errors: string[] = [];

/** Unique per project and run, so both projects' leads, clients and trials never collide. */
let tag = "";
let leadName = "";
let clientEmail = "";
let clientWhatsApp = "";
let clientUsername = "";

async function packageNamed(request: APIRequestContext, name: string): Promise<PackageRow> {
  const response = await request.get("/api/packages");
  const { data } = (await response.json()) as { data: PackageRow[] };
  const found = data.find((p) => p.name === name);
  if (!found) throw new Error(`No package called ${name}`);
  return found;
}

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  tag = `${testInfo.project.name}${Date.now().toString(36)}`;
  leadName = `Ayanda Journey ${tag}`;
  clientEmail = `ayanda.${tag}@example.co.za`;
  // a number of its own per project and run: the last digits from the time
  clientWhatsApp = `082 ${String(Date.now()).slice(-7)}`;
});

test.afterAll(async () => {
  await context?.close();
});

test("a signed-out visit goes to Admin Login; a wrong password is refused, the right one signs in", async () => {
  await page.goto("/admin/leads");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();

  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);

  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Welcome back to the admin dashboard")).toBeVisible();
  // back to the page that asked for the sign-in
  await expect(page).toHaveURL(/\/admin\/leads$/);
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
});

test("the overview shows the day's tiles and both charts", async () => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  for (const tile of ["Leads today", "Active clients", "EFT awaiting confirmation", "Revenue this month"]) {
    await expect(page.getByRole("link", { name: new RegExp(tile) })).toBeVisible();
  }
  await expect(page.getByRole("figure", { name: /Leads per day \(30 days\)/ })).toBeVisible();
  await expect(page.getByRole("figure", { name: /Revenue per day \(30 days\)/ })).toBeVisible();
});

test("a new order appears under Leads and is converted to a client, the password shown once", async () => {
  const order = await page.request.post("/api/orders", {
    headers: ownOrigin(),
    data: {
      name: leadName,
      email: clientEmail,
      whatsapp: clientWhatsApp,
      package: "3 Months",
      duration: "3 Months",
      device: "android",
      internetPlatform: "fibre",
      internetSpeed: "40 Mbps",
    },
  });
  expect(order.ok()).toBe(true);

  await page.goto("/admin/leads");
  await page.getByRole("searchbox", { name: "Search leads" }).fill(tag);
  const open = page.getByRole("button", { name: `Open ${leadName}'s lead` });
  await expect(open).toBeVisible();
  // one tap to WhatsApp, in a new tab
  const whatsapp = page.getByRole("link", { name: `WhatsApp ${leadName} (opens in a new tab)` });
  await expect(whatsapp).toHaveAttribute("href", /^https:\/\/wa\.me\/27/);
  await expect(whatsapp).toHaveAttribute("target", "_blank");

  await open.click();
  const drawer = page.getByRole("dialog", { name: leadName });
  await expect(drawer.getByText(clientEmail)).toBeVisible();
  await expect(drawer.getByText("40 Mbps")).toBeVisible();
  await drawer.getByRole("button", { name: "Convert to client" }).click();

  const convert = page.getByRole("dialog", { name: "Convert to client" });
  await expect(convert.getByLabel("Package", { exact: true })).toHaveValue(/.+/);
  // an order waits for its first payment; no dates, no 'active' to pick
  await expect(convert.getByRole("radio", { name: /Waiting for first payment/ })).toBeChecked();
  await expect(convert.getByRole("radio", { name: /Free trial now/ })).not.toBeChecked();
  await expect(convert.locator("input[type=date]")).toHaveCount(0);
  await convert.getByRole("button", { name: "Create client" }).click();
  const done = page.getByRole("dialog", { name: `${leadName} is now a client` });
  // no password to copy by hand: the welcome with a link to choose one was queued (masked address)
  await expect(done.getByTestId("queued-to")).toContainText(/A link to choose a password was queued to (WhatsApp ending \d{4}|e-mail )/);
  await expect(done.getByTestId("one-time-password")).toHaveCount(0);
  clientUsername = (await done.getByTestId("portal-username").textContent()) ?? "";
  expect(clientUsername).not.toBe("");
  await done.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("queued-to")).toHaveCount(0);

  // the lead now reads converted, and the client is on the clients list
  await page.keyboard.press("Escape");
  await page.goto(`/admin/clients?q=${encodeURIComponent(clientEmail)}`);
  const row = page.getByRole("button", { name: `Open ${leadName}` });
  await expect(row).toBeVisible();
  // a table row on a desktop, a card on a phone
  await expect(page.locator("tr, li[data-row-key]").filter({ has: row }).getByText("Pending payment", { exact: true })).toBeVisible();
});

test("an EFT for the client is confirmed from the payments page and reads paid", async () => {
  // EFT is offered only once the owner has replaced the seed's placeholder bank details.
  for (const [key, value] of Object.entries({
    eft_bank_name: "FNB",
    eft_account_name: "E2E Streams (Pty) Ltd",
    eft_account_number: "62000000002",
    eft_branch_code: "250655",
    eft_account_type: "Cheque",
  })) {
    const saved = await page.request.post("/api/admin/settings", { headers: ownOrigin(), data: { key, value } });
    expect(saved.ok()).toBe(true);
  }
  const monthly = await packageNamed(page.request, "Month to Month");
  // The client pays from the storefront: their number is an account's, so they prove it with the
  // code the shop sends to the account's contact they typed (here, with no Cloud API, its e-mail
  // address: a code never waits in the owner's queue), and only then is the EFT theirs (issue 24).
  const identify = await page.request.post("/api/payments/identify", {
    headers: ownOrigin(),
    data: { whatsapp: clientWhatsApp, email: clientEmail },
  });
  expect(identify.status()).toBe(200);
  const verificationCode = await codeMailedTo(clientEmail);
  const eft = await page.request.post("/api/payments/eft", {
    headers: ownOrigin(),
    data: {
      packageId: monthly.id,
      email: clientEmail,
      name: leadName,
      whatsapp: clientWhatsApp,
      immediateStartConsent: true,
      verificationCode,
    },
  });
  expect(eft.ok()).toBe(true);
  const { reference } = (await eft.json()) as { reference: string };

  await page.goto(`/admin/payments?q=${encodeURIComponent(reference)}`);
  // the test server has no iKhokha keys: its card payments are the sandbox's
  await expect(page.getByTestId("payment-mode")).toContainText("Card payments: TEST checkout (sandbox) — no real money is taken");
  await expect(page.getByText(reference)).toBeVisible();
  await page.getByRole("button", { name: "Confirm EFT received" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm EFT received?" });
  await expect(confirm.getByText(reference)).toBeVisible();
  await confirm.getByRole("button", { name: "Confirm received" }).click();
  await expect(page.getByText("Payment confirmed")).toBeVisible();
  await expect(page.getByText("paid", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm EFT received" })).toHaveCount(0);

  const status = await page.request.get(`/api/payments/${encodeURIComponent(reference)}`);
  expect(((await status.json()) as { data: { status: string } }).data.status).toBe("paid");
});

test("complimentary time is granted with a reason, and the client's history shows the payment and the grant", async () => {
  await page.goto(`/admin/clients?q=${encodeURIComponent(clientEmail)}`);
  await page.getByRole("button", { name: `Open ${leadName}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: leadName })).toBeVisible();
  // the EFT made them active
  await expect(page.locator("[data-status]").first()).toHaveText("Active");
  const history = page.getByRole("region", { name: `${leadName}'s status and term history` });
  await expect(history.getByText("Payment captured").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Extend" })).toHaveCount(0);

  await page.getByRole("button", { name: "Grant complimentary time" }).click();
  const grant = page.getByRole("dialog", { name: "Grant complimentary time" });
  // a reason is required
  await grant.getByLabel("Days").fill("3");
  await grant.getByRole("button", { name: "Grant time" }).click();
  await expect(grant.getByText("Please give the reason for the complimentary time")).toBeVisible();
  await grant.getByLabel("Reason").fill(`Sorry for the outage (${tag})`);
  await expect(grant.getByText(/Their term will run to \d+ \w+ \d{4}/)).toBeVisible();
  await grant.getByRole("button", { name: "Grant time" }).click();
  await expect(page.getByText("Complimentary time granted").first()).toBeVisible();
  await expect(grant).toHaveCount(0);
  await expect(history.getByText(`Sorry for the outage (${tag})`)).toBeVisible();
});

test("the same person ordering again shows as a returning client, and converting renews them without a second account", async () => {
  const order = await page.request.post("/api/orders", {
    headers: ownOrigin(),
    data: {
      name: leadName,
      email: clientEmail,
      whatsapp: clientWhatsApp,
      package: "6 Months",
      duration: "6 Months",
      device: "android",
      internetPlatform: "fibre",
      internetSpeed: "40 Mbps",
    },
  });
  expect(order.ok()).toBe(true);

  await page.goto(`/admin/leads?status=new&q=${encodeURIComponent(tag)}`);
  // (the EFT request above left a lead of its own: this is the one for 6 Months)
  const row = page.locator("tr, li[data-row-key]").filter({ hasText: "6 Months" });
  const open = row.getByRole("button", { name: `Open ${leadName}'s lead (a returning client)` });
  await expect(open).toHaveCount(1);
  await expect(open.getByText(`Returning client: ${leadName} (${clientUsername})`)).toBeVisible();
  await open.click();
  const drawer = page.getByRole("dialog", { name: leadName });
  await expect(drawer.getByRole("link", { name: `${leadName} (${clientUsername})` })).toHaveAttribute("href", /\/admin\/client\//);
  await drawer.getByRole("button", { name: "Renew client" }).click();

  const renew = page.getByRole("dialog", { name: "Renew returning client" });
  await expect(
    renew.getByText("This person is already a client: converting renews their account (no second account) and queues them a renewal link"),
  ).toBeVisible();
  await expect(renew.getByLabel("Portal username")).toHaveCount(0);
  await renew.getByRole("button", { name: "Renew client" }).click();
  const done = page.getByRole("dialog", { name: `${leadName} was renewed` });
  await expect(done.getByText(clientUsername)).toBeVisible();
  await expect(done.getByTestId("one-time-password")).toHaveCount(0);
  await expect(done.getByTestId("queued-to")).toContainText("A renewal link was queued to");
  await done.getByRole("button", { name: "Done" }).click();
  await page.keyboard.press("Escape");

  // still one client with that e-mail address
  await page.goto(`/admin/clients?q=${encodeURIComponent(clientEmail)}`);
  await expect(page.getByRole("button", { name: `Open ${leadName}` })).toHaveCount(1);
});

test("a price edited through the admin API shows on an open /pricing page without a reload", async () => {
  // Each project edits its own package (no special on either), so the two never race.
  const name = test.info().project.name === "phone" ? "24 Months" : "12 Months";
  const pkg = await packageNamed(page.request, name);
  const newPrice = pkg.price + 11;
  const shown = `R${newPrice.toLocaleString("en-US")}`;

  const pricing = await context.newPage();
  // The specials popup (once per browser session) would cover the cards: count it as seen.
  await pricing.addInitScript(() => window.sessionStorage.setItem("popupShownThisSession", "true"));
  await pricing.goto("/pricing");
  const price = pricing.locator(`#pricing-packages article[data-plan="${name}"]`).getByTestId("plan-price");
  await price.scrollIntoViewIfNeeded();
  await expect(price).toHaveText(`R${pkg.price.toLocaleString("en-US")}`);
  await pricing.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });

  try {
    const edit = await page.request.patch(`/api/admin/packages/${pkg.id}`, { headers: ownOrigin(), data: { price: newPrice } });
    expect(edit.status()).toBe(200);
    await expect(price).toHaveText(shown, { timeout: 15_000 });
    expect(await pricing.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await page.request.patch(`/api/admin/packages/${pkg.id}`, { headers: ownOrigin(), data: { price: pkg.price } });
    await pricing.close();
  }
});

test("Logout signs out and the dashboard asks for a sign-in again", async () => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByText("You have been logged out successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  const session = await page.request.get("/api/admin/session");
  expect(session.status()).toBe(401);
  await page.goto("/admin/payments");
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(errors).toEqual([]);
});
