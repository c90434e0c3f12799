// Renewals that pay themselves (issue 44), on a phone: with PayFast chosen, the review step offers
// "Renew automatically with this card", unticked, with the sentence of what is charged, when and
// how to stop; ticked, PayFast's page (the fake, which checks the signature over every field,
// subscription_type=2 included) takes the payment and the account is ready. The card pay link
// offers no such box. The portal's switch is covered by its component test (auto-renew-card.test.tsx).
import { expect, test } from "@playwright/test";
import { openReview } from "./storefront";

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

test("PayFast at checkout: 'Renew automatically with this card' is off by default, says what and when; ticked, PayFast takes the payment", async ({
  page,
  context,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "a phone journey (390 px)");
  const review = await openReview(page);
  const methods = review.getByRole("group", { name: "How would you like to pay?" });
  // the card checkout keeps no card: nothing offered
  await expect(review.getByRole("checkbox", { name: /Renew automatically with this card/ })).toHaveCount(0);
  await methods.getByRole("radio", { name: /^PayFast/ }).check();
  const renew = review.getByRole("checkbox", { name: /Renew automatically with this card/ });
  await expect(renew).not.toBeChecked();
  await expect(
    review.getByText(
      /We'll charge R[\d,]+ to this card every 3 months on the day before your line ends, and tell you 3 days before\. Turn it off any time in your portal\./,
    ),
  ).toBeVisible();

  await review.getByLabel("Full Name").fill("Lerato Auto");
  await review.getByLabel("WhatsApp Number").fill("082 744 4567");
  await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
  await renew.check();
  const [checkout] = await Promise.all([context.waitForEvent("page"), review.getByRole("button", { name: "Continue to PayFast" }).click()]);
  await checkout.waitForURL(/127\.0\.0\.1:\d+\/eng\/process$/);
  await expect(checkout.getByRole("heading", { name: "R1450.00" })).toBeVisible();
  await checkout.getByRole("button", { name: "Complete payment", exact: true }).click();
  await checkout.waitForURL(/\/payment\/success\?ref=STRMDSK_/);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible({ timeout: 20_000 });
});
