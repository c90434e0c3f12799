// Issue 16, "Public site": what a visitor walking through the storefront at 1280 and 390 px
// found, each fixed and checked in the browser against the real server and its seeded shop.
// Screenshots of the new parts go to $SHOTS_DIR (default /tmp/shots-public2) for a look by eye.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { NOTIFICATION_PROMPT_DELAY_MS } from "../../src/shared/constants";
import { liveChangesHandled, ownerPage } from "./a11y-helpers";

const SHOTS_DIR = process.env.SHOTS_DIR || "/tmp/shots-public2";
mkdirSync(SHOTS_DIR, { recursive: true });

const shot = (page: Page, name: string, project: string, fullPage = false) =>
  page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${project}.png`), fullPage });

/**
 * A section seen as the visitor scrolls through it: viewport shots from its top down to its end
 * (an element shot would leave out what the browser skips drawing off screen).
 */
async function sectionShots(page: Page, selector: string, name: string, project: string) {
  const box = await page.locator(selector).evaluate((el) => {
    el.scrollIntoView({ block: "start" });
    const rect = el.getBoundingClientRect();
    return { top: window.scrollY + rect.top, height: rect.height };
  });
  const viewport = page.viewportSize()?.height ?? 800;
  for (let i = 0, y = box.top; y < box.top + box.height - 40; i++, y += viewport - 120) {
    await page.evaluate((top) => window.scrollTo(0, top - 80), y);
    await page.waitForTimeout(250);
    await shot(page, `${name}-${i + 1}`, project);
  }
}

/** A returning visitor: notifications already asked about, the special popup already seen. */
async function returningVisitor(context: BrowserContext) {
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
}

function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("1. the landing has the stream test and support sections, in the spec's order, linking to their pages", async ({
  page,
  context,
}, testInfo) => {
  await returningVisitor(context);
  const errors = collectPageErrors(page);
  await page.goto("/");
  // Spec §2: hero, about, pricing, stream test, support, order form, footer.
  const order = ["hero", "about", "pricing", "stream-test", "support", "order"];
  await expect(page.locator("#support h2")).toBeVisible({ timeout: 15_000 });
  const ids = await page.locator("main section[id]").evaluateAll((sections) => sections.map((s) => s.id));
  expect(ids.filter((id) => order.includes(id))).toEqual(order);

  const streamTest = page.locator("#stream-test");
  await streamTest.scrollIntoViewIfNeeded();
  await expect(streamTest.getByRole("button", { name: "Start Stream Test" })).toBeVisible();
  await expect(streamTest.getByRole("link", { name: "View Full Page" })).toHaveAttribute("href", "/stream-test");
  await sectionShots(page, "#stream-test", "landing-stream-test", testInfo.project.name);

  const support = page.locator("#support");
  await support.scrollIntoViewIfNeeded();
  await expect(support.getByRole("heading", { name: "Real people, here to help" })).toBeVisible();
  await expect(support.getByTestId("support-hours")).toHaveText("9am-8pm, 7 days a week");
  await expect(support.getByRole("link", { name: /WhatsApp \+27 82 123 4567/ })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/27821234567\?text=/,
  );
  await sectionShots(page, "#support", "landing-support", testInfo.project.name);
  await support.getByRole("link", { name: "All the ways to get help" }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole("heading", { level: 1, name: "We're here to help" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("2. the first run of notifications: the initialized flag, the prompt 3 s later, and never again", async ({ page }) => {
  await page.addInitScript(() => {
    window.sessionStorage.setItem("popupShownThisSession", "true");
    // When the app writes the flag, by the page's own clock (a poll from here would lag under load).
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key === "initialized") (window as unknown as { __initializedAt?: number }).__initializedAt = performance.now();
      return setItem.call(this, key, value);
    };
  });
  await page.goto("/status");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const prompt = page.getByRole("complementary", { name: "Get notified about new specials?" });
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("initialized")), { timeout: 10_000 }).toBe("true");
  const flaggedAt = await page.evaluate(() => (window as unknown as { __initializedAt: number }).__initializedAt);
  await expect(prompt).toBeVisible({ timeout: 10_000 });
  // (measured once it shows, so never before it appeared: a slow machine cannot make this fail)
  const shownAt = await page.evaluate(() => performance.now());
  // 3 s after the first run (give or take the poll above), not at once.
  expect(shownAt - flaggedAt).toBeGreaterThan(2000);
  await prompt.getByRole("button", { name: "Not now" }).click();
  await expect(prompt).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // past the moment it would show (NOTIFICATION_PROMPT_DELAY_MS after this page's start), with a second to spare
  await page.waitForFunction((delay) => performance.now() > delay + 1000, NOTIFICATION_PROMPT_DELAY_MS, { timeout: 15_000 });
  await expect(prompt).toHaveCount(0);
});

test("3. /how-to-use is the full page: the steps, the app cards and the download dialog", async ({ page, context }, testInfo) => {
  await returningVisitor(context);
  const errors = collectPageErrors(page);
  await page.goto("/how-to-use");
  await expect(page.getByRole("heading", { level: 1, name: "Start watching in three steps" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "2. Download App" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Supported Apps & Devices" })).toBeVisible();
  const hero = page.locator('[data-app="IPTV Smarters Pro"]');
  await expect(hero).toContainText("Recommended");
  await expect(page.locator('[data-app="TiviMate"]')).toBeVisible();
  await expect(page.locator('[data-app="Smart IPTV"]')).toBeVisible();
  await shot(page, "how-to-use", testInfo.project.name, true);

  await page.locator('[data-app="TiviMate"]').click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "TiviMate" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Download", exact: true })).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Send instructions" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("4. the special popup opens about 1 s after load, on its own, and Order Now selects the advertised special", async ({ page }) => {
  await page.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    // When the popup opened, to the millisecond (Playwright's own polling would add its interval).
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid="special-popup"][open]')) return;
      (window as unknown as { popupShownAt: number }).popupShownAt = performance.now();
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["open"] });
  });
  // On its own: even with the pricing section's code never arriving, the popup opens.
  await page.route(/\/assets\/pricing-section-[^/]*\.js$/, (route) => route.abort());
  await page.goto("/");
  const popup = page.getByTestId("special-popup");
  await expect(popup).toBeVisible({ timeout: 8000 });
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { loadEnd: nav.loadEventEnd, shown: (window as unknown as { popupShownAt: number }).popupShownAt };
  });
  // Opened 1 s after load (1.0-1.1 s measured here), not when the pricing section far
  // below mounted (that was 2.2-3.7 s). The upper bound leaves room for a busy 2-core test machine.
  console.log(`special popup shown ${Math.round(timing.shown - timing.loadEnd)} ms after the load event`);
  expect(timing.shown - timing.loadEnd).toBeGreaterThanOrEqual(900);
  expect(timing.shown - timing.loadEnd).toBeLessThan(2500);
  await expect(popup.getByRole("heading", { name: "Special: save R200 on 3 Months" })).toBeVisible();

  await popup.getByRole("button", { name: "Order Now" }).click();
  await expect(popup).toHaveCount(0);
  await expect(page.locator("#order")).toBeInViewport({ timeout: 5000 });
  // The popup is about the 3 Months special, so that package is chosen (a generic banner would choose the monthly one).
  await expect(page.locator("#order-package")).toHaveValue("3 Months", { timeout: 5000 });
  await expect(page.locator("#order-duration")).toHaveValue("3 Months");
  await expect(page.getByTestId("order-summary")).toContainText("R1,450");
});

test("5. 'Send Failed' says the spec's words, never the server's status line; 8. the form carries the POPIA notice", async ({
  page,
  context,
}, testInfo) => {
  await returningVisitor(context);
  await page.route("**/api/downloads/*/instructions", (route) =>
    route.fulfill({ status: 500, contentType: "text/html", body: "<html><body>Internal Server Error</body></html>" }),
  );
  await page.goto("/downloads");
  await page.locator('[data-app="TiviMate"]').first().click();
  const dialog = page.getByRole("dialog");
  const form = dialog.locator("form");
  await expect(form.getByRole("heading", { name: "Send instructions" })).toBeVisible();
  // POPIA s18: what is collected and why, at the point of collection, with the privacy policy.
  await expect(form.getByText("Your privacy:")).toBeVisible();
  await expect(form).toContainText("We collect the WhatsApp number or e-mail address you enter here to send you the TiviMate setup guide");
  await expect(form.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
  await form.scrollIntoViewIfNeeded();
  await form.screenshot({ path: path.join(SHOTS_DIR, `instructions-form-${testInfo.project.name}.png`) });

  await dialog.getByLabel("E-mail address").fill("lerato@example.co.za");
  await dialog.getByRole("button", { name: "Send instructions" }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Send Failed" });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Failed to send instructions. Please try again.");
  await expect(page.getByText(/The server answered/)).toHaveCount(0);
});

test("7. on a sport event day every free-trial button and the free plan say so before the form", async ({ page, context }, testInfo) => {
  await returningVisitor(context);
  // The day's answer as the server gives it on a blackout day (the API tests cover the server's side).
  await page.route("**/api/trial-availability", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ data: { available: false, reason: "Springboks v All Blacks", day: "2026-11-22" } }),
    }),
  );
  // The pricing page asks the server (the landing carries the answer inside the page, which the
  // first-screen unit test covers); the landing is then reached the way a visitor clicks to it.
  await page.goto("/pricing");
  const pricing = page.locator("#pricing");
  await expect(pricing.getByRole("button", { name: "No Free Trial Today" }).first()).toBeDisabled();
  await expect(pricing.getByTestId("no-trial-today").first()).toHaveText(
    "Free trials aren't available on sport event days, and today is one (Springboks v All Blacks). Paid plans start as soon as you've paid.",
  );
  const freePlan = page.locator('#pricing-packages article[data-plan="Free Trial"]');
  await expect(freePlan.getByRole("button", { name: "No Free Trial Today" })).toBeDisabled();
  await expect(freePlan.getByTestId("no-trial-today")).toHaveText("Not available today: a sport event day (Springboks v All Blacks).");
  await expect(pricing.getByRole("button", { name: /^(Start Your Free 24-Hour Trial|Get Free Trial)$/ })).toHaveCount(0);
  await freePlan.scrollIntoViewIfNeeded();
  await shot(page, "blackout-pricing", testInfo.project.name);
  await freePlan.getByRole("button", { name: /^Free Trial/ }).click();
  const detail = page.getByRole("dialog");
  await expect(detail.getByRole("button", { name: "No Free Trial Today" })).toBeDisabled();
  await detail.getByRole("button", { name: "Close" }).click();

  await page.getByRole("link", { name: /home$/ }).first().click();
  await expect(page).toHaveURL(/\/$/);
  const heroButton = page.locator("#hero").getByRole("button", { name: "No Free Trial Today" });
  await expect(heroButton).toBeDisabled();
  await expect(page.locator("#hero").getByTestId("no-trial-today")).toContainText("today is one (Springboks v All Blacks)");
  await expect(page.locator("#hero").getByRole("button", { name: "Try Free Now" })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "blackout-hero", testInfo.project.name);

  const order = page.locator("#order");
  await expect(order.getByTestId("no-trial-today")).toBeAttached({ timeout: 15_000 });
  await order.getByTestId("no-trial-today").scrollIntoViewIfNeeded();
  await expect(order.getByTestId("no-trial-today")).toBeVisible();
  await expect(page.locator('#order-duration option[value="free-trial"]')).toBeDisabled();
  await expect(page.locator('#order-duration option[value="free-trial"]')).toHaveText(/not available today/);
  await expect(page.locator('#order-package option[value="Free Trial"]')).toBeDisabled();
  await order.getByTestId("no-trial-today").scrollIntoViewIfNeeded();
  await shot(page, "blackout-order", testInfo.project.name);
});

test("9. what the site says is true: support hours instead of 24/7, no demo review as a customer's until the owner keeps it, the EFT article", async ({
  page,
  context,
  browser,
}, testInfo) => {
  await returningVisitor(context);
  await page.goto("/pricing");
  await expect(page.getByText("Customer Support 9am-8pm, 7 days a week")).toBeVisible();
  await expect(page.getByText("24/7 Customer Support")).toHaveCount(0);

  // The demo shop's reviews are not a new shop's customers: the public page leaves them off.
  await page.goto("/testimonials");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Streaming Online 24/7")).toBeVisible();
  await expect(page.locator("main").getByText("Lerato K.")).toHaveCount(0);

  // The owner sees them marked demo, and keeps one as a real review (the other screen size's run may have kept it already).
  const owner = await ownerPage(browser, testInfo);
  await owner.goto("/admin/testimonials");
  await expect(owner.getByText("Demo: not on your site").first()).toBeVisible();
  const keep = owner.getByRole("button", { name: "Keep as real Thabo M.'s review" });
  if (await keep.count()) {
    await keep.click();
    await expect(owner.getByText("Kept as a real review")).toBeVisible();
  }
  await owner.context().close();

  await page.reload();
  await expect(page.locator("main").getByText("Thabo M.").first()).toBeVisible();
  await expect(page.locator("main").getByText("Lerato K.")).toHaveCount(0);

  await page.goto("/knowledge-base/paying-by-eft");
  await expect(page.getByRole("heading", { level: 1, name: "Paying by EFT and renewing" })).toBeVisible();
  await expect(page.locator("main")).toContainText("When card payments are switched off, that same step gives you our bank details");
  await expect(page.locator("main")).toContainText("ask us on WhatsApp or by e-mail");
});

test("10. the installed app's name comes from branding; one spelling; 'loadshedding' finds the load-shedding article", async ({
  page,
  context,
  request,
}) => {
  await returningVisitor(context);
  await page.goto("/");
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(manifestHref).toBe("/api/manifest.webmanifest");
  const manifest = await (await request.get(manifestHref as string)).json();
  const branding = (await (await request.get("/api/branding")).json()).data;
  expect(manifest.name).toBe(branding.company_name);

  await page.goto("/knowledge-base");
  await expect(page.locator("main").getByText("Help Centre", { exact: true })).toBeVisible();
  await expect(page.getByText("Help Center")).toHaveCount(0);
  for (const q of ["loadshedding", "load-shedding"]) {
    await page.getByLabel("Search the help centre").fill(q);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${q}(&|$)`));
    await expect(page.locator("[data-article]")).toHaveCount(1);
    await expect(page.locator("[data-article]").first()).toContainText("Fixing buffering and freezing");
  }
});

test("10. no 'Data Updated' toast after the visitor's own download", async ({ page, context }) => {
  await returningVisitor(context);
  await context.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Store</title>" }));
  await page.goto("/downloads");
  // The change feed is open (it opens after the first paint) and past its first moments, when
  // every change is quiet anyway (realtime.ts, QUIET_START_MS): else this test proves nothing.
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
  const handledBefore = await liveChangesHandled(page);
  await page.locator('[data-app="TiviMate"]').first().click();
  const dialog = page.getByRole("dialog");
  const counted = page.waitForResponse((r) => r.url().includes("/download") && r.request().method() === "POST");
  // The count's change reaches the page over the change feed, and the apps are read again.
  const refetched = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/downloads" && r.method() === "GET");
  const [store] = await Promise.all([context.waitForEvent("page"), dialog.getByRole("button", { name: "Download", exact: true }).click()]);
  expect((await counted).status()).toBe(200);
  await expect(page.getByText("Download Started")).toBeVisible();
  await store.close();
  await refetched;
  // ... quietly: once the page has handled that change (refetched, and decided on a toast),
  // no 'Data Updated' for the visitor's own click.
  await expect.poll(() => liveChangesHandled(page), { timeout: 10_000 }).toBeGreaterThan(handledBefore);
  await expect(page.getByText("Data Updated")).toHaveCount(0);
});
