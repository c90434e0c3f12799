// Keyboard-only daily jobs, no mouse: the owner converts a lead, records (confirms) an EFT
// payment, edits a package and publishes a notice; a subscriber signs in, renews and changes
// their password. Every Tab stop shows its focus; each dialog takes focus when it opens, Escape
// closes it, and focus goes back to the button that opened it (or, when the job replaced that
// button, to the drawer or page it was on), never to the top of the page.
//
// On the desktop layout only: the keyboard of a laptop (the phone layout is covered by the axe
// suite, a11y.spec.ts). Sign-ins and test data go through the API; everything the person does is
// keyboard.press and keyboard.type.
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { createClient, expectFocusVisible, packageNamed, quietFirstVisit, settle, signInAdmin, tabTo } from "./a11y-helpers";
import { ownOrigin } from "./e2e-env";

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const tag = `kb${Date.now().toString(36)}`;

test.skip(({ isMobile }) => isMobile, "keyboard journeys run on the desktop layout");

test.beforeAll(async ({ browser }, testInfo) => {
  if (testInfo.project.use.isMobile) return;
  context = await browser.newContext(testInfo.project.use);
  await context.addInitScript(quietFirstVisit);
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
});

test.afterAll(async () => {
  await context?.close();
  expect(errors).toEqual([]);
});

const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
const focusInside = (locator: Locator) => locator.evaluate((el) => el.contains(document.activeElement));

/** Opens a page and takes the skip link to its main content, as a keyboard user starts. */
async function openAndSkip(url: string) {
  await page.goto(url);
  await settle(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect.poll(() => focused(skip), { message: "the first Tab stop is the skip link" }).toBe(true);
  await expectFocusVisible(page, "skip link");
  await page.keyboard.press("Enter");
  await expect.poll(() => focusInside(page.locator("main")), { message: "the skip link takes focus to the page" }).toBe(true);
}

/** Enter on the focused trigger opens a dialog and focus moves into it. */
async function openDialog(trigger: Locator, name: string | RegExp): Promise<Locator> {
  await expect.poll(() => focused(trigger), { message: `focus is on the button that opens "${name}"` }).toBe(true);
  await expectFocusVisible(page, `the button that opens "${name}"`);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  await expect.poll(() => focusInside(dialog), { message: `focus moves into "${name}"` }).toBe(true);
  return dialog;
}

async function expectFocusBackOn(trigger: Locator, what: string) {
  await expect.poll(() => focused(trigger), { message: `focus returns to ${what}` }).toBe(true);
  await expectFocusVisible(page, what);
}

test("the owner converts a lead, from the list to the new client's password, by keyboard", async () => {
  await signInAdmin(context.request);
  const leadName = `Sipho Keys ${tag}`;
  const order = await context.request.post("/api/orders", {
    headers: ownOrigin(),
    data: {
      name: leadName,
      email: `sipho.${tag}@example.co.za`,
      whatsapp: `084 ${String(Date.now()).slice(-7)}`,
      package: "3 Months",
      duration: "3 Months",
      device: "android",
      internetPlatform: "fibre",
      internetSpeed: "20 Mbps",
    },
  });
  expect(order.ok(), await order.text()).toBe(true);

  await openAndSkip(`/admin/leads?q=${tag}`);
  const row = page.getByRole("button", { name: `Open ${leadName}'s lead` });
  await tabTo(page, row);
  const drawer = await openDialog(row, leadName);

  // Escape closes the drawer and focus is back on the row; Enter opens it again
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expectFocusBackOn(row, "the lead's row");
  await openDialog(row, leadName);

  const convertButton = drawer.getByRole("button", { name: "Convert to client" });
  await tabTo(page, convertButton);
  const convert = await openDialog(convertButton, "Convert to client");
  await expect(convert.getByRole("radio", { name: /Waiting for first payment/ })).toBeChecked();
  await tabTo(page, convert.getByRole("button", { name: "Create client" }));
  await page.keyboard.press("Enter");

  const done = page.getByRole("dialog", { name: `${leadName} is now a client` });
  await expect(done.getByTestId("queued-to")).toContainText("A link to choose a password was queued to");
  const doneButton = done.getByRole("button", { name: "Done" });
  await tabTo(page, doneButton);
  await page.keyboard.press("Enter");
  await expect(done).toBeHidden();
  // the Convert button is gone (the lead is converted): focus goes back to the drawer, not the page's top
  await expect.poll(() => focusInside(drawer), { message: "focus returns to the lead's drawer" }).toBe(true);
  await expect(drawer.getByRole("link", { name: "Open client" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expectFocusBackOn(row, "the lead's row");
});

test("the owner confirms an EFT payment by keyboard", async () => {
  for (const [key, value] of Object.entries({
    eft_bank_name: "FNB",
    eft_account_name: "E2E Streams (Pty) Ltd",
    eft_account_number: "62000000002",
    eft_branch_code: "250655",
    eft_account_type: "Cheque",
  })) {
    const saved = await context.request.post("/api/admin/settings", { headers: ownOrigin(), data: { key, value } });
    expect(saved.ok()).toBe(true);
  }
  const monthly = await packageNamed(context.request, "Month to Month");
  const eft = await context.request.post("/api/payments/eft", {
    headers: ownOrigin(),
    data: {
      packageId: monthly.id,
      email: `eft.${tag}@example.co.za`,
      name: `Zanele Keys ${tag}`,
      whatsapp: `072 ${String(Date.now()).slice(-7)}`,
      immediateStartConsent: true,
    },
  });
  expect(eft.ok(), await eft.text()).toBe(true);
  const { reference } = (await eft.json()) as { reference: string };

  await openAndSkip(`/admin/payments?q=${encodeURIComponent(reference)}`);
  const confirmButton = page.getByRole("button", { name: "Confirm EFT received" });
  await tabTo(page, confirmButton);
  const confirm = await openDialog(confirmButton, "Confirm EFT received?");
  await expect(confirm.getByText(reference)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expectFocusBackOn(confirmButton, "Confirm EFT received");

  await openDialog(confirmButton, "Confirm EFT received?");
  await tabTo(page, confirm.getByRole("button", { name: "Confirm received" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Payment confirmed").first()).toBeVisible();
  await expect(confirm).toBeHidden();
  // the button went with the pending state: focus is on the page's content, not lost at the top
  await expect.poll(() => focusInside(page.locator("main"))).toBe(true);
  const status = await context.request.get(`/api/payments/${encodeURIComponent(reference)}`);
  expect(((await status.json()) as { data: { status: string } }).data.status).toBe("paid");
});

test("the owner edits a package's price by keyboard", async () => {
  const name = `Keys Package ${tag}`;
  const created = await context.request.post("/api/admin/packages", {
    headers: ownOrigin(),
    // off the site: the public pages of the other specs keep their five packages
    data: { name, price: 555, duration: "1 Month", sort_order: 99, is_active: false },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  try {
    await openAndSkip("/admin/packages");
    const edit = page.getByRole("button", { name: `Edit ${name}` });
    await tabTo(page, edit, { max: 120 });
    let dialog = await openDialog(edit, /package/i);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expectFocusBackOn(edit, `Edit ${name}`);

    dialog = await openDialog(edit, /package/i);
    const price = dialog.getByLabel("Price (R)");
    await tabTo(page, price);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("575");
    await tabTo(page, dialog.getByRole("button", { name: "Save changes" }));
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expectFocusBackOn(edit, `Edit ${name}`);
    await expect
      .poll(async () => {
        const answer = await context.request.get("/api/admin/packages");
        const { data } = (await answer.json()) as { data: { id: string; price: number }[] };
        return data.find((p) => p.id === id)?.price;
      })
      .toBe(575);
  } finally {
    await context.request.delete(`/api/admin/packages/${id}`, { headers: ownOrigin() });
  }
});

test("the owner publishes a notice for clients by keyboard", async () => {
  const title = `Maintenance tonight ${tag}`;
  await openAndSkip("/admin/notices");
  const newNotice = page.getByRole("button", { name: "New notice" });
  await tabTo(page, newNotice);
  const dialog = await openDialog(newNotice, "New notice");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expectFocusBackOn(newNotice, "New notice");

  await openDialog(newNotice, "New notice");
  await tabTo(page, dialog.getByLabel("Title"));
  await page.keyboard.type(title);
  await tabTo(page, dialog.getByLabel("Message"));
  await page.keyboard.type("The service pauses from 01:00 to 02:00 for an upgrade.");
  await tabTo(page, dialog.getByLabel("Audience"));
  // type-ahead on the native select: "Clients only"
  await page.keyboard.type("Cl");
  await expect(dialog.getByLabel("Audience")).toHaveValue("clients");
  await tabTo(page, dialog.getByRole("button", { name: "Create" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expectFocusBackOn(newNotice, "New notice");
  await expect(page.getByRole("button", { name: `Open ${title}` })).toBeVisible();

  const answer = await context.request.get("/api/admin/notices");
  const { data } = (await answer.json()) as { data: { id: string; title: string; is_active: boolean }[] };
  const notice = data.find((n) => n.title === title);
  expect(notice?.is_active).toBe(true);
  if (notice) await context.request.delete(`/api/admin/notices/${notice.id}`, { headers: ownOrigin() });
});

test("a subscriber signs in, renews by card and changes their password by keyboard", async () => {
  test.setTimeout(60_000);
  await signInAdmin(context.request);
  const client = await createClient(context.request, { paid: true });
  await context.request.post("/api/admin/logout", { headers: ownOrigin() });

  // sign in: the fields, then Enter
  await page.goto("/client/login");
  await settle(page);
  await tabTo(page, page.locator("#client-username"));
  await page.keyboard.type(client.username);
  await tabTo(page, page.locator("#client-password"));
  await page.keyboard.type(client.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/client$/);
  await settle(page);

  // renew: the pay button of the renew panel, then the (sandbox) checkout's Pay
  const pay = page.locator("#renew").getByRole("button", { name: /^Pay R[\d,]+ by card$/ });
  await tabTo(page, pay, { max: 80 });
  await page.keyboard.press("Enter");
  const checkoutPay = page.getByRole("button", { name: "Pay", exact: true });
  await expect(checkoutPay).toBeVisible();
  await tabTo(page, checkoutPay);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/payment\/success\?ref=/);

  // a new password
  const newPassword = `Keys-${Date.now()}-pass`;
  await page.goto("/account-management");
  await settle(page);
  await tabTo(page, page.locator("#current-password"), { max: 80 });
  await page.keyboard.type(client.password);
  await tabTo(page, page.locator("#new-password"));
  await page.keyboard.type(newPassword);
  await tabTo(page, page.locator("#confirm-password"));
  await page.keyboard.type(newPassword);
  await tabTo(page, page.getByRole("button", { name: "Change password", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Password Changed")).toBeVisible();

  // and it works
  await context.request.post("/api/client/logout", { headers: ownOrigin() });
  const again = await context.request.post("/api/client/login", {
    headers: ownOrigin(),
    data: { username: client.username, password: newPassword },
  });
  expect(again.ok()).toBe(true);
});
