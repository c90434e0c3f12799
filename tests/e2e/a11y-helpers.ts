// What the accessibility specs share: axe with the rules we hold every page to, waiting for a
// page to settle before judging it, keyboard steps that check focus stays visible, and the real
// accounts (admin, a paying client) they sign in with.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { e2eAdmin, ownOrigin } from "./e2e-env";
import { choosePassword, uniqueWhatsApp } from "./owner-queue";

export interface Violation {
  where: string;
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Serious and critical violations of WCAG 2.1 A/AA on the page as it is now. Label-in-name
 * (WCAG 2.5.3) is one of axe's "experimental" rules, off unless asked for: we ask.
 * `include` narrows the check (an open dialog); toasts come and go with live data (and are
 * judged mid-fade), so they are left out.
 */
export async function axeViolations(page: Page, where: string, include?: string): Promise<Violation[]> {
  let builder = new AxeBuilder({ page })
    // (only violations are needed in full: axe then lists one node per pass, which is quicker)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .exclude("[data-sonner-toaster]");
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      where,
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 6).map((n) => `${n.target.join(" ")} — ${n.html.slice(0, 160)}`),
    }));
}

/**
 * Waits until the page is the one people read: the app has taken over the server-drawn HTML
 * (hydrated), every deferred part below the fold has mounted (a Tab press mounts them all, as
 * for a keyboard user), and no loading placeholder is left.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById("root");
    return Boolean(root && Object.keys(root).some((key) => key.startsWith("__reactContainer")));
  });
  // Mount the deferred parts without moving focus (lib/deferred-mount.ts listens for Tab).
  await page.evaluate(() => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab" })));
  await expect(page.locator("h1").first()).toBeVisible({ timeout: 15_000 });
  const loading = page.locator('[aria-busy="true"], [data-skeleton]');
  await expect(loading).toHaveCount(0, { timeout: 15_000 });
  // a moment for what the last answers start (a section's own reads), then nothing loading again
  await page.waitForTimeout(150);
  await expect(loading).toHaveCount(0, { timeout: 15_000 });
}

/**
 * Waits for the page's finite animations (a dialog's fade and zoom in, a toast sliding in) to
 * finish; endless ones (a spinner) are left running.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Before any page script: no first-run notification prompt or special popup over the pages. */
export const quietFirstVisit = () => {
  window.localStorage.setItem("initialized", "true");
  window.sessionStorage.setItem("popupShownThisSession", "true");
};

/** The focused element, described, and whether a focus indicator is drawn on it. */
export async function focusState(page: Page): Promise<{ tag: string; text: string; visible: boolean; indicator: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: "body", text: "", visible: false, indicator: "nothing focused" };
    // A ring: a box-shadow with no offset or blur and a spread (decorative drop shadows do not count).
    const ring = (shadow: string) =>
      [...shadow.matchAll(/((?:rgba?|oklab|oklch|color)\([^)]*\)|#[0-9a-f]+)\s+0px 0px 0px ([\d.]+)px/gi)].some(
        ([, color, spread]) => Number(spread) > 0 && !/^rgba\(0, 0, 0, 0\)$/.test(color) && !/\/ 0\)$/.test(color),
      );
    const drawn = (style: CSSStyleDeclaration) =>
      (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0 && style.outlineColor !== "rgba(0, 0, 0, 0)") ||
      ring(style.boxShadow);
    // A date or time field's focus sits in its day, month or year part, which the browser
    // highlights itself (Chromium drops :focus from the field between those parts).
    if (el instanceof HTMLInputElement && /^(date|time|datetime-local|month|week)$/.test(el.type)) {
      return { tag: "input", text: el.id, visible: true, indicator: "the browser's highlighted date part" };
    }
    const own = getComputedStyle(el);
    const after = getComputedStyle(el, "::after");
    const visible = drawn(own) || drawn(after);
    const indicator = `outline ${own.outlineStyle} ${own.outlineWidth}; box-shadow ${own.boxShadow}`;
    const text = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("name") || el.id || "").trim().slice(0, 60);
    return { tag: el.tagName.toLowerCase(), text, visible, indicator };
  });
}

/** The focused element has a visible focus indicator. */
export async function expectFocusVisible(page: Page, step: string): Promise<void> {
  const state = await focusState(page);
  expect(state.visible, `${step}: focus on <${state.tag}> "${state.text}" is not visible (${state.indicator})`).toBe(true);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking at every stop that focus is
 * visible. Fails after `max` presses.
 */
export async function tabTo(page: Page, target: Locator, { max = 60, backwards = false } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const state = await focusState(page);
    if (state.tag !== "body")
      expect(state.visible, `Tab stop ${i + 1}: <${state.tag}> "${state.text}" shows no focus (${state.indicator})`).toBe(true);
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The owner's dashboard in its own browser (same screen size as the project), signed in. */
export async function ownerPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext(testInfo.project.use);
  await signInAdmin(context.request);
  // No network: wa.me (and anything else outside) answers with an empty page.
  await context.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>WhatsApp</title>" }));
  return context.newPage();
}

/** Signs the request context (and so its browser context) in as the e2e admin. */
export async function signInAdmin(request: APIRequestContext): Promise<void> {
  const login = await request.post("/api/admin/login", { data: e2eAdmin, headers: ownOrigin() });
  expect(login.ok(), await login.text()).toBe(true);
}

interface PackageRow {
  id: string;
  name: string;
  price: number;
}

export async function packageNamed(request: APIRequestContext, name: string): Promise<PackageRow> {
  const { data } = (await (await request.get("/api/packages")).json()) as { data: PackageRow[] };
  const found = data.find((p) => p.name === name) ?? data[0];
  if (!found) throw new Error("no packages");
  return found;
}

/**
 * A new client on 'Month to Month' (unique per call), made by the admin whose session
 * `request` carries; `paid` records their first payment, so they are active with a line.
 */
export async function createClient(request: APIRequestContext, { paid }: { paid: boolean }) {
  const pkg = await packageNamed(request, "Month to Month");
  const username = `a11y-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const whatsapp = uniqueWhatsApp();
  const created = await request.post("/api/admin/clients", {
    headers: ownOrigin(),
    data: {
      username,
      full_name: "Naledi Access",
      email: `${username}@example.test`,
      whatsapp,
      communication_method: "whatsapp",
      package_id: pkg.id,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as { client: { id: string } };
  const id = body.client.id;
  const password = await choosePassword(request, whatsapp);
  if (paid) {
    const payment = await request.post("/api/admin/payments", {
      headers: ownOrigin(),
      data: { client_id: id, package_id: pkg.id, amount: pkg.price, note: "Cash (accessibility suite)" },
    });
    expect(payment.ok(), await payment.text()).toBe(true);
  }
  return { id, username, password, pkg };
}

/** How many live changes the page has handled: refetched and decided on 'Data Updated' (web/lib/realtime.ts). */
export async function liveChangesHandled(page: Page): Promise<number> {
  return page.evaluate(() => Number(document.documentElement.dataset.liveHandled ?? "0"));
}
