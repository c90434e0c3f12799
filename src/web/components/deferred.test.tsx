// Below-the-fold parts mount after the first screen: at idle after load, when near the view,
// or all at once when something scrolls within the page.
import { act } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountAllDeferred, resetDeferredMount } from "@/web/lib/deferred-mount";
import { scrollToSection } from "@/web/lib/scroll";
import { cleanup, render, waitFor } from "@/web/testing/render";
import { Deferred } from "./deferred";

afterEach(async () => {
  await cleanup();
  resetDeferredMount();
  vi.unstubAllGlobals();
});

function page() {
  return (
    <>
      <h1>Hero</h1>
      <Deferred placeholder={(ref) => <section id="pricing" ref={ref} aria-busy="true" />}>
        <section id="pricing">Packages</section>
      </Deferred>
      <Deferred placeholder={(ref) => <section id="order" ref={ref} aria-busy="true" />}>
        <section id="order">Order form</section>
      </Deferred>
    </>
  );
}

describe("deferred parts of a page", () => {
  it("hold their place and anchor id, then mount one per idle period, in page order", async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
    const { container } = await render(page());
    expect(container.querySelector("#pricing")?.getAttribute("aria-busy")).toBe("true");
    expect(container.textContent).toBe("Hero");

    act(() => idle.shift()?.()); // first idle period: the pricing section
    await waitFor(() => expect(container.textContent).toBe("HeroPackages"));
    expect(container.querySelector("#order")?.getAttribute("aria-busy")).toBe("true");
    act(() => idle.shift()?.());
    await waitFor(() => expect(container.textContent).toBe("HeroPackagesOrder form"));
  });

  it("all mount at once when something scrolls within the page, and the target stays findable", async () => {
    vi.stubGlobal("requestIdleCallback", () => 0);
    const { container } = await render(page());
    expect(container.textContent).toBe("Hero");
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    let found = false;
    act(() => {
      found = scrollToSection("order");
    });
    expect(found).toBe(true);
    expect(scrolled).toHaveBeenCalled();
    await waitFor(() => expect(container.textContent).toBe("HeroPackagesOrder form"));
  });

  it("load their code first when preparing, and the next part waits for that", async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
    let codeArrives: () => void = () => {};
    const prepare = vi.fn(() => new Promise<void>((resolve) => (codeArrives = resolve)));
    const { container } = await render(
      <>
        <Deferred prepare={prepare} placeholder={(ref) => <section id="pricing" ref={ref} aria-busy="true" />}>
          <section id="pricing">Packages</section>
        </Deferred>
        <Deferred placeholder={(ref) => <section id="order" ref={ref} aria-busy="true" />}>
          <section id="order">Order form</section>
        </Deferred>
      </>,
    );
    act(() => idle.shift()?.());
    expect(prepare).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    expect(container.textContent).toBe("");
    expect(idle).toHaveLength(0); // the order form waits for the pricing section's code
    await act(async () => codeArrives());
    await waitFor(() => expect(container.textContent).toBe("Packages"));
    await waitFor(() => expect(idle).toHaveLength(1));
    act(() => idle.shift()?.());
    await waitFor(() => expect(container.textContent).toBe("PackagesOrder form"));
  });

  it("a part added after everything mounted shows at once", async () => {
    mountAllDeferred();
    const { container } = await render(page());
    expect(container.textContent).toBe("HeroPackagesOrder form");
  });
});
