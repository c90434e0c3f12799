import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { cleanup, click, getByRoleName, render, waitFor } from "@/web/testing/render";
import { AppErrorBoundary } from "./app-error-boundary";
import { RouteErrorBoundary } from "./route-error";

const HEADING = "Something went wrong";
const TEXT = "We encountered an unexpected error. This has been logged and we'll work to fix it.";

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await cleanup();
  consoleError.mockRestore();
});

const failing = { now: true };

/** Throws while `failing.now` is true. */
function Flaky() {
  if (failing.now) throw new Error("boom");
  return <p>All good</p>;
}

function makeFlaky() {
  failing.now = true;
  return { failing, Flaky };
}

describe("the global error screen (AppErrorBoundary)", () => {
  it("shows the spec's texts and buttons, and writes the error only to the console", async () => {
    const { Flaky } = makeFlaky();
    const { container } = await render(
      <AppErrorBoundary>
        <Flaky />
      </AppErrorBoundary>,
    );
    expect(container.querySelector("h1")?.textContent).toBe(HEADING);
    expect(container.querySelector("p")?.textContent).toBe(TEXT);
    expect(getByRoleName(container, "button", "Try Again")).toBeTruthy();
    expect(getByRoleName(container, "button", "Go Home")).toBeTruthy();
    expect(container.textContent).not.toContain("boom");
    expect(consoleError.mock.calls.some((args) => args.some((a) => a instanceof Error && a.message === "boom"))).toBe(true);
  });

  it("Try Again clears the error and renders the children again", async () => {
    const { failing, Flaky } = makeFlaky();
    const { container, text } = await render(
      <AppErrorBoundary>
        <Flaky />
      </AppErrorBoundary>,
    );
    expect(text()).toContain(HEADING);
    failing.now = false;
    await click(getByRoleName(container, "button", "Try Again"));
    expect(text()).toBe("All good");
  });

  it("Try Again shows the screen again when the error persists", async () => {
    const { Flaky } = makeFlaky();
    const { container, text } = await render(
      <AppErrorBoundary>
        <Flaky />
      </AppErrorBoundary>,
    );
    await click(getByRoleName(container, "button", "Try Again"));
    expect(text()).toContain(HEADING);
  });
});

describe("the pages' error screens (RouteErrorBoundary)", () => {
  /** The app's shape: a boundary around every route, keyed by the address (as AppRoutes does). */
  function Boundaries({ children }: { children: ReactNode }) {
    const location = useLocation();
    return (
      <RouteErrorBoundary fullScreen resetKey={location.key}>
        {children}
      </RouteErrorBoundary>
    );
  }

  it("full screen: Try Again re-renders the failed page", async () => {
    const { failing, Flaky } = makeFlaky();
    const { container, text } = await render(
      <MemoryRouter>
        <Boundaries>
          <Flaky />
        </Boundaries>
      </MemoryRouter>,
    );
    await waitFor(() => expect(text()).toContain(HEADING));
    failing.now = false;
    await click(getByRoleName(container, "button", "Try Again"));
    await waitFor(() => expect(text()).toBe("All good"));
  });

  it("full screen: Go Home goes to the root path and draws it", async () => {
    const { Flaky } = makeFlaky();
    let pathname = "";
    function Where() {
      pathname = useLocation().pathname;
      return null;
    }
    const { container, text } = await render(
      <MemoryRouter initialEntries={["/broken"]}>
        <Where />
        <Boundaries>
          <Routes>
            <Route index element={<p>Home page</p>} />
            <Route path="broken" element={<Flaky />} />
          </Routes>
        </Boundaries>
      </MemoryRouter>,
    );
    await waitFor(() => expect(text()).toContain(HEADING));
    await click(getByRoleName(container, "button", "Go Home"));
    await waitFor(() => expect(text()).toBe("Home page"));
    expect(pathname).toBe("/");
  });

  it("in the page's place, it keeps the layout around the failed page", async () => {
    const { Flaky } = makeFlaky();
    const { container } = await render(
      <MemoryRouter initialEntries={["/technical-support"]}>
        <Boundaries>
          <div>
            <nav>Site navigation</nav>
            <RouteErrorBoundary fullScreen={false}>
              <Flaky />
            </RouteErrorBoundary>
          </div>
        </Boundaries>
      </MemoryRouter>,
    );
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe(HEADING));
    expect(container.querySelector("nav")?.textContent).toBe("Site navigation");
  });
});
