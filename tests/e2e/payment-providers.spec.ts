// Paying through a provider the owner turned on beside the card checkout (issue 29): the server
// runs with PayFast pointed at our fake (playwright.config.ts). A package card's Pay Now → the
// review step lists Card (still the default), PayFast and, when on, EFT → PayFast → our hand-off
// page posts the signed form to the fake PayFast → Complete payment → the fake's ITN reaches our
// server (answered 200, validated, captured) → /payment/success says what the payment did.
import { expect, type Page, test } from "@playwright/test";

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

test("Pay Now → review → choose PayFast → PayFast's page → Complete payment → 'Your account is ready'", async ({
  page,
  context,
}, testInfo) => {
  const errors = collectPageErrors(page);
  // A number no other journey uses (one per project): a new person.
  const whatsapp = testInfo.project.name === "phone" ? "082 703 4567" : "082 702 4567";

  await page.goto("/");
  const card = page.locator('#pricing-packages article[data-plan="3 Months"]');
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();

  const review = page.getByRole("dialog", { name: "Review your order" });
  await expect(review).toBeVisible();
  await expect(review.getByTestId("pay-review-price")).toHaveText("R1,450");
  const methods = review.getByRole("group", { name: "How would you like to pay?" });
  // The card checkout stays the default; PayFast is offered by name beside it.
  await expect(methods.getByRole("radio", { name: /^Card/ })).toBeChecked();
  const payfast = methods.getByRole("radio", { name: /^PayFast/ });
  await expect(payfast).not.toBeChecked();
  await payfast.check();
  await expect(review.getByText("You pay on PayFast's secure payment page.")).toBeVisible();
  await expect(review.getByText("Test checkout: no real money is taken.")).toHaveCount(0);

  await review.getByLabel("Full Name").fill("Sipho Dlamini");
  await review.getByLabel("WhatsApp Number").fill(whatsapp);
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Continue to PayFast" }).click()]);

  // Our hand-off page posts the signed fields on to PayFast by itself; the fake PayFast checked the signature.
  await checkout.waitForURL(/127\.0\.0\.1:\d+\/eng\/process$/);
  await expect(checkout.getByRole("heading", { name: "R1450.00" })).toBeVisible();
  await expect(checkout.getByText("3 Months IPTV Subscription")).toBeVisible();

  await checkout.getByRole("button", { name: "Complete payment" }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=STRMDSK_/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible({ timeout: 20_000 });
  const result = checkout.locator("main");
  await expect(result.getByText("Paid", { exact: true })).toBeVisible();
  await expect(result.getByText(/^Your subscription runs until /)).toBeVisible();
  expect(errors).toEqual([]);
  await checkout.close();
});
