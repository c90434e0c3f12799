// Issue 48, "A reseller's first week", in the browser at 1280 and 390 px against the real built
// server (the sandbox panel, the SMTP sink, PayFast, Ozow and Yoco at their fakes):
// 1. where the owner's alerts go: the checklist says so, and an address set under Settings is
//    shown back (after a reload) and named on the checklist;
// 2. a package the sandbox panel has no package for (no mapping, a length it does not sell) shows
//    as not available on the storefront, a pay link for it answers the customer's words with no
//    payment made, and the owner's alert goes to the alerts e-mail;
// 3. the trial reminder, as the owner previews it: sent a few hours before the end, worded for a
//    trial, naming every way to pay that is on;
// 4. the Free trials card: mode, per-network limit, daily cap and throwaway e-mail blocking, each
//    explained; a change read back after a reload;
// 6. sentences true in their place: the VAT setting's own options, job names in words.
//
// Alerts e-mail and trial limits are the whole shop's: the tests that change or depend on them
// hold a lock (a directory, made atomically) shared by the desktop and phone runs, and put the
// setting back before letting go, so the two sizes never read each other's values.
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { mailTo } from "./mailbox";

test.describe.configure({ mode: "serial" });

const UNAVAILABLE = "This package is not available yet — please choose another or contact us.";
const LOCK = path.join(tmpdir(), `streamdesk-e2e-shop-settings-${process.env.E2E_PORT}`);

let context: BrowserContext;
let page: Page;
let tag = "";
let project = "";
const errors: string[] = [];

/** Runs `work` while no other run of this spec changes the shop's settings. */
async function withShopSettings<T>(work: () => Promise<T>): Promise<T> {
  const take = () => {
    try {
      mkdirSync(LOCK);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(take, { timeout: 60_000, intervals: [100, 250, 500] }).toBe(true);
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function saveSetting(key: string, value: string) {
  const saved = await page.request.post("/api/admin/settings", { headers: ownOrigin(), data: { key, value } });
  expect(saved.ok(), await saved.text()).toBe(true);
}

/** The setting as the shop had it before: not stored (an empty daily cap is refused, so the row goes). */
async function unsetSetting(key: string) {
  const list = await page.request.get("/api/admin/settings");
  expect(list.ok()).toBe(true);
  const row = ((await list.json()) as { data: { id: string; key: string }[] }).data.find((s) => s.key === key);
  if (!row) return;
  const removed = await page.request.delete(`/api/admin/settings/${row.id}`, { headers: ownOrigin() });
  expect(removed.ok(), await removed.text()).toBe(true);
}

async function packageNamed(name: string): Promise<{ id: string; name: string }> {
  const answer = await page.request.get("/api/packages");
  const found = ((await answer.json()) as { data: { id: string; name: string }[] }).data.find((p) => p.name === name);
  expect(found, name).toBeTruthy();
  return found as { id: string; name: string };
}

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  // no specials popup or first-run prompt over the pages
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  project = testInfo.project.name;
  tag = `${project}-${Date.now().toString(36)}`;

  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(e2eAdmin.email);
  await page.getByLabel("Password").fill(e2eAdmin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Welcome back to the admin dashboard")).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  expect(errors).toEqual([]);
});

test("1. the checklist says where alerts go; an alerts e-mail set in Settings is shown back and named there", async () => {
  const mine = `owner-${project}@first-week.test`;
  await withShopSettings(async () => {
    try {
      // Nothing set: the first admin's own address, never the support e-mail.
      await saveSetting("secret_owner_alert_email", "");
      await page.goto("/admin");
      const item = page.getByTestId("launch-checklist").locator('[data-item="alerts_email"]');
      await expect(item).toContainText("Where your alerts go");
      await expect(item).toContainText(`go to ${e2eAdmin.email} (the first admin's address: set another under Your alerts)`);
      await expect(item).toContainText("never to the support e-mail");

      await page.goto("/admin/settings");
      const alerts = page.getByRole("form", { name: "Your alerts" });
      const field = alerts.getByLabel("Alerts e-mail");
      await expect(field).toHaveAttribute("placeholder", `Not set: ${e2eAdmin.email}, the first admin's address`);
      // not an address: said beside the field, nothing saved
      await field.fill("not-an-address");
      await alerts.getByRole("button", { name: "Save" }).click();
      await expect(alerts.getByText("Enter the e-mail address alerts go to, e.g. owner@example.co.za (or leave it empty)")).toBeVisible();
      await field.fill(mine);
      await alerts.getByRole("button", { name: "Save" }).click();
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Your alerts saved" })).toBeVisible();

      await page.reload();
      await expect(page.getByRole("form", { name: "Your alerts" }).getByLabel("Alerts e-mail")).toHaveValue(mine);
      await page.goto("/admin");
      await expect(page.getByTestId("launch-checklist").locator('[data-item="alerts_email"]')).toContainText(
        `go to ${mine}, never to the support e-mail`,
      );
    } finally {
      await saveSetting("secret_owner_alert_email", "");
    }
  });
});

test("2. a package the panel cannot make shows as not available; its pay link answers the customer's words, makes no payment, and alerts the owner", async () => {
  // The sandbox panel sells 1, 3, 6, 12 and 24 months: a 9-month package with no mapping cannot be made.
  const name = `E2E Nine ${tag}`;
  const created = await page.request.post("/api/admin/packages", {
    headers: ownOrigin(),
    data: { name, price: 899, duration: "9 Months", duration_months: 9, features: ["E2E"], sort_order: 98 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const alertsTo = `alerts-${tag}@first-week.test`;
  try {
    await page.goto("/");
    const card = page.locator(`#pricing-packages article[data-plan="${name}"]`);
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByTestId("plan-unavailable")).toHaveText(UNAVAILABLE);
    await expect(card.getByRole("button", { name: "Not available yet" })).toBeDisabled();
    await expect(card.getByRole("button", { name: "Pay Now" })).toHaveCount(0);
    // a package the panel can make is on sale beside it
    const three = page.locator('#pricing-packages article[data-plan="3 Months"]');
    await expect(three.getByRole("button", { name: "Pay Now" })).toBeEnabled();

    await withShopSettings(async () => {
      try {
        await saveSetting("secret_owner_alert_email", alertsTo);
        const stamp = String(Date.now()).slice(-7);
        const paylink = await page.request.post("/api/payments/paylink", {
          headers: ownOrigin(),
          data: { packageId: id, name: `Unsold ${tag}`, whatsapp: `083${stamp}`, immediateStartConsent: true },
        });
        expect(paylink.status()).toBe(409);
        expect(((await paylink.json()) as { error: { message: string; fields: Record<string, string> } }).error).toMatchObject({
          code: "package_unavailable",
          message: UNAVAILABLE,
          fields: { packageId: UNAVAILABLE },
        });
        // the owner hears which package a customer could not buy, at the alerts e-mail
        const alert = await mailTo(alertsTo, (m) => m.subject === `A customer could not buy ${name}`);
        expect(alert.text).toContain("/admin/panel");
      } finally {
        await saveSetting("secret_owner_alert_email", "");
      }
    });
    // no payment row for it
    const payments = await page.request.get(`/api/admin/payments?q=${encodeURIComponent(name)}`);
    expect(((await payments.json()) as { data: unknown[] }).data).toEqual([]);
  } finally {
    await page.request.delete(`/api/admin/packages/${id}`, { headers: ownOrigin() });
  }
});

/** A client of this run: paid for 3 Months through a pay link and the sandbox checkout (the panel makes their line). */
async function paidClient(name: string): Promise<void> {
  const three = await packageNamed("3 Months");
  const stamp = String(Date.now()).slice(-7);
  const paylink = await page.request.post("/api/payments/paylink", {
    headers: ownOrigin(),
    data: { packageId: three.id, name, whatsapp: `082${stamp}`, immediateStartConsent: true },
  });
  expect(paylink.status(), await paylink.text()).toBe(201);
  const { externalTransactionID } = (await paylink.json()) as { externalTransactionID: string };
  const paid = await page.request.post(`/api/payments/sandbox/checkout/${encodeURIComponent(externalTransactionID)}/pay`, {
    headers: ownOrigin(),
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
}

test("3. the trial reminder is sent a few hours before the end, in a trial's words, naming every way to pay that is on", async () => {
  const client = `Trial Preview ${tag}`;
  await paidClient(client);
  await page.goto("/admin/message-templates");
  await expect(page.getByRole("heading", { level: 1, name: "Message templates" })).toBeVisible();
  await page.getByRole("navigation", { name: "Messages" }).getByRole("button", { name: "Trial ending" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Trial ending" })).toBeVisible();
  await expect(
    page.getByText("Sent once, a few hours before a free trial ends (a quarter of its length before, at most a day)."),
  ).toBeVisible();

  await page.getByLabel("Preview with a client").fill(client);
  await page
    .getByRole("list", { name: "Matching clients" })
    .getByRole("button", { name: new RegExp(client) })
    .click();
  const preview = page.getByTestId("template-preview");
  await expect(preview).toContainText(`As ${client} would get it.`);
  await expect(preview).toContainText(/Subject: .+: your free trial ends /);
  const body = (await preview.locator("pre").textContent()) ?? "";
  expect(body).toContain("Your free trial with");
  expect(body).toContain("To keep watching,");
  // every way to pay that is on: the card checkout and the three providers (and EFT, once another
  // spec of the suite has filled in the bank details)
  expect(body).toMatch(/You can pay by card, PayFast, Ozow(,| or) Yoco( or EFT)?, and your login details stay the same\./);
  expect(body).not.toContain("subscription");
});

test("4. the Free trials card explains mode, per-network limit, daily cap and throwaway e-mails; a change is read back after a reload", async () => {
  const cap = project === "phone" ? "390" : "1280";
  await withShopSettings(async () => {
    try {
      await page.goto("/admin/settings");
      const card = page.getByRole("form", { name: "Free trials" });
      await expect(card).toBeVisible();
      const mode = card.getByLabel("How a trial starts");
      await expect(mode.locator("option")).toHaveText([
        "Automatic (the default): instant once the panel has a trial package, else you approve",
        "Instant, with a one-time code",
        "You approve each request",
      ]);
      await expect(card.getByText(/^Instant: the customer enters the code we send them/)).toBeVisible();
      await expect(card.getByLabel("Trials a day from one internet connection")).toBeVisible();
      await expect(card.getByText(/the trials asked for from one home or mobile network/)).toBeVisible();
      await expect(card.getByLabel("Trials a day for the whole shop")).toBeVisible();
      await expect(card.getByText(/once this many trials have started today, the rest are asked to come back tomorrow/)).toBeVisible();
      await expect(card.getByLabel("Throwaway e-mail addresses").locator("option")).toHaveText([
        "Refuse them (the default)",
        "Let them through",
      ]);
      await expect(card.getByText(/keeps one person from taking trial after trial/)).toBeVisible();
      // none of them is a raw key under "Other settings"
      const others = page.getByRole("region", { name: "Other settings" });
      for (const key of ["trial_mode", "trial_network_daily_limit", "trial_daily_cap", "trial_block_disposable_email"]) {
        await expect(others.getByText(key, { exact: true })).toHaveCount(0);
      }

      await card.getByLabel("Trials a day for the whole shop").fill(cap);
      await card.getByRole("button", { name: "Save" }).click();
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Free trials saved" })).toBeVisible();
      await page.reload();
      await expect(page.getByRole("form", { name: "Free trials" }).getByLabel("Trials a day for the whole shop")).toHaveValue(cap);
    } finally {
      await unsetSetting("trial_daily_cap");
    }
  });
});

test("6. the VAT setting offers its own options and words; the panel page names jobs in words", async () => {
  await page.goto("/admin/settings");
  const vat = page.getByRole("form", { name: "Prices, VAT and invoices" });
  await expect(vat.getByLabel("Do the prices shown include VAT?").locator("option")).toHaveText([
    "Not said",
    "Yes: the prices include VAT",
    "No: not registered for VAT, or VAT is added",
  ]);
  await expect(vat.getByText("Keep the VAT note below saying the same.")).toBeVisible();
  await expect(vat).not.toContainText("'true'");
  await expect(vat).not.toContainText("vat_note");

  // a client's line made on the sandbox panel: its job, in words
  const client = `Job Words ${tag}`;
  await paidClient(client);
  await expect(async () => {
    await page.goto("/admin/panel");
    await expect(page.getByRole("heading", { level: 1, name: "IPTV panel" })).toBeVisible();
    const done = page.getByRole("region", { name: /Done recently/ });
    await expect(done.locator("li").filter({ hasText: client }).filter({ hasText: "Create line" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator("main")).not.toContainText(/\b(create_line|extend_line|enable_line|disable_line|change_mac|isp_clear)\b/);
});
