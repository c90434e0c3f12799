// Renewals that pay themselves (issue 44), on a phone: with PayFast chosen, the review step offers
// "Renew automatically with this card", unticked, with the sentence of what is charged, when and
// how to stop; ticked, PayFast's page (the fake, which checks the signature over every field,
// subscription_type=2 included) takes the payment and the account is ready. The card pay link
// offers no such box. Then, at 390 px and on a desktop, the portal's "Renew automatically" switch
// turns it off for a client whose card PayFast keeps (paid through the API and the fake's page).
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { choosePassword, uniqueWhatsApp } from "./owner-queue";
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

/** A client who paid 3 Months at PayFast with "Renew automatically" ticked: the pay link, our hand-off form posted to the fake, paid there. */
async function renewingClient(request: APIRequestContext) {
  const headers = ownOrigin();
  const { data: packages } = (await (await request.get("/api/packages")).json()) as { data: { id: string; name: string }[] };
  const whatsapp = uniqueWhatsApp();
  const link = await request.post("/api/payments/paylink", {
    headers,
    data: {
      name: "Sipho Switch",
      whatsapp,
      immediateStartConsent: true,
      method: "payfast",
      autoRenew: true,
      packageId: packages.find((p) => p.name === "3 Months")?.id,
    },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { paylinkUrl } = (await link.json()) as { paylinkUrl: string };
  const handoff = await (await request.get(paylinkUrl)).text();
  const action = /<form[^>]*action="([^"]+)"/.exec(handoff)?.[1].replaceAll("&amp;", "&") ?? "";
  const form = Object.fromEntries(
    [...handoff.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, k, v]) => [
      k,
      v.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'"),
    ]),
  );
  expect((await request.post(action, { form })).ok()).toBe(true);
  const paid = await request.post(`${action}/${encodeURIComponent(form.m_payment_id)}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  expect((await request.post("/api/admin/login", { data: e2eAdmin, headers })).ok()).toBe(true);
  const password = await choosePassword(request, whatsapp);
  const found = (await (await request.get(`/api/admin/clients?q=${whatsapp}`)).json()) as { data: { username: string }[] };
  await request.post("/api/admin/logout", { headers });
  return { username: found.data[0].username, password };
}

/** Signs the renewing client in to the portal; the automatic renewal card. */
async function portalCard(page: Page, { username, password }: { username: string; password: string }) {
  await page.goto("/client/login");
  await page.locator("#client-username").fill(username);
  await page.locator("#client-password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  return page.locator('[aria-labelledby="auto-renew-heading"]');
}

test("the portal's 'Renew automatically' switch turns automatic renewal off", async ({ page }) => {
  const card = await portalCard(page, await renewingClient(page.request));
  const renew = card.getByRole("switch", { name: "Renew automatically" });
  await renew.scrollIntoViewIfNeeded();
  await expect(renew).toBeChecked();
  await expect(card.getByRole("status")).toContainText("On, card via PayFast.");
  await renew.click();
  await expect(renew).not.toBeChecked();
  await expect(card.getByRole("status")).toContainText("Off.");
  await page.reload();
  await expect(renew).not.toBeChecked();
});

test("'Use another card' saves a new card at PayFast with no charge; the page says so and renewals stay on", async ({ page }) => {
  const card = await portalCard(page, await renewingClient(page.request));
  const change = card.getByRole("button", { name: "Use another card" });
  await change.scrollIntoViewIfNeeded();
  await change.click();
  await page.waitForURL(/127\.0\.0\.1:\d+\/eng\/process$/);
  await expect(page.getByRole("heading", { name: "R0.00" })).toBeVisible();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await page.waitForURL(/\/payment\/success\?ref=STRMDSK_/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your new card is saved", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText(/Nothing was charged\. Your next automatic renewal goes on this card/)).toBeVisible();
  await expect(page.getByText("set up your account")).toHaveCount(0);
  await page.getByRole("link", { name: "Go to your account" }).click();
  await expect(card.getByRole("switch", { name: "Renew automatically" })).toBeChecked();
});
