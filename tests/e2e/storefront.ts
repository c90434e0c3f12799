// The storefront steps journeys share: from the landing's 3 Months card to the review step.
import { expect, type Locator, type Page } from "@playwright/test";

/** The landing → the 3 Months card's Pay Now → the review dialog, open. */
export async function openReview(page: Page): Promise<Locator> {
  await page.goto("/");
  const card = page.locator('#pricing-packages article[data-plan="3 Months"]');
  await card.scrollIntoViewIfNeeded();
  await card.getByRole("button", { name: "Pay Now" }).click();
  const review = page.getByRole("dialog", { name: "Review your order" });
  await expect(review).toBeVisible();
  return review;
}
