// Billing, as the owner and a company customer meet it, on desktop and phone: the owner makes a
// coupon on the Billing page; a customer enters it at the review step with their company's VAT
// number (a wrong one refused beside its field) and pays the lower price on the sandbox checkout;
// the owner finds the tax invoice on the Billing page and opens its PDF, then refunds part of it
// from the payments page (through the sandbox's refund API) and sees the credit note listed.
import { expect, type Page, test } from "@playwright/test";
import { signInAdmin } from "./a11y-helpers";
import { ownOrigin } from "./e2e-env";

test.describe.configure({ mode: "serial" });

let page: Page;
const errors: string[] = [];
let tag = "";
let code = "";
let reference = "";
let phonePrefix = "083";

test.beforeAll(async ({ browser }, testInfo) => {
  const context = await browser.newContext(testInfo.project.use);
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
  page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  tag = `${testInfo.project.name}${Date.now().toString(36)}`;
  phonePrefix = testInfo.project.name === "phone" ? "084" : "083";
  code = `E2E${tag}`
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, 20);
  await signInAdmin(context.request);
  // A VAT vendor (settings no other spec reads: the legal pages' facts stay the seed's).
  for (const [key, value] of Object.entries({ vat_vendor: "yes", vat_number: "4123456789" })) {
    const saved = await context.request.post("/api/admin/settings", { headers: ownOrigin(), data: { key, value } });
    expect(saved.ok()).toBe(true);
  }
});

test.afterAll(async () => {
  await page?.context().close();
  expect(errors).toEqual([]);
});

test("the owner makes a 10% coupon on the Billing page", async () => {
  await page.goto("/admin/billing");
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await page.getByRole("button", { name: "New coupon" }).click();
  const dialog = page.getByRole("dialog", { name: "New coupon" });
  await dialog.getByLabel(/^Code/).fill(code.toLowerCase());
  await dialog.getByLabel(/^Percentage off/).fill("10");
  await dialog.getByRole("button", { name: "Save coupon" }).click();
  await expect(page.getByText(`${code} saved`)).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
});

test("a customer applies the coupon and their company's details at the review step and pays the lower price", async () => {
  await page.goto("/");
  const card = page.locator('#pricing-packages article[data-plan="Month to Month"]');
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  await expect(review.getByTestId("pay-review-price")).toHaveText("R650");
  await review.getByText("Coupon code or company invoice (optional)").click();
  await review.getByLabel("Coupon code").fill(code.toLowerCase());
  await review.getByRole("button", { name: "Apply" }).click();
  await expect(review.getByTestId("pay-review-price")).toHaveText("R585");
  await expect(review.getByText(`Coupon ${code}: R65 off`)).toBeVisible();

  await review.getByLabel("Full Name").fill(`Lindiwe Company ${tag}`);
  await review.getByLabel("WhatsApp Number").fill(`${phonePrefix} ${String(Date.now()).slice(-7)}`);
  await review.getByLabel("Company name").fill("Lindiwe Trading (Pty) Ltd");
  await review.getByLabel("Company VAT number").fill("5123456789");
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  await review.getByRole("button", { name: "Continue to payment" }).click();
  await expect(review.getByText("A VAT number is 10 digits starting with 4.")).toBeVisible();
  await review.getByLabel("Company VAT number").fill("4987654321");

  const [checkout] = await Promise.all([
    page.context().waitForEvent("page"),
    review.getByRole("button", { name: "Continue to payment" }).click(),
  ]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  reference = decodeURIComponent(new URL(checkout.url()).pathname.split("/").pop() as string);
  await expect(checkout.getByRole("heading", { name: "R585" })).toBeVisible();
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await checkout.close();
});

test("the owner finds the tax invoice on the Billing page, its PDF one click away", async () => {
  await page.goto("/admin/billing");
  const row = page
    .locator("li")
    .filter({ hasText: `Lindiwe Company ${tag}` })
    .filter({ hasText: "Tax Invoice" });
  await expect(row).toContainText("Tax Invoice");
  await expect(row).toContainText("R585");
  const link = row.getByRole("link", { name: /^INV-\d{6}$/ });
  const href = (await link.getAttribute("href")) as string;
  const pdf = await page.request.get(href);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
});

test("a partial refund from the payments page issues a credit note that the Billing page lists", async () => {
  await page.goto(`/admin/payments?q=${encodeURIComponent(reference)}`);
  await page.getByRole("button", { name: "Refund" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Refund" });
  await dialog.getByLabel(/^Amount/).fill("100");
  await dialog.getByRole("button", { name: "Refund and issue credit note" }).click();
  await expect(dialog.getByText("Please give a reason")).toBeVisible();
  await dialog.getByLabel(/^Reason/).fill(`Two days without service (${tag})`);
  await dialog.getByRole("button", { name: "Refund and issue credit note" }).click();
  await expect(page.getByText(/Credit note CN-\d{6} issued/)).toBeVisible();
  await expect(page.getByText("partly refunded").first()).toBeVisible();

  await page.goto("/admin/billing");
  await expect(page.getByText(`Two days without service (${tag})`, { exact: false })).toBeVisible();
});
