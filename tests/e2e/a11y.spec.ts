// Accessibility: axe-core (WCAG 2.1 A and AA rules) finds no serious or critical violation on
// any public page, on the desktop and the phone layouts.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const PUBLIC_ROUTES = [
  "/",
  "/about",
  "/pricing",
  "/how-to-use",
  "/testimonials",
  "/stream-test",
  "/support",
  "/technical-support",
  "/setup-guide",
  "/setup-guide?device=smart-tv-samsung",
  "/privacy-policy",
  "/terms-of-service",
  "/refund-policy",
  "/knowledge-base",
  "/knowledge-base?q=buffering",
  "/knowledge-base/fix-buffering",
  "/downloads",
  "/status",
  "/releases",
  "/order",
  "/auth",
  "/payment/success",
  "/payment/failure?ref=NO_SUCH_REF",
  "/payment/cancel",
  "/no-such-page",
];

test.beforeEach(async ({ context }) => {
  // Each page on its own: no first-run notification prompt or special popup on top of it.
  await context.addInitScript(() => {
    window.localStorage.setItem("initialized", "true");
    window.sessionStorage.setItem("popupShownThisSession", "true");
  });
});

for (const route of PUBLIC_ROUTES) {
  test(`${route} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(route);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // Past the loading placeholders: axe should judge the page people read.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    await page.waitForTimeout(300);

    // Toasts come and go with live data (and are judged mid-fade); the page itself is the subject.
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .exclude("[data-sonner-toaster]")
      .analyze();
    const blocking = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
      }));
    expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
  });
}
