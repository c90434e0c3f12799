// The dashboard's catalogue against the real server, with the public /pricing page open in a
// second tab: a price edited in Packages shows there without a reload (the change feed), a
// special created in Specials puts 'SPECIAL' and 'Save R{n}' on the card, and a bad value is
// named beside its field. Each test works on a package of its own and deletes what it made,
// so the seeded prices other specs assert are never touched.
//
// One sign-in per project (sign-ins are rate limited per IP), then the steps in order.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";

test.describe.configure({ mode: "serial" });

interface Row {
  id: string;
}

let context: BrowserContext;
let page: Page;
let tag = "";
const errors: string[] = [];

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext(testInfo.project.use);
  // The specials popup (once per browser session) would cover the cards: count it as seen.
  await context.addInitScript(() => window.sessionStorage.setItem("popupShownThisSession", "true"));
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  tag = `${testInfo.project.name}-${Date.now().toString(36)}`;

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

async function createPackage(name: string, price: number): Promise<Row> {
  const response = await page.request.post("/api/admin/packages", {
    headers: ownOrigin(),
    data: { name, price, duration: "1 Month", features: ["E2E"], sort_order: 99 },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Row;
}

async function openPricing(name: string) {
  const pricing = await context.newPage();
  await pricing.goto("/pricing");
  const card = pricing.locator(`#pricing-packages article[data-plan="${name}"]`);
  await card.scrollIntoViewIfNeeded();
  await pricing.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  return { pricing, card };
}

test("a price edited in Packages shows on the open /pricing page without a reload", async () => {
  const name = `E2E Price ${tag}`;
  const pkg = await createPackage(name, 777);
  const { pricing, card } = await openPricing(name);
  try {
    await expect(card.getByTestId("plan-price")).toHaveText("R777");

    await page.goto("/admin/packages");
    await expect(page.getByRole("heading", { level: 1, name: "Packages" })).toBeVisible();
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Price (R)").fill("788");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Package saved")).toBeVisible();
    await expect(dialog).toBeHidden();

    await expect(card.getByTestId("plan-price")).toHaveText("R788", { timeout: 15_000 });
    expect(await pricing.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await page.request.delete(`/api/admin/packages/${pkg.id}`, { headers: ownOrigin() });
    await pricing.close();
  }
});

test("a special created in Specials shows on the public card with SPECIAL and the saving", async () => {
  const name = `E2E Special ${tag}`;
  const pkg = await createPackage(name, 900);
  const { pricing, card } = await openPricing(name);
  let specialId: string | undefined;
  try {
    await expect(card.getByTestId("plan-price")).toHaveText("R900");

    await page.goto("/admin/specials");
    await expect(page.getByRole("heading", { level: 1, name: "Pricing specials" })).toBeVisible();
    await page.getByRole("button", { name: "New special" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Package name").fill(name);
    await dialog.getByLabel("Original price (R)").fill("900");
    await dialog.getByLabel("Special price (R)").fill("850");
    await expect(dialog.getByTestId("special-saving")).toHaveText("Customers save R50");
    await expect(dialog.getByText(`Shows on the ${name} card.`)).toBeVisible();
    await dialog.getByRole("button", { name: "Create special" }).click();
    await expect(page.getByText("Special created")).toBeVisible();

    await expect(card.getByTestId("plan-price")).toHaveText("R850", { timeout: 15_000 });
    await expect(card.getByText("SPECIAL", { exact: true })).toBeVisible();
    await expect(card.getByText("Save R50")).toBeVisible();
    expect(await pricing.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    const specials = (await (await page.request.get("/api/admin/specials")).json()) as { data: { id: string; package_name: string }[] };
    specialId = specials.data.find((s) => s.package_name === name)?.id;
    if (specialId) await page.request.delete(`/api/admin/specials/${specialId}`, { headers: ownOrigin() });
    await page.request.delete(`/api/admin/packages/${pkg.id}`, { headers: ownOrigin() });
    await pricing.close();
  }
});

test("a bad value is named beside its field, and nothing is saved", async () => {
  await page.goto("/admin/packages");
  await page.getByRole("button", { name: "New package" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(`E2E Invalid ${tag}`);
  await dialog.getByLabel("Price (R)").fill("12.345");
  await dialog.getByLabel("Duration").fill("1 Month");
  await dialog.getByRole("button", { name: "Create package" }).click();

  const price = dialog.getByLabel("Price (R)");
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await expect(price).toHaveAccessibleDescription(/at most two decimals/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const packages = (await (await page.request.get("/api/admin/packages")).json()) as { data: { name: string }[] };
  expect(packages.data.some((p) => p.name === `E2E Invalid ${tag}`)).toBe(false);
});
