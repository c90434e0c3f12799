// Test helpers for the dashboard's component tests: a JSON API stub that records requests,
// typing into controlled inputs, the message tied to a field, and a happy-dom gap filled for
// react-hook-form's selects.
import { QueryClientProvider } from "@tanstack/react-query";
import { act, type ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import { render, testQueryClient } from "@/web/testing/render";

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status?: number; body: unknown };

/**
 * Answers `routes['METHOD /api/path']` (or 'GET' when no method is named), or more precisely
 * `routes['METHOD /api/path?query']` when the query matters; records each request.
 */
export function stubApi(routes: Record<string, Answer | ((body: unknown) => Answer)>) {
  const requests: Recorded[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const path = url.pathname;
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, path, body });
    const exact = url.search
      ? (routes[`${method} ${path}${url.search}`] ?? (method === "GET" ? routes[path + url.search] : undefined))
      : undefined;
    const route = exact ?? routes[`${method} ${path}`] ?? (method === "GET" ? routes[path] : undefined);
    const answer = typeof route === "function" ? route(body) : route;
    const json = answer ?? { status: 404, body: { error: { code: "not_found", message: "Not found." } } };
    return new Response(JSON.stringify(json.body), { status: json.status ?? 200, headers: { "content-type": "application/json" } });
  });
  return requests;
}

export function renderWithClient(ui: ReactNode, path = "/") {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Types into a React-controlled input or textarea. */
export async function typeInto(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  const proto =
    element instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : element instanceof HTMLSelectElement
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  await act(async () => {
    setter?.call(element, value);
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
}

/** The input whose <label> reads `label` (the Field component ties them with an id). */
export function inputByLabel<T extends HTMLElement = HTMLInputElement>(root: ParentNode, label: string): T {
  const found = [...root.querySelectorAll("label")].find((l) => l.textContent?.replace("*", "").trim() === label);
  const id = found?.getAttribute("for");
  const input = id ? document.getElementById(id) : null;
  if (!input) throw new Error(`No field labelled "${label}"`);
  return input as T;
}

/** The error message shown beside a field (its aria-describedby '-error' element). */
export function fieldError(input: HTMLElement): string | null {
  const id = input
    .getAttribute("aria-describedby")
    ?.split(" ")
    .find((part) => part.endsWith("-error"));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

/**
 * happy-dom has no HTMLSelectElement.size nor HTMLOptionElement.defaultSelected, so
 * react-hook-form takes every registered <select> for one the user changed before it mounted
 * and keeps its first option instead of the form's default value. Real browsers have both; call
 * this once in a test file whose forms register selects.
 */
export function shimSelectDefaults(): void {
  if (!("size" in HTMLSelectElement.prototype))
    Object.defineProperty(HTMLSelectElement.prototype, "size", {
      configurable: true,
      get(this: HTMLSelectElement) {
        return Number(this.getAttribute("size") ?? 0);
      },
    });
  if (!("defaultSelected" in HTMLOptionElement.prototype))
    Object.defineProperty(HTMLOptionElement.prototype, "defaultSelected", {
      configurable: true,
      get(this: HTMLOptionElement) {
        return this.hasAttribute("selected");
      },
    });
}
