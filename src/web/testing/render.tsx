// Component-test helpers on react-dom/client + act (no Testing Library): render into a
// detached-then-attached container, query the DOM, wait for async UI.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";

// Tell React this is a test environment so act() flushes effects and updates.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Rendered {
  container: HTMLElement;
  text: () => string;
  unmount: () => Promise<void>;
}

const mounted = new Set<Rendered>();

export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement("div");
  document.body.appendChild(container);
  let root: Root | undefined;
  await act(async () => {
    root = createRoot(container);
    root.render(ui);
  });
  const rendered: Rendered = {
    container,
    text: () => container.textContent ?? "",
    unmount: async () => {
      await act(async () => root?.unmount());
      container.remove();
      mounted.delete(rendered);
    },
  };
  mounted.add(rendered);
  return rendered;
}

/** Unmounts everything rendered by the current test (call from afterEach). */
export async function cleanup(): Promise<void> {
  for (const r of [...mounted]) await r.unmount();
}

/** A QueryClient for tests: no garbage-collection timers left behind. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { gcTime: Number.POSITIVE_INFINITY } } });
}

/** Renders routes in a memory router with a fresh QueryClient. */
export function renderRoutes(routes: RouteObject[], initialPath = "/", queryClient = testQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  return {
    router,
    queryClient,
    rendered: render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    ),
  };
}

export async function click(element: Element | null): Promise<void> {
  if (!element) throw new Error("click: no element");
  await act(async () => {
    (element as HTMLElement).click();
  });
}

/** Types into an input the way a browser does (React and react-hook-form see an input event). */
export async function typeInto(input: Element | null, value: string): Promise<void> {
  if (!(input instanceof HTMLInputElement)) throw new Error("typeInto: no input");
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Polls until `check` stops throwing (flushing React between tries), or fails after `timeout` ms. */
export async function waitFor<T>(check: () => T, timeout = 3000): Promise<T> {
  const started = Date.now();
  let lastError: unknown;
  while (Date.now() - started < timeout) {
    try {
      return check();
    } catch (error) {
      lastError = error;
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
  throw lastError;
}

/** The button (or link) whose visible text is exactly `name`. */
export function getByRoleName(container: ParentNode, role: "button" | "link", name: string): HTMLElement {
  const selector = role === "button" ? "button" : "a";
  const found = [...container.querySelectorAll<HTMLElement>(selector)].find((el) => el.textContent?.trim() === name);
  if (!found) throw new Error(`No ${role} named "${name}"`);
  return found;
}

/** A fetch stub answering JSON per path (the part after /api); unknown paths answer 404. */
export function stubFetch(routes: Record<string, { status?: number; body: unknown } | (() => { status?: number; body: unknown })>) {
  const calls: string[] = [];
  const fetchStub = async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const key = url.pathname.replace(/^\/api/, "") + url.search;
    calls.push(key);
    const route = routes[key] ?? routes[url.pathname.replace(/^\/api/, "")];
    const answer = typeof route === "function" ? route() : route;
    if (!answer) {
      return new Response(JSON.stringify({ error: { code: "not_found", message: "Not found." } }), {
        status: 404,
        headers: { "content-type": "application/json" },
      });
    }
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetchStub as typeof fetch, calls };
}
