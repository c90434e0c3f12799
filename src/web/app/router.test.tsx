import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, matchRoutes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, render, stubFetch, testQueryClient, waitFor } from "@/web/testing/render";
import { publicPages } from "./route-table";
import { AppRoutes, type RouteHandle, routes } from "./router";

type Matched = { route: { path?: string; handle?: RouteHandle } };

/** The app's routes as the browser draws them, at this address. */
function renderApp(path: string) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function leaf(pathname: string) {
  const matches = matchRoutes(routes, pathname) as Matched[] | null;
  if (!matches) throw new Error(`no route for ${pathname}`);
  return { route: matches[matches.length - 1].route, parents: matches.slice(0, -1).map((m) => m.route.path) };
}

// Spec §2's route table, each with the skeleton it shows while loading.
const SPEC_ROUTES: [string, string][] = [
  ["/", "loading"],
  ["/home", "loading"],
  ["/about", "card"],
  ["/pricing", "card"],
  ["/how-to-use", "card"],
  ["/testimonials", "card"],
  ["/stream-test", "card"],
  ["/support", "card"],
  ["/technical-support", "list"],
  ["/setup-guide", "list"],
  ["/privacy-policy", "list"],
  ["/terms-of-service", "list"],
  ["/refund-policy", "list"],
  ["/admin/login", "form"],
  ["/admin", "dashboard"],
  ["/admin/clients", "dashboard"],
  ["/admin/content/hero", "dashboard"],
  ["/admin/client/0b6f", "table"],
  ["/client/login", "form"],
  ["/client-password-reset", "form"],
  ["/client", "dashboard"],
  ["/client/specials", "card"],
  ["/knowledge-base", "list"],
  ["/account-management", "form"],
  ["/downloads", "card"],
  ["/status", "list"],
  ["/releases", "list"],
  ["/order", "form"],
  ["/payment-history", "table"],
  ["/auth", "form"],
  ["/payment/success", "card"],
  ["/payment/failure", "card"],
  ["/payment/cancel", "card"],
];

describe("the route table", () => {
  it.each(SPEC_ROUTES)("%s is a lazy page with the %s placeholder", (path, fallback) => {
    const { route } = leaf(path);
    expect(route.path).not.toBe("*");
    expect(route.handle?.fallback).toBe(fallback);
  });

  it("anything else is the not-found page", () => {
    expect(leaf("/no-such-page").route.path).toBe("*");
    expect(leaf("/client/unknown/deeper").route.path).toBe("*");
  });

  it("puts /admin/* and /client/* inside their own wrappers", () => {
    expect(leaf("/admin/login").parents).toContain("admin");
    expect(leaf("/admin/payments/today").parents).toContain("admin");
    expect(leaf("/client/specials").parents).toContain("client");
    expect(leaf("/client-password-reset").parents).not.toContain("client");
  });

  it("shows /payment-history and /account-management in the client wrapper, at their own addresses", () => {
    for (const path of ["/payment-history", "/account-management"]) {
      const ids = (matchRoutes(routes, path) ?? []).map((m) => m.route.id);
      expect(ids, path).toContain("client-account");
    }
    expect(matchRoutes(routes, "/downloads")?.map((m) => m.route.id)).not.toContain("client-account");
  });

  it("gives the spec's error-boundary pages a local boundary, and not the others", () => {
    const bounded = [
      "/client",
      "/client/specials",
      "/account-management",
      "/payment-history",
      "/client-password-reset",
      "/technical-support",
      "/setup-guide",
    ];
    for (const path of bounded) expect(leaf(path).route.handle?.boundary, path).toBe(true);
    for (const path of ["/", "/pricing", "/status"]) expect(leaf(path).route.handle?.boundary, path).toBeFalsy();
  });
});

describe("rendering pages through the router", () => {
  afterEach(async () => {
    await cleanup();
    vi.unstubAllGlobals();
  });

  const api = () =>
    stubFetch({
      "/branding": { body: { data: { company_name: "Kasi Stream", whatsapp_number: "082 123 4567", support_email: "help@kasi.test" } } },
      "/status": {
        body: { overall: "down", data: [{ key: "streaming", status: "down" }], components: [], incidents: [], checked_at: null },
      },
      "/packages": { body: { data: [] } },
      "/specials": { body: { data: [] } },
    });

  it("the landing page renders the sections in the spec's order, with branding from the API", async () => {
    vi.stubGlobal("fetch", api().fetch);
    // The sections below the fold mount one per idle period: here each period comes at once.
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => setTimeout(callback, 0));
    const { container } = await renderApp("/");
    await waitFor(() => expect(container.querySelector("#order h2")).toBeTruthy(), 5000);
    const ids = [...container.querySelectorAll("main section[id]")].map((s) => s.id);
    // Spec §2: hero, about, pricing, stream test, support, order form (how-to-use and testimonials in between).
    expect(ids).toEqual(["hero", "about", "pricing", "how-to-use", "stream-test", "testimonials", "support", "order"]);
    expect(container.querySelector('#stream-test a[href="/stream-test"]')).toBeTruthy();
    expect(container.querySelector('#support a[href="/support"]')).toBeTruthy();
    expect(container.querySelector("#pricing-packages")).toBeTruthy();
    await waitFor(() => expect(container.querySelector("header")?.textContent).toContain("Kasi Stream"));
    // The navigation's status icon follows GET /api/status (one component down → down).
    await waitFor(() => expect(container.querySelector('header [data-status="down"]')).toBeTruthy());
    expect(document.title).toBe("Kasi Stream");
    // The WhatsApp order link is built from branding's number.
    await waitFor(() => expect(container.querySelector('#order a[href^="https://wa.me/27821234567"]')).toBeTruthy(), 5000);
  });

  it("an unknown address shows the not-found page with links home and to the help centre", async () => {
    vi.stubGlobal("fetch", api().fetch);
    const { container } = await renderApp("/nowhere");
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("We couldn't find that page"), 5000);
    await waitFor(() => expect(document.title).toBe("Page not found · Kasi Stream"));
    const hrefs = [...container.querySelectorAll("main a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(expect.arrayContaining(["/", "/knowledge-base"]));
  });

  it("/admin renders inside the admin wrapper, without the public navigation", async () => {
    const admin = { id: "a1", email: "admin@kasi.test", name: "Admin" };
    const signedIn = stubFetch({
      "/admin/session": { body: { success: true, admin, expiresAt: "2099-01-01T00:00:00.000Z" } },
      "/admin/packages": { body: { data: [] } },
    });
    vi.stubGlobal("fetch", signedIn.fetch);
    const { container } = await renderApp("/admin/packages");
    await waitFor(() => expect(container.querySelector("h1")?.textContent).toBe("Packages"), 5000);
    expect(container.textContent).toContain("Business Dashboard");
    expect(container.querySelector('nav[aria-label="Main"]')).toBeNull();
  });
});

describe("a page whose code fails to load", () => {
  afterEach(async () => {
    await cleanup();
    vi.unstubAllGlobals();
  });

  it("shows the error screen in the page's place with the navigation kept, and Try Again loads the code again", async () => {
    vi.stubGlobal("fetch", stubFetch({ "/branding": { body: { data: { company_name: "Kasi Stream" } } } }).fetch);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const page = publicPages.find((p) => p.path === "/technical-support")!;
    const original = page.load;
    let attempts = 0;
    page.load = async () => {
      attempts += 1;
      if (attempts === 1) throw new SyntaxError("Unexpected token '<'");
      return () => <h1>Technical support page</h1>;
    };
    try {
      const { container } = await renderApp("/technical-support");
      await waitFor(() => expect(container.querySelector("main h1")?.textContent).toBe("Something went wrong"), 5000);
      expect(container.querySelector('nav[aria-label="Main"]')).toBeTruthy();
      expect(attempts).toBe(1);
      await click(getByRoleName(container, "button", "Try Again"));
      await waitFor(() => expect(container.querySelector("main h1")?.textContent).toBe("Technical support page"));
      expect(attempts).toBe(2);
    } finally {
      page.load = original;
      consoleError.mockRestore();
    }
  });
});
