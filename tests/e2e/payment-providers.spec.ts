// Paying through a provider the owner turned on beside the card checkout (issue 29): the server
// runs with PayFast, Ozow and Yoco pointed at our fakes (playwright.config.ts). A package card's
// Pay Now → the review step lists Card (still the default), PayFast, Ozow, Yoco and, when on, EFT
// → the provider → its page (PayFast and Ozow through our hand-off page's signed form post; Yoco
// straight to its checkout) → pay → the fake's notification reaches our server, which confirms it
// with the provider and captures → /payment/success says what the payment did. And when Ozow
// makes a refund but its answer is lost, the owner is told it is held and finds it again.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { ownerPage } from "./a11y-helpers";
import { uniqueWhatsApp } from "./owner-queue";
import { openReview } from "./storefront";

/** 0xx xxx xxxx, as a customer types their number. */
const local = (digits: string) => `0${digits.slice(2, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`;

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

type Provider = (typeof PROVIDERS)[number];

/**
 * A package card's Pay Now → review (the card checkout still the default, every provider offered
 * by name) → `provider` → its page → pay → /payment/success; the result page.
 */
async function payWith(page: Page, context: BrowserContext, provider: Provider, whatsapp: string): Promise<Page> {
  const review = await openReview(page);
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
  return checkout;
}

for (const provider of PROVIDERS) {
  test(`Pay Now → review → choose ${provider.name} → ${provider.name}'s page → pay → 'Your account is ready'`, async ({
    page,
    context,
  }, testInfo) => {
    const errors = collectPageErrors(page);
    const checkout = await payWith(page, context, provider, provider.whatsapp[testInfo.project.name === "phone" ? 1 : 0]);
    const result = checkout.locator("main");
    await expect(result.getByText("Paid", { exact: true })).toBeVisible();
    await expect(result.getByText(/^Your subscription runs until /)).toBeVisible();
    expect(errors).toEqual([]);
    await checkout.close();
  });
}

test("a refund Ozow never answers stays held: the owner finds it again from the overview's tile and the payments filter", async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const ozow = PROVIDERS[1];
  const checkout = await payWith(page, context, ozow, local(uniqueWhatsApp()));
  const reference = new URL(checkout.url()).searchParams.get("ref") ?? "";
  await checkout.close();
  // From here Ozow makes this payment's refunds but the answer never arrives, and its refund list is down.
  const lose = await fetch(`http://127.0.0.1:${process.env.E2E_OZOW_PORT}/_fake/lose-refunds`, {
    method: "POST",
    body: new URLSearchParams({ reference }),
  });
  expect(lose.status).toBe(204);

  const owner = await ownerPage(browser, testInfo);
  const errors = collectPageErrors(owner);
  await owner.goto(`/admin/payments?q=${encodeURIComponent(reference)}`);
  await owner.getByRole("button", { name: "Refund" }).first().click();
  const dialog = owner.getByRole("dialog", { name: "Refund" });
  await dialog.getByLabel(/^Reason/).fill("Ordered the wrong package");
  await dialog.getByRole("button", { name: "Refund and issue credit note" }).click();
  // The owner is told the truth: nothing confirmed, the amount held, what to do.
  await expect(
    dialog.getByText(
      "Ozow did not answer the refund of R1,450, and could not be asked whether it made it. R1,450 stays held on this payment so it is never refunded twice; refund again later to check with Ozow, or look in Ozow's dashboard.",
    ),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The overview shows the held refund (other runs' held refunds may be counted too) and opens the list.
  await owner.goto("/admin");
  const tile = owner.getByRole("link", { name: /^Refunds held\s*\d+$/ });
  await expect(tile).toBeVisible();
  await tile.click();
  await expect(owner).toHaveURL(/\/admin\/payments\?refund=held$/);
  await expect(owner.getByLabel("Refund", { exact: true })).toHaveValue("held");
  // (a table row on a desktop, a card at 390 px), the amount said to be held, not refunded
  await expect(owner.locator("main").getByText(reference, { exact: true })).toBeVisible();
  const listed = owner.locator("main tbody tr, main li[data-row-key]").filter({ hasText: reference });
  await expect(listed.getByText("R1,450 held: refund not yet confirmed")).toBeVisible();
  await expect(listed.getByText("refund held", { exact: true })).toBeVisible();
  await expect(listed.getByText(/refunded/)).toHaveCount(0);
  expect(errors).toEqual([]);
  await owner.context().close();
});
