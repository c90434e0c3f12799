// Accessibility on every face: axe-core (WCAG 2.1 A and AA, label-in-name included) finds no
// serious or critical violation on any page of the storefront, the business dashboard or the
// client portal, on the desktop and the phone layouts, each page judged once it has settled
// (hydrated, deferred parts mounted, nothing loading), and every dialog opened from a dashboard
// page's header buttons judged open (focus inside it, Escape closing it, focus back on its button).
//
// The pages come from the app's own tables, so a new page or dashboard section is covered without
// touching this file: the router's route table (src/web/app/route-table.ts), the dashboard's
// section registry (src/web/features/admin/sections.ts), and the server's list of page paths
// (src/shared/page-paths.ts), which every visited address is checked against.
//
// One browser context per layout, its sign-ins reused: the public pages signed out, then the
// dashboard as the e2e admin, then the portal as a paying client the admin made.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { isPagePath, PAGE_PATHS } from "../../src/shared/page-paths";
import { adminPages, clientAccountPages, clientIndex, clientPages, publicPages } from "../../src/web/app/route-table";
import { adminSections } from "../../src/web/features/admin/sections";
import { animationsDone, axeViolations, createClient, quietFirstVisit, settle, signInAdmin, type Violation } from "./a11y-helpers";
import { ownOrigin } from "./e2e-env";

/** Example values for the route table's placeholders. */
function examplePath(pattern: string): string {
  if (pattern === "*") return "/no-such-page";
  // a pay link that is not ours: the page that says so (a real one is visited in instant-trial.spec.ts)
  return pattern.replace(":slug", "fix-buffering").replace(":token", "not-a-real-pay-link");
}

/** Addresses that draw a page already checked under another one. */
const ALIASES = new Set(["/home"]);
const distinctPages = publicPages.filter((p) => !ALIASES.has(p.path));

/** Every public page, signed out (the two sign-in pages included), plus states worth a look. */
const PUBLIC_URLS = [
  ...distinctPages.map((p) => examplePath(p.path)),
  ...adminPages.filter((p) => !p.path.includes(":")).map((p) => `/admin/${p.path}`),
  ...clientPages.filter((p) => p.path === "login").map((p) => `/client/${p.path}`),
  "/setup-guide?device=smart-tv-samsung",
  "/knowledge-base?q=buffering",
  "/payment/failure?ref=NO_SUCH_REF",
];

/**
 * Header buttons (`[data-page-actions]`) that do their work in place instead of opening a dialog.
 * Every other header button must open one: a dialog that fails to open fails the check, and a new
 * button that opens none is listed here on purpose.
 */
const HEADER_ACTIONS_WITHOUT_DIALOG = new Set(["Run health check"]);

/** The dashboard: the overview and every section of the registry (the client page is added once a client exists). */
const ADMIN_URLS = ["/admin", ...adminSections.map((s) => `/admin/${s.path}`)];

/** The portal's tabs: its home, its own pages and the subscriber's account pages. */
const CLIENT_URLS = [
  `/client${clientIndex.path}`,
  ...clientPages.filter((p) => p.path !== "login").map((p) => `/client/${p.path}`),
  ...clientAccountPages.map((p) => p.path),
];

test("every page path the server knows is visited by this suite", () => {
  const visited = [...PUBLIC_URLS, ...ADMIN_URLS, ...CLIENT_URLS, "/admin/client/some-id", "/home"];
  for (const pattern of PAGE_PATHS) {
    const covered = visited.some((url) => isPagePath(url) && matchesPattern(pattern, url.split("?")[0]));
    expect(covered, `${pattern} is not visited by the accessibility suite`).toBe(true);
  }
});

function matchesPattern(pattern: string, pathname: string): boolean {
  if (pattern.endsWith("/*")) return pathname.startsWith(pattern.slice(0, -1));
  const want = pattern.split("/");
  const got = pathname.split("/");
  return want.length === got.length && want.every((part, i) => (part.startsWith(":") ? got[i] !== "" : part === got[i]));
}

test.describe("axe on every page", () => {
  // In order, in one worker per layout: the sign-ins are made once and reused.
  test.describe.configure({ mode: "default" });

  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser }, testInfo) => {
    context = await browser.newContext(testInfo.project.use);
    await context.addInitScript(quietFirstVisit);
    page = await context.newPage();
  });

  test.afterAll(async () => {
    await context?.close();
  });

  /** Visits each address, settles, and collects what axe finds; fails once, with everything. */
  async function checkPages(urls: string[], after?: (url: string) => Promise<Violation[]>) {
    const found: Violation[] = [];
    for (const url of urls) {
      // (not waiting for every image: settle() waits for what the page's reader sees)
      await page.goto(url, { waitUntil: "domcontentloaded" });
      await settle(page);
      found.push(...(await axeViolations(page, url)));
      if (after) found.push(...(await after(url)));
    }
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  }

  /**
   * Opens each button of the page header's actions (`[data-page-actions]`) from the keyboard:
   * each must open a dialog (those in HEADER_ACTIONS_WITHOUT_DIALOG aside); then axe on the
   * dialog, focus inside it, Escape closes it and focus returns to the button.
   */
  async function checkHeaderDialogs(url: string): Promise<Violation[]> {
    const found: Violation[] = [];
    const buttons = page.locator("main [data-page-actions] button:visible:enabled");
    const count = await buttons.count();
    for (let i = 0; i < count; i++) {
      const trigger = buttons.nth(i);
      const name = (await trigger.textContent())?.trim() || `button ${i + 1}`;
      if (HEADER_ACTIONS_WITHOUT_DIALOG.has(name)) continue;
      found.push(...(await checkDialogFrom(`${url} → ${name}`, trigger)));
    }
    return found;
  }

  /**
   * The button must open a dialog — with `named`, that one (role dialog, its accessible name): one
   * that does not open fails here, before any scan, instead of passing with nothing scanned.
   */
  async function checkDialogFrom(where: string, trigger: ReturnType<Page["locator"]>, named?: string | RegExp): Promise<Violation[]> {
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog =
      named === undefined ? page.locator('[role="dialog"], [role="alertdialog"]').last() : page.getByRole("dialog", { name: named });
    await expect(dialog, `${where}: ${named === undefined ? "no dialog opened" : `the dialog "${named}" did not open`}`).toBeVisible({
      timeout: 5_000,
    });
    await expect(dialog.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
    // Judge the dialog as it rests, not mid fade-in: a half-transparent text fails contrast.
    await animationsDone(page);
    await expect
      .poll(
        () =>
          dialog.evaluate(
            (el) =>
              getComputedStyle(el).opacity === "1" &&
              el
                .getAnimations({ subtree: true })
                .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
          ),
        { message: `${where}: the dialog is still fading in` },
      )
      .toBe(true);
    const found: Violation[] = [];
    const problem = (rule: string, help: string) => found.push({ where, rule, impact: "serious", help, targets: [] });
    if (!(await dialog.evaluate((el) => el.contains(document.activeElement))))
      problem("dialog-focus", "focus is not inside the dialog when it opens");
    found.push(...(await axeViolations(page, `${where} (dialog open)`, '[role="dialog"], [role="alertdialog"]')));
    await page.keyboard.press("Escape");
    if (
      !(await dialog.waitFor({ state: "hidden", timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      problem("dialog-escape", "Escape does not close the dialog");
      return found;
    }
    const returned = await expect
      .poll(() => trigger.evaluate((el) => el === document.activeElement), { timeout: 2_000 })
      .toBe(true)
      .then(
        () => true,
        () => false,
      );
    if (!returned) problem("dialog-focus-return", "focus does not return to the button that opened the dialog");
    return found;
  }

  test("the public pages, signed out", async () => {
    test.setTimeout(150_000);
    await checkPages(PUBLIC_URLS);
  });

  // The dashboard in two halves, each with its own time: a section per page and its dialogs is
  // a few seconds apiece, and the dashboard keeps growing.
  const half = Math.ceil(ADMIN_URLS.length / 2);

  test("the dashboard, first half: the overview and the sections with their header dialogs", async () => {
    test.setTimeout(180_000);
    await signInAdmin(context.request);
    await checkPages(ADMIN_URLS.slice(0, half), checkHeaderDialogs);
  });

  test("the dashboard, second half: the other sections with their header dialogs, a client's page and a lead", async () => {
    test.setTimeout(180_000);
    await signInAdmin(context.request);
    await checkPages(ADMIN_URLS.slice(half), checkHeaderDialogs);

    // a real client's page, and the dialogs of its daily actions
    const client = await createClient(context.request, { paid: true });
    const url = `/admin/client/${client.id}`;
    await checkPages([url], async () => {
      const found: Violation[] = [];
      const dialogs: [string, string | RegExp][] = [
        ["Edit", /^Edit /],
        ["Record payment", "Record payment"],
        ["Grant complimentary time", "Grant complimentary time"],
      ];
      for (const [name, title] of dialogs) {
        found.push(...(await checkDialogFrom(`${url} → ${name}`, page.getByRole("button", { name, exact: true }), title)));
      }
      return found;
    });

    // a lead's drawer, from the leads list: this lead's own button, since other specs add leads
    // to the top of the list while this one runs
    const leadName = `Lerato Axe ${Date.now().toString(36)}`;
    const order = await context.request.post("/api/orders", {
      headers: ownOrigin(),
      data: {
        name: leadName,
        email: `lerato.${Date.now().toString(36)}@example.co.za`,
        whatsapp: `083 ${String(Date.now()).slice(-7)}`,
        package: "3 Months",
        duration: "3 Months",
        device: "android",
        internetPlatform: "fibre",
        internetSpeed: "40 Mbps",
      },
    });
    expect(order.ok(), await order.text()).toBe(true);
    await checkPages(["/admin/leads"], async () =>
      checkDialogFrom("/admin/leads → a lead", page.getByRole("button", { name: `Open ${leadName}'s lead`, exact: true }), leadName),
    );
  });

  test("the client portal's tabs, signed in as a paying client", async () => {
    test.setTimeout(120_000);
    await signInAdmin(context.request);
    const client = await createClient(context.request, { paid: true });
    const login = await context.request.post("/api/client/login", {
      headers: ownOrigin(),
      data: { username: client.username, password: client.password },
    });
    expect(login.ok(), await login.text()).toBe(true);
    await checkPages(CLIENT_URLS);
  });
});

test.describe("reduced motion and zoom", () => {
  // Once, not per layout: each test makes the context it needs.
  test.skip(({ isMobile }) => !isMobile, "run once, in the phone project");

  test("with prefers-reduced-motion, nothing scrolls smoothly and the reviews do not rotate", async ({ browser }, testInfo) => {
    const context = await browser.newContext({ ...testInfo.project.use, reducedMotion: "reduce" });
    await context.addInitScript(quietFirstVisit);
    // every scroll the app asks for, with the behaviour it asks for
    await context.addInitScript(() => {
      const asked: string[] = [];
      (window as unknown as { scrollsAsked: string[] }).scrollsAsked = asked;
      const record = (options: unknown) => asked.push((options as ScrollIntoViewOptions | undefined)?.behavior ?? "auto");
      const intoView = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (this: Element, options?: boolean | ScrollIntoViewOptions) {
        record(typeof options === "object" ? options : undefined);
        return intoView.call(this, options);
      };
      for (const name of ["scrollTo", "scrollBy"] as const) {
        const original = window[name] as (...args: unknown[]) => void;
        window[name] = ((...args: unknown[]) => {
          record(typeof args[0] === "object" ? args[0] : undefined);
          return original.apply(window, args);
        }) as never;
      }
    });
    const page = await context.newPage();
    await page.clock.install();
    const scrollsAsked = () => page.evaluate(() => (window as unknown as { scrollsAsked: string[] }).scrollsAsked);

    await page.goto("/");
    await settle(page);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
    // the reviews: no pause button (nothing moves), and the same review after half a minute
    const carousel = page.locator('[aria-roledescription="carousel"]').first();
    await carousel.scrollIntoViewIfNeeded();
    const slide = carousel.locator('[aria-roledescription="slide"]');
    const first = await slide.getAttribute("aria-label");
    expect(first).toMatch(/^1 of \d+$/);
    await expect(carousel.getByRole("button", { name: "Stop rotating the reviews" })).toHaveCount(0);
    await page.clock.runFor(30_000);
    await expect(slide).toHaveAttribute("aria-label", first ?? "");

    // the hero's button to the order form, from the keyboard: a jump, not a glide
    const toOrder = page
      .locator("main button")
      .filter({ has: page.locator("svg.lucide-play") })
      .first();
    await toOrder.focus();
    await page.keyboard.press("Enter");
    await expect.poll(scrollsAsked).not.toEqual([]);

    // the setup guide's device buttons
    await page.goto("/setup-guide");
    await settle(page);
    await page.locator("main input[name=device]").first().focus();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(/device=/);
    await page.clock.runFor(100);

    expect((await scrollsAsked()).filter((b) => b === "smooth")).toEqual([]);
    await context.close();
  });

  test("at 200% zoom on a 390 px phone (195 CSS px), no page scrolls sideways", async ({ browser }, testInfo) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ ...testInfo.project.use, viewport: { width: 195, height: 422 }, deviceScaleFactor: 2 });
    await context.addInitScript(quietFirstVisit);
    const page = await context.newPage();
    const overflowing: string[] = [];
    const check = async (url: string) => {
      await page.goto(url);
      await settle(page);
      const sizes = await page.evaluate(() => {
        const root = document.documentElement;
        // what sticks out to the right, for the message
        const wide = [...document.querySelectorAll<HTMLElement>("body *")]
          .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1 && el.getClientRects().length > 0)
          .filter((el) => !el.closest(".sr-only") && getComputedStyle(el).position !== "fixed")
          .slice(0, 5)
          .map(
            (el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} (${Math.round(el.getBoundingClientRect().right)} px)`,
          );
        return { scroll: Math.max(root.scrollWidth, document.body.scrollWidth), client: root.clientWidth, wide };
      });
      // (1 px of sub-pixel rounding aside)
      if (sizes.scroll > sizes.client + 1) overflowing.push(`${url}: ${sizes.scroll} > ${sizes.client}: ${sizes.wide.join(", ")}`);
    };
    for (const url of ["/", "/pricing", "/order", "/support", "/knowledge-base", "/admin/login", "/client/login"]) await check(url);
    await signInAdmin(context.request);
    for (const url of ["/admin", "/admin/leads", "/admin/payments", "/admin/packages", "/admin/notices"]) await check(url);
    const client = await createClient(context.request, { paid: true });
    const login = await context.request.post("/api/client/login", {
      headers: ownOrigin(),
      data: { username: client.username, password: client.password },
    });
    expect(login.ok()).toBe(true);
    for (const url of ["/client", "/payment-history", "/account-management"]) await check(url);
    await context.close();
    expect(overflowing, overflowing.join("\n")).toEqual([]);
  });
});
