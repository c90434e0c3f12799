// Journeys through the public information pages: status, help centre, release notes, legal
// pages, setup guide, and the card payment result pages driven through the sandbox checkout.

import { expect, type Page, test } from "@playwright/test";

/** Uncaught exceptions of the page, for a final assertion. */
function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test.beforeEach(async ({ context }) => {
  // The first-run notification prompt would float over the bottom of the pages.
  await context.addInitScript(() => window.localStorage.setItem("initialized", "true"));
});

test("the status page shows every component with 90 day bars, and Check now refreshes it", async ({ page, request }) => {
  const errors = collectPageErrors(page);
  const status = (await (await request.get("/api/status")).json()) as { components: { key: string; name: string }[] };
  expect(status.components.length).toBeGreaterThan(0);

  await page.goto("/status");
  await expect(page.getByRole("heading", { level: 1, name: "Service status" })).toBeVisible();
  await expect(page.locator("[data-overall] h2")).toHaveText(
    /All systems operational|Some services are under maintenance|Some services are down/,
  );
  const cards = page.locator("[data-component]");
  await expect(cards).toHaveCount(status.components.length);
  for (const component of status.components) {
    const card = page.locator(`[data-component="${component.key}"]`);
    await expect(card.getByRole("heading", { name: component.name })).toBeVisible();
    await expect(card.getByRole("list", { name: `${component.name}: the last 90 days` }).locator("li")).toHaveCount(90);
    await expect(card).toContainText(/uptime over 90 days|No uptime data yet/);
  }

  const check = page.getByRole("button", { name: "Check now" });
  await check.click();
  await expect(page.getByText(/Health check last ran|A check ran moments ago/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Check now" })).toBeEnabled({ timeout: 15_000 });
  expect(errors).toEqual([]);
});

test("a help centre search for 'buffering' finds the buffering article and opens it", async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto("/knowledge-base");
  await expect(page.getByRole("heading", { level: 1, name: "How can we help?" })).toBeVisible();
  await page.getByLabel("Search the help centre").fill("buffering");
  await expect(page).toHaveURL(/[?&]q=buffering/);
  const first = page.locator("[data-article]").first();
  await expect(first).toContainText("Fixing buffering and freezing");
  await first.click();
  await expect(page).toHaveURL(/\/knowledge-base\/fix-buffering$/);
  await expect(page.getByRole("heading", { level: 1, name: "Fixing buffering and freezing" })).toBeVisible();
  // the body's structure is rendered: headings and lists, not one block of text
  await expect(page.getByRole("heading", { level: 2, name: "2. Run the stream test" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "4K: 35 Mbps or more" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Still stuck? WhatsApp us" })).toBeVisible();
  await expect(page.getByRole("link", { name: /WhatsApp \+27/ }).first()).toHaveAttribute("href", /^https:\/\/wa\.me\/27\d+\?text=/);
  expect(errors).toEqual([]);
});

test("release notes list every release, newest first, dated like 2 Nov 2026", async ({ page, request }) => {
  const { data } = (await (await request.get("/api/releases")).json()) as { data: { version: string; released_on: string }[] };
  await page.goto("/releases");
  await expect(page.getByRole("heading", { level: 1, name: "What's new" })).toBeVisible();
  const releases = page.locator("[data-release]");
  await expect(releases).toHaveCount(data.length);
  const newest = [...data].sort((a, b) => b.released_on.localeCompare(a.released_on))[0];
  await expect(releases.first()).toHaveAttribute("data-release", newest.version);
  await expect(releases.first().locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
});

for (const [path, title] of [
  ["/privacy-policy", "Privacy Policy"],
  ["/terms-of-service", "Terms of Service"],
  ["/refund-policy", "Refund Policy"],
] as const) {
  test(`${path} names the business from branding and has a last-updated date`, async ({ page, request }) => {
    const { data: branding } = (await (await request.get("/api/branding")).json()) as { data: { company_name: string } };
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(/^Last updated \d{1,2} [A-Z][a-z]{2} \d{4}$/)).toBeVisible();
    const facts = page.locator("dl").first();
    await expect(facts.locator("dt", { hasText: "Trading name" }).locator("+ dd")).toHaveText(branding.company_name);
    // the seed leaves the legal name empty: the page says so instead of inventing one
    await expect(facts.locator("dt", { hasText: "Registered name" }).locator("+ dd")).toHaveText(/^Available on request from /);
  });
}

test("the setup guide preselects ?device= and switches devices from the picker", async ({ page }) => {
  await page.goto("/setup-guide?device=firestick");
  await expect(page.getByRole("heading", { level: 1, name: "Set up your device" })).toBeVisible();
  const picker = page.getByRole("group", { name: "Which device are you setting up?" });
  await expect(picker.getByRole("radio")).toHaveCount(9);
  await expect(picker.getByRole("radio", { name: "Amazon Fire Stick" })).toBeChecked();
  await expect(page.locator('[data-guide="firestick"] h2')).toHaveText("Amazon Fire Stick");

  await picker.getByText("iPhone/iPad").click();
  await expect(page).toHaveURL(/[?&]device=ios/);
  await expect(page.locator('[data-guide="ios"] h2')).toHaveText("iPhone/iPad");
  await expect(page.locator('[data-guide="ios"]')).toContainText("App Store");
});

const OUTCOMES = [
  // A new payer: the payment creates their account.
  { button: "Pay", page: "success", badge: "Paid", heading: "Your account is ready" },
  { button: "Decline", page: "failure", badge: "Failed", heading: "Payment failed" },
  { button: "Cancel", page: "cancel", badge: "Cancelled", heading: "Payment cancelled" },
] as const;

for (const outcome of OUTCOMES) {
  test(`a sandbox card payment answered '${outcome.button}' lands on /payment/${outcome.page} showing ${outcome.badge} and the amount`, async ({
    page,
    baseURL,
  }, testInfo) => {
    const errors = collectPageErrors(page);
    const { data: packages } = (await (await page.request.get("/api/packages")).json()) as {
      data: { id: string; name: string; price: number }[];
    };
    const pkg = packages.find((p) => p.name === "Month to Month") ?? packages[0];
    const created = await page.request.post("/api/payments/paylink", {
      data: {
        packageId: pkg.id,
        name: "Sipho Ndlovu",
        // one number per outcome and project: each payer is a new person
        whatsapp: `083 ${testInfo.project.name === "phone" ? 6 : 5}0${OUTCOMES.indexOf(outcome)} 0101`,
        immediateStartConsent: true,
      },
      headers: { origin: baseURL ?? "" },
    });
    expect(created.status()).toBe(201);
    const { paylinkUrl, externalTransactionID } = (await created.json()) as { paylinkUrl: string; externalTransactionID: string };

    await page.goto(paylinkUrl);
    await page.getByRole("button", { name: outcome.button, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/payment/${outcome.page}\\?ref=${externalTransactionID}$`));

    await expect(page.getByRole("heading", { level: 1, name: outcome.heading })).toBeVisible();
    const result = page.locator("main");
    await expect(result.getByText(outcome.badge, { exact: true })).toBeVisible();
    await expect(result.getByText(`R${pkg.price.toLocaleString("en-US")}`, { exact: true })).toBeVisible();
    await expect(result.getByText(pkg.name, { exact: true })).toBeVisible();
    await expect(result.getByText(externalTransactionID, { exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
}

test("a result page without a reference, or with an unknown one, explains instead of failing", async ({ page }) => {
  await page.goto("/payment/success");
  await expect(page.getByRole("heading", { level: 1, name: "We couldn't tell which payment this is" })).toBeVisible();
  await page.goto("/payment/failure?ref=NO_SUCH_REF");
  await expect(page.getByRole("heading", { level: 1, name: "We couldn't find that payment" })).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
});

test("a new page opens at its top, and Back returns to where the last one was left", async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto("/privacy-policy");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The visitor scrolls down the policy. On a busy machine its text can be drawn after the
  // heading, and a scroll before that stops at the shorter page's end: scroll until it holds.
  await expect
    .poll(() =>
      page.evaluate(() => {
        window.scrollTo(0, 700);
        return window.scrollY;
      }),
    )
    .toBe(700);
  // An in-app link (the footer's), followed without scrolling to it first.
  const terms = page.locator('footer a[href="/terms-of-service"]');
  await expect(terms).toBeAttached();
  await terms.evaluate((link: HTMLAnchorElement) => link.click());
  await expect(page).toHaveURL(/\/terms-of-service$/);
  await expect(page.getByRole("heading", { level: 1, name: /Terms/ })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page).toHaveTitle(/^Terms/);

  await page.goBack();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(700);
  await expect(page).toHaveTitle(/^Privacy/);
  expect(errors).toEqual([]);
});

test("a footer link to a landing section, from another page, opens the landing at that section", async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto("/privacy-policy");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const orderNow = page.locator('footer a[href="/#order"]');
  await expect(orderNow).toBeAttached();
  await orderNow.click();
  await expect(page).toHaveURL(/\/#order$/);
  // The landing's code loads, its sections mount below the fold, and the order section ends up in view.
  await expect(page.locator("#order h2")).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
