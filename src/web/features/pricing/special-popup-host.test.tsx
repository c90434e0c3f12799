import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Banner, Package, Special } from "@/shared/api";
import { buildPlans } from "@/shared/pricing";
import { cleanup, click, renderRoutes, stubFetch } from "@/web/testing/render";
import { SpecialPopupHost } from "./special-popup-host";
import { planForPopup, popupOrderDuration } from "./special-popup-plan";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

function pkg(n: number, name: string, price: number, duration: string): Package {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    name,
    price,
    duration,
    duration_months: Number.parseInt(duration, 10),
    features: [],
    description: "",
    is_featured: false,
    sort_order: n,
    is_active: true,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

const PACKAGES = [
  pkg(1, "Month to Month", 650, "1 Month"),
  pkg(2, "3 Months", 1650, "3 Months"),
  pkg(3, "6 Months", 3150, "6 Months"),
  pkg(4, "12 Months", 5999, "12 Months"),
];
const special = (name: string, from: number, to: number): Special => ({
  id: `s-${name}`,
  package_name: name,
  original_price: from,
  special_price: to,
  title: "",
  description: "",
});
const SPECIALS = [special("3 Months", 1650, 1450)];
const banner = (title: string, content = ""): Banner => ({
  id: `b-${title}`,
  title,
  content,
  banner_type: "special",
  is_active: true,
  sort_order: 1,
  created_at: "2026-01-01T00:00:00.000Z",
});
const SPECIAL_BANNER = banner("Special: save R200 on 3 Months", "Three months for less.");

afterEach(async () => {
  await cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  document.getElementById("order")?.remove();
});

describe("the plan a special popup is about", () => {
  const plans = buildPlans(PACKAGES, [...SPECIALS, special("12 Months", 5999, 5499)]);

  it("is the plan on special that the banner names, by package name or duration", () => {
    expect(planForPopup(SPECIAL_BANNER, plans)?.packageName).toBe("3 Months");
    expect(planForPopup(banner("A year of sport", "Our 12 Months plan is R500 off."), plans)?.packageName).toBe("12 Months");
    expect(popupOrderDuration(SPECIAL_BANNER, plans)).toBe("3 Months");
  });

  it("is none for a banner about specials in general, or about a package that is not on special: then the monthly plan (spec §4)", () => {
    expect(planForPopup(banner("Specials this week!", "Big savings on streaming."), plans)).toBeNull();
    expect(popupOrderDuration(banner("Specials this week!"), plans)).toBe("1 Month");
    // 6 Months is not on special; '13 Months' is not '3 Months'.
    expect(planForPopup(banner("6 Months for the price of 5"), plans)).toBeNull();
    expect(planForPopup(banner("13 Months deal"), plans)).toBeNull();
  });

  it("finds the name in any letter case, as a whole phrase even after a joined-on mention", () => {
    expect(planForPopup(banner("SAVE ON 3 MONTHS"), plans)?.packageName).toBe("3 Months");
    // the first mention is inside '13 Months', the second stands alone
    expect(planForPopup(banner("Not 13 Months: 3 Months, R200 off"), plans)?.packageName).toBe("3 Months");
    // joined to letters of other scripts or to digits, it is not the name
    expect(planForPopup(banner("3 Monthsé and 3 Months9"), plans)).toBeNull();
    expect(planForPopup(banner("Ω3 Months"), plans)).toBeNull();
    expect(planForPopup(banner("😀3 Months😀"), plans)?.packageName).toBe("3 Months");
  });
});

describe("SpecialPopupHost (spec §4)", () => {
  function stubApi(banners: Banner[]) {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "/packages": { body: { data: PACKAGES } },
        "/specials": { body: { data: SPECIALS } },
        "/banners": { body: { data: banners } },
      }).fetch,
    );
  }

  async function setUp(banners: Banner[]) {
    await import("./special-popup"); // so the lazy dialog resolves without waiting on the module loader
    // performance too: the wait is counted from the page's load (performance.now()), so a slow
    // machine's real milliseconds between render and the timer must not shorten the fake second.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    stubApi(banners);
    const order = document.createElement("section");
    order.id = "order";
    order.scrollIntoView = vi.fn();
    document.body.appendChild(order);
    const selected: string[] = [];
    const onSelect = (event: Event) => selected.push((event as CustomEvent<{ duration: string }>).detail.duration);
    window.addEventListener("selectDuration", onSelect);
    const advance = async (ms: number) => {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(ms);
      });
      // Let real promises (fetch answers, the lazy module) settle between timer steps.
      for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setImmediate(resolve)));
    };
    const render = () => renderRoutes([{ path: "/", element: <SpecialPopupHost /> }]).rendered;
    return { order, selected, advance, render, stop: () => window.removeEventListener("selectDuration", onSelect) };
  }
  const popup = () => document.querySelector<HTMLElement>('[data-testid="special-popup"]');
  const orderNow = (scope: HTMLElement) =>
    [...scope.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Order Now") as HTMLButtonElement;

  it("opens 1 s after load, on its own, once per browser session; Order Now selects the special it advertises", async () => {
    const { order, selected, advance, render, stop } = await setUp([SPECIAL_BANNER]);
    try {
      const first = await render();
      await advance(0);
      await advance(900);
      expect(popup()).toBeNull();
      expect(window.sessionStorage.getItem("popupShownThisSession")).toBeNull();
      await advance(150);
      expect(popup()?.textContent).toContain("Special: save R200 on 3 Months");
      expect(window.sessionStorage.getItem("popupShownThisSession")).toBe("true");

      await click(orderNow(popup() as HTMLElement));
      expect(popup()).toBeNull();
      expect(order.scrollIntoView).toHaveBeenCalled();
      await advance(500);
      expect(selected).toEqual(["3 Months"]);
      await first.unmount();

      // Same session, new page view: not again.
      await render();
      await advance(5000);
      expect(popup()).toBeNull();
    } finally {
      stop();
    }
  });

  it("selects the monthly plan for a banner about specials in general", async () => {
    const { selected, advance, render, stop } = await setUp([banner("Specials on now", "Save on selected packages this week.")]);
    try {
      await render();
      await advance(1100);
      await click(orderNow(popup() as HTMLElement));
      await advance(500);
      expect(selected).toEqual(["1 Month"]);
    } finally {
      stop();
    }
  });
});
