// A partner buys credits from the shop and sells a line (issue 45 items 3 and 4), on a desktop and
// at 390 px: the owner sets a price per credit and adds the partner (through the API, as the
// dashboard does), the partner chooses a password from the link mailed to them, signs in on
// /partner, sees the price at the tier as they type, pays with the sandbox card, comes back to
// the new balance (moved once on the sandbox panel), and makes a line for a customer from it.
import { expect, type Page, test } from "@playwright/test";
import { e2eAdmin } from "./e2e-env";
import { mailTo } from "./mailbox";

const PASSWORD = "Partner-e2e-pass-42";

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("a partner signs in, buys credits with the sandbox card, sees the new balance and makes a line", async ({
  page,
  playwright,
  baseURL,
}, testInfo) => {
  const errors = collectPageErrors(page);
  const origin = baseURL as string;
  const suffix = `${testInfo.project.name}${Date.now().toString(36)}`;
  const email = `partner-${suffix}@example.co.za`;

  // The owner: a price per credit with a tier, and the partner added (their set-password link mailed).
  const owner = await playwright.request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  expect((await owner.post("/api/admin/login", { data: e2eAdmin })).ok()).toBe(true);
  const priced = await owner.put("/api/admin/resellers/pricing", {
    data: { price_per_credit: 30, tiers: [{ min_credits: 50, price_per_credit: 25 }] },
  });
  expect(priced.ok(), await priced.text()).toBe(true);
  const added = await owner.post("/api/admin/resellers", {
    data: { name: `Zanele ${suffix}`, email },
    headers: { "idempotency-key": `e2e-${suffix}` },
  });
  expect(added.status(), await added.text()).toBe(201);
  const { username } = (await added.json()) as { username: string };
  const invite = await mailTo(email, (m) => m.text.includes("/partner/set-password?token="));
  const link = new URL(/(https?:\/\/\S+\/partner\/set-password\?token=[\w-]+)/.exec(invite.text)?.[1] as string);

  // The partner chooses a password and signs in.
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("The same password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Save my password" }).click();
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("partner-credits")).toHaveText("0");

  // Buys 4 credits: the price shows as they type, then the sandbox card checkout.
  const buy = page.getByRole("region", { name: "Buy credits" });
  await expect(buy.getByTestId("credit-prices")).toContainText("from 50 credits R25 each");
  await buy.getByLabel("How many credits").fill("4");
  await expect(buy.getByTestId("credit-quote")).toHaveText("4 credits × R30 = R120");
  await buy.getByLabel("Pay by").selectOption("card");
  await buy.getByRole("button", { name: "Buy credits" }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/payment\/success\?ref=/);
  // The result page speaks of credits and leads back to the portal: no account, term or package promised.
  await expect(page.getByText(/Payment received\. 4 credits are (on your balance|on their way)/)).toBeVisible();
  await expect(page.getByText("set up your account")).toHaveCount(0);
  await page.getByRole("link", { name: "Go to your partner portal" }).first().click();
  await page.waitForURL(/\/partner$/);

  // Back on the portal: the credits arrived, once.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("partner-credits")).toHaveText("4", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("list", { name: "Your credit orders" })).toContainText("Credits added");
  await expect(page.getByRole("region", { name: "Your credit ledger" })).toContainText("Bought from the shop");

  // A line for a customer from those credits: a 1-month package costs 1 on the sandbox panel.
  const sell = page.getByRole("region", { name: "Sell a line" });
  await sell.getByLabel("Customer's name").fill("Lerato Mokoena");
  const option = sell.locator("#line-package option", { hasText: "— 1 credit" }).first();
  await sell.getByLabel("Package").selectOption({ label: (await option.textContent()) ?? "" });
  await sell.getByRole("button", { name: "Make the line" }).click();
  await expect(sell.getByRole("status")).toContainText("Line made for Lerato Mokoena");
  await expect(page.getByTestId("partner-credits")).toHaveText("3");
  await expect(page.getByRole("region", { name: "Your lines" })).toContainText("Lerato Mokoena");

  // The owner's network view counts the sale and the line.
  const network = await owner.get("/api/admin/resellers/network?months=1");
  const view = (await network.json()) as { months: { partners: { name: string; sold: number; spent: number; lines: number }[] }[] };
  expect(view.months[0].partners.find((p) => p.name === `Zanele ${suffix}`)).toMatchObject({ sold: 4, spent: 1, lines: 1 });
  await owner.dispose();
  expect(errors).toEqual([]);
});
