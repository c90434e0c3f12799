import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { HERO_DEFAULTS, HeroSection } from "./hero-section";

const heroContent = {
  id: "h",
  section_name: "hero",
  title: "Stream the big match tonight",
  description: "Sport, series and movies.",
  content: { features: ["Every PSL match"], cta_primary: "Start free", rating_text: "Loved in Gqeberha" },
  is_active: true,
  sort_order: 1,
};

function renderHero(sections: unknown[] | null) {
  vi.stubGlobal(
    "fetch",
    stubFetch(sections ? { "/content?section=hero": { body: { data: sections } } } : { "/content?section=hero": { status: 500, body: {} } })
      .fetch,
  );
  return renderRoutes([{ path: "/", element: <HeroSection /> }]).rendered;
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  document.getElementById("order")?.remove();
});

describe("HeroSection", () => {
  it("shows the hero content record: title, description, calls to action, features, star line", async () => {
    const { container } = await renderHero([heroContent]);
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Stream the big match tonight"));
    expect(container.textContent).toContain("Sport, series and movies.");
    expect(getByRoleName(container, "button", "Start free")).toBeTruthy();
    // cta_secondary missing → the spec's default
    expect(container.textContent).toContain("Start Streaming Today");
    expect(container.textContent).toContain("Every PSL match");
    expect(container.querySelector('[aria-label="5 out of 5 stars"]')?.querySelectorAll("svg")).toHaveLength(5);
    expect(container.textContent).toContain("Loved in Gqeberha");
  });

  it("without the owner's own rating line there are no stars and no rating claim, only the plain points", async () => {
    const { container } = await renderHero([{ ...heroContent, content: { features: ["Every PSL match"] } }]);
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Stream the big match tonight"));
    expect(container.querySelector('[aria-label="5 out of 5 stars"]')).toBeNull();
    expect(container.textContent).toContain("No contracts · Pay in rand · Support on WhatsApp");
    expect(container.textContent).not.toMatch(/rated|stars/i);
  });

  it("falls back to the defaults when the content cannot be read", async () => {
    const { container } = await renderHero(null);
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe(HERO_DEFAULTS.title), 8000);
    expect(container.textContent).toContain("Try Free Now");
    expect(container.textContent).toContain("Start Streaming Today");
  }, 10_000);

  it("the free-trial button scrolls to #order and 500 ms later emits selectDuration free-trial; the other only scrolls", async () => {
    const order = document.createElement("section");
    order.id = "order";
    order.scrollIntoView = vi.fn();
    document.body.appendChild(order);
    const events: unknown[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent).detail);
    window.addEventListener("selectDuration", listener);
    try {
      const { container } = await renderHero([]);
      await click(getByRoleName(container, "button", "Start Streaming Today"));
      expect(order.scrollIntoView).toHaveBeenCalledTimes(1);

      await click(getByRoleName(container, "button", "Try Free Now"));
      expect(order.scrollIntoView).toHaveBeenCalledTimes(2);
      expect(events).toEqual([]);
      await waitFor(() => expect(events).toEqual([{ duration: "free-trial" }]), 1500);
    } finally {
      window.removeEventListener("selectDuration", listener);
    }
  });
});
