// Component tests use Testing Library (@testing-library/react): this file only adds
// what our pages need around it — a QueryClient for tests, a memory router, a fetch stub — and
// keeps the few short names older tests call, each a one-line use of Testing Library. New tests
// import from "@testing-library/react" directly (docs/how-to.md, "A page").
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, cleanup as rtlCleanup, render as rtlRender, waitFor as rtlWaitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";

export interface Rendered {
  container: HTMLElement;
  text: () => string;
  unmount: () => Promise<void>;
}

/** Testing Library's render, then one turn for effects that start fetching on mount. */
export async function render(ui: ReactNode): Promise<Rendered> {
  const result = rtlRender(ui);
  await act(async () => {});
  return {
    container: result.container,
    text: () => result.container.textContent ?? "",
    unmount: async () => result.unmount(),
  };
}

/** Unmounts everything rendered by the current test (call from afterEach). */
export async function cleanup(): Promise<void> {
  rtlCleanup();
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
    fireEvent.click(element);
  });
}

/** Types into an input the way a browser does (React and react-hook-form see an input event). */
export async function typeInto(input: Element | null, value: string): Promise<void> {
  if (!(input instanceof HTMLInputElement)) throw new Error("typeInto: no input");
  await act(async () => {
    fireEvent.input(input, { target: { value } });
  });
}

/** Testing Library's waitFor: retries `check` until it stops throwing, or fails after `timeout` ms. */
export function waitFor<T>(check: () => T, timeout = 3000): Promise<T> {
  return rtlWaitFor(check, { timeout });
}

/** The button (or link) whose visible text is exactly `name`. */
export function getByRoleName(container: ParentNode, role: "button" | "link", name: string): HTMLElement {
  return within(container as HTMLElement).getByRole(role, { name: (_accessible, element) => element.textContent?.trim() === name });
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
