// Paying through a provider the owner turned on beside the card checkout (issue 29): the server
// runs with PayFast, Ozow and Yoco pointed at our fakes (playwright.config.ts). A package card's
// Pay Now → the review step lists Card (still the default), PayFast, Ozow, Yoco and, when on, EFT
// → the provider → its page (PayFast and Ozow through our hand-off page's signed form post; Yoco
// straight to its checkout) → pay → the fake's notification reaches our server, which confirms it
// with the provider and captures → /payment/success says what the payment did.
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

const PROVIDERS = [
  {
    name: "PayFast",
    // desktop, phone: numbers no other journey uses, so each payer is a new person
    whatsapp: ["082 702 4567", "082 703 4567"],
    page: /127\.0\.0\.1:\d+\/eng\/process$/,
    heading: "R1450.00",
    pay: "Complete payment",
  },
  { name: "Ozow", whatsapp: ["082 704 4567", "082 705 4567"], page: /127\.0\.0\.1:\d+\/$/, heading: "R1450.00", pay: "Pay with my bank" },
  { name: "Yoco", whatsapp: ["082 706 4567", "082 707 4567"], page: /127\.0\.0\.1:\d+\/pay\/ch_/, heading: "R1450.00", pay: "Pay" },
] as const;

for (const provider of PROVIDERS) {
  test(`Pay Now → review → choose ${provider.name} → ${provider.name}'s page → pay → 'Your account is ready'`, async ({
    page,
    context,
  }, testInfo) => {
    const errors = collectPageErrors(page);
    const whatsapp = provider.whatsapp[testInfo.project.name === "phone" ? 1 : 0];

    await page.goto("/");
    const card = page.locator('#pricing-packages article[data-plan="3 Months"]');
    await card.scrollIntoViewIfNeeded();
    await card.getByRole("button", { name: "Pay Now" }).click();

    const review = page.getByRole("dialog", { name: "Review your order" });
    await expect(review).toBeVisible();
    await expect(review.getByTestId("pay-review-price")).toHaveText("R1,450");
    const methods = review.getByRole("group", { name: "How would you like to pay?" });
    // The card checkout stays the default; each provider is offered by name beside it.
    await expect(methods.getByRole("radio", { name: /^Card/ })).toBeChecked();
    for (const other of PROVIDERS) await expect(methods.getByRole("radio", { name: new RegExp(`^${other.name}`) })).not.toBeChecked();
    await methods.getByRole("radio", { name: new RegExp(`^${provider.name}`) }).check();
    await expect(review.getByText(`You pay on ${provider.name}'s secure payment page.`)).toBeVisible();
    await expect(review.getByText("Test checkout: no real money is taken.")).toHaveCount(0);

    await review.getByLabel("Full Name").fill("Sipho Dlamini");
    await review.getByLabel("WhatsApp Number").fill(whatsapp);
    await review.getByRole("checkbox", { name: /Start my subscription as soon as I have paid/ }).check();
    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      review.getByRole("button", { name: `Continue to ${provider.name}` }).click(),
    ]);

    // The provider's page (the fake checked our signature or hash, or our secret key).
    await checkout.waitForURL(provider.page);
    await expect(checkout.getByRole("heading", { name: provider.heading })).toBeVisible();
    await checkout.getByRole("button", { name: provider.pay, exact: true }).click();

    await checkout.waitForURL(/\/payment\/success\?ref=STRMDSK_/);
    await expect(checkout.getByRole("heading", { level: 1, name: "Your account is ready" })).toBeVisible({ timeout: 20_000 });
    const result = checkout.locator("main");
    await expect(result.getByText("Paid", { exact: true })).toBeVisible();
    await expect(result.getByText(/^Your subscription runs until /)).toBeVisible();
    expect(errors).toEqual([]);
    await checkout.close();
  });
}
