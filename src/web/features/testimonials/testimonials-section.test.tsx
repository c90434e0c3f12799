import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Testimonial } from "@/shared/api";
import { cleanup, click, renderRoutes, stubFetch } from "@/web/testing/render";
import { TESTIMONIALS_DEFAULTS } from "./testimonials-content";
import { TestimonialsSection } from "./testimonials-section";

function review(n: number, name: string): Testimonial {
  return {
    id: `t${n}`,
    client_name: name,
    location: "Soweto, Gauteng",
    content: `Review number ${n}`,
    rating: n === 3 ? 4 : 5,
    is_featured: n === 1,
    sort_order: n,
    created_at: "2026-01-01T00:00:00.000Z",
  };
}

const REVIEWS = [review(1, "Thabo M."), review(2, "Lerato K."), review(3, "Pieter V.")];

function slideText(): string {
  return document.querySelector('[data-testid="testimonial-slide"]')?.textContent ?? "";
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setImmediate(resolve)));
}

function reducedMotion(reduce: boolean) {
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes("prefers-reduced-motion"),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

async function renderSection(testimonials: Testimonial[] = REVIEWS) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  vi.stubGlobal(
    "fetch",
    stubFetch({ "/testimonials": { body: { data: testimonials } }, "/content?section=testimonials": { body: { data: [] } } }).fetch,
  );
  const rendered = await renderRoutes([{ path: "/", element: <TestimonialsSection showFullPageLink /> }]).rendered;
  await advance(0);
  await advance(0);
  return rendered;
}

afterEach(async () => {
  await cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("TestimonialsSection", () => {
  it("advances every 6 s, cycling, with the mascot 'Online 24/7', the quotes, the promise and the full-page link", async () => {
    reducedMotion(false);
    const { container, text } = await renderSection();
    expect(slideText()).toContain("Review number 1");
    expect(slideText()).toContain("Thabo M.");
    expect(container.querySelector('[aria-label="5 out of 5 stars"]')).not.toBeNull();
    expect(container.querySelector("figcaption")?.textContent).toContain("Online 24/7");
    expect(container.querySelector("figure img")?.getAttribute("src")).toBe("/images/mascot.svg");
    for (const quote of TESTIMONIALS_DEFAULTS.quotes) expect(text()).toContain(quote);
    expect(text()).toContain(TESTIMONIALS_DEFAULTS.promise);
    expect(container.querySelector('a[href="/testimonials"]')?.textContent).toContain("View Full Page");

    await advance(5999);
    expect(slideText()).toContain("Review number 1");
    await advance(1);
    expect(slideText()).toContain("Review number 2");
    await advance(6000);
    expect(slideText()).toContain("Review number 3");
    expect(container.querySelector('[aria-label="4 out of 5 stars"]')).not.toBeNull();
    await advance(6000);
    expect(slideText()).toContain("Review number 1");
  });

  it("pauses while the pointer is on it, and the pause button stops it", async () => {
    reducedMotion(false);
    const { container } = await renderSection();
    const carousel = container.querySelector('[aria-roledescription="carousel"]') as HTMLElement;
    await act(async () => {
      carousel.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
    });
    await advance(20_000);
    expect(slideText()).toContain("Review number 1");
    await act(async () => {
      carousel.dispatchEvent(new PointerEvent("pointerout", { bubbles: true }));
    });
    await advance(6000);
    expect(slideText()).toContain("Review number 2");

    await click(container.querySelector('[aria-label="Stop rotating the reviews"]'));
    await advance(20_000);
    expect(slideText()).toContain("Review number 2");
  });

  it("with reduced motion it never turns on its own, but the controls work", async () => {
    reducedMotion(true);
    const { container } = await renderSection();
    await advance(30_000);
    expect(slideText()).toContain("Review number 1");
    expect(container.querySelector('[aria-label="Stop rotating the reviews"]')).toBeNull();
    await click(container.querySelector('[aria-label="Next review"]'));
    expect(slideText()).toContain("Review number 2");
    await click(container.querySelector('[aria-label="Previous review"]'));
    await click(container.querySelector('[aria-label="Previous review"]'));
    expect(slideText()).toContain("Review number 3");
    await click(container.querySelector('[aria-label="Review 1 of 3"]'));
    expect(slideText()).toContain("Review number 1");
  });

  it("with no published reviews, the business's own statements rotate instead", async () => {
    reducedMotion(false);
    await renderSection([]);
    expect(slideText()).toContain(TESTIMONIALS_DEFAULTS.quotes[0]);
    await advance(6000);
    expect(slideText()).toContain(TESTIMONIALS_DEFAULTS.quotes[1]);
  });
});
