// The public payment journey against the real server and its sandbox card provider: a package
// card's Pay Now → the review step (who pays, the ECT Act s44 consent) → the sandbox checkout in a
// new tab → Pay → /payment/success saying what the payment did: a new account, where its login
// went (masked) and when the subscription ends.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { addMonths, formatDate } from "../../src/shared/dates";
import { openReview } from "./storefront";

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

test("Pay Now → review → sandbox checkout → Pay → 'Your account is ready' with the masked WhatsApp and the end date", async ({
  page,
  context,
}, testInfo) => {
  const errors = collectPageErrors(page);
  // A number no other journey uses (one per project): this payer is a new person, not a returning client.
  const whatsapp = testInfo.project.name === "phone" ? "082 701 4567" : "082 700 4567";

  const review = await openReview(page);
  // The seeded special: 3 Months R1,650 → R1,450, the price the visitor will pay.
  await expect(review.getByTestId("pay-review-price")).toHaveText("R1,450");
  await expect(review.getByText("Test checkout: no real money is taken.")).toBeVisible();
  await expect(review.getByLabel("Full Name")).toBeFocused();

  // Not without the consent.
  await review.getByLabel("Full Name").fill("Thandi Mokoena");
  await review.getByLabel("WhatsApp Number").fill(whatsapp);
  const consent = review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ });
  await expect(consent).not.toBeChecked();
  await review.getByRole("button", { name: "Continue to payment" }).click();
  await expect(review.getByText("Please confirm that your subscription may start as soon as you have paid")).toBeVisible();
  expect(context.pages()).toHaveLength(1);

  await consent.check();
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Continue to payment" }).click()]);
  await checkout.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await expect(page.getByText("Payment Link Created")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(checkout.getByRole("heading", { name: "R1,450" })).toBeVisible();

  const paidAt = new Date();
  await checkout.getByRole("button", { name: "Pay", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible();
  const result = checkout.locator("main");
  await expect(result.getByText("Paid", { exact: true })).toBeVisible();
  // No WhatsApp Cloud API on this server: the login waits for the owner to send it, and the page
  // says so (it first reads "queued" until the outbox worker hands it to the owner's queue).
  await expect(result.getByText(/^Your client portal login is waiting to be sent on WhatsApp by .+\.$/)).toBeVisible({ timeout: 20_000 });
  await expect(result.getByText(/We've sent your client portal login/)).toHaveCount(0);
  // Three months from the payment (the day after, should the payment cross midnight in SAST).
  const ends = [formatDate(addMonths(paidAt, 3)), formatDate(addMonths(paidAt.getTime() + 60_000, 3))];
  const runsUntil = await result.getByText(/^Your subscription runs until /).textContent();
  expect(ends.map((end) => `Your subscription runs until ${end}.`)).toContain(runsUntil);
  await expect(
    result.getByText(
      /^(We'll send your streaming login details as soon as your line is set up\.|Your streaming login details are (queued to|waiting to be sent on) .+\.)$/,
    ),
  ).toBeVisible();
  expect(errors).toEqual([]);
  await checkout.close();
});

test("the review step has no serious accessibility violations, with its errors showing and filled in; Escape closes it", async ({
  page,
}) => {
  const axe = async () => {
    const results = await new AxeBuilder({ page })
      .include('[role="dialog"]')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ rule: v.id, help: v.help }));
  };
  await page.goto("/");
  const card = page.locator('#pricing-packages article[data-plan="6 Months"]');
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  await review.getByRole("button", { name: "Continue to payment" }).click();
  await expect(review.getByText("Please enter your full name")).toBeVisible();
  await expect(review.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
  expect(await axe()).toEqual([]);

  await review.getByLabel("Full Name").fill("Sipho Ndlovu");
  await review.getByLabel("WhatsApp Number").fill("082 555 0199");
  await review.getByLabel("E-mail Address").fill("sipho@example.co.za");
  await review.getByRole("checkbox").check();
  await expect(review.getByText("Please enter your full name")).toHaveCount(0);
  expect(await axe()).toEqual([]);

  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
