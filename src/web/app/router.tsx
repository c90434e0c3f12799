// The routes: a root (live data), the public layout with its pages, and the admin and client
// wrappers, each page and wrapper in its own lazy chunk. React Router's declarative mode
// (`renderMatches` of `matchRoutes` inside `BrowserRouter`, `StaticRouter` for the server's first screen): the app
// loads its data through TanStack Query, never through loaders, and the data router's code was
// 18 kB gzip of every visitor's first download (docs/decisions/011-declarative-routing.md).
import type { ReactNode } from "react";
import { matchRoutes, type RouteMatch, type RouteObject, renderMatches, useLocation } from "react-router";
import { PageFallbackView } from "./layouts/page-fallback";
import { PublicLayout } from "./layouts/public-layout";
import { RootLayout } from "./layouts/root-layout";
import { codeOf, LazyPart, type Load } from "./lazy-code";
import { RouteErrorBoundary } from "./route-error";
import {
  adminIndex,
  adminPages,
  clientAccountPages,
  clientIndex,
  clientPages,
  fallbackForPath,
  type PageFallback,
  type PageRoute,
  publicPages,
} from "./route-table";
import { useDocumentTitle } from "./use-document-title";
import { useScrollRestoration } from "./use-scroll-restoration";

/** What a route's `handle` carries: the skeleton while its code loads, the tab's title, its own boundary. */
export interface RouteHandle {
  fallback?: PageFallback;
  title?: string;
  boundary?: boolean;
  load?: Load;
}

function LazyPage({ route }: { route: PageRoute }) {
  const { key } = useLocation();
  const page = <LazyPart load={route.load} fallback={<PageFallbackView fallback={route.fallback} />} />;
  return route.boundary ? (
    <RouteErrorBoundary fullScreen={false} resetKey={key}>
      {page}
    </RouteErrorBoundary>
  ) : (
    page
  );
}

function toRoute(route: PageRoute): RouteObject {
  const handle: RouteHandle = { fallback: route.fallback, title: route.title, boundary: route.boundary, load: route.load };
  // Keyed by path: another page is a new boundary, so its skeleton shows while its code loads.
  const element = <LazyPage key={route.path || "index"} route={route} />;
  return route.path === "" ? { index: true, element, handle } : { path: route.path, element, handle };
}

const loadAdminLayout: Load = async () => (await import("@/web/features/admin/admin-layout")).AdminLayout;
const loadClientLayout: Load = async () => (await import("@/web/features/client/client-layout")).ClientLayout;

/** The admin and client wrappers load with the skeleton of the page asked for. */
function WrapperFallback() {
  const { pathname } = useLocation();
  return <PageFallbackView fallback={fallbackForPath(pathname)} />;
}

function wrapper(load: Load, key: string): Pick<RouteObject, "element" | "handle"> {
  return { element: <LazyPart key={key} load={load} fallback={<WrapperFallback />} />, handle: { load } satisfies RouteHandle };
}

export const routes: RouteObject[] = [
  {
    id: "root",
    element: <RootLayout />,
    children: [
      { id: "public", element: <PublicLayout />, children: publicPages.map(toRoute) },
      { path: "admin", ...wrapper(loadAdminLayout, "admin"), children: [adminIndex, ...adminPages].map(toRoute) },
      { path: "client", ...wrapper(loadClientLayout, "client"), children: [clientIndex, ...clientPages].map(toRoute) },
      // /payment-history and /account-management: the same wrapper, at the spec's addresses.
      { id: "client-account", ...wrapper(loadClientLayout, "client"), children: clientAccountPages.map(toRoute) },
    ],
  },
];

// matchRoutes flattens and ranks the whole table on every call (a few milliseconds on a slow
// phone, part of the landing's longest task): each address is matched once, for the code to
// preload, the tab's title and the render alike.
const matchCache = new Map<string, RouteMatch[] | null>();
const MATCHES_KEPT = 50;

/** The matches of this address, root first (null: none). */
function matchesOf(pathname: string): RouteMatch[] | null {
  if (matchCache.has(pathname)) return matchCache.get(pathname) ?? null;
  const matches = matchRoutes(routes, pathname);
  if (matchCache.size >= MATCHES_KEPT) matchCache.delete(matchCache.keys().next().value as string);
  matchCache.set(pathname, matches);
  return matches;
}

/** The routes that draw this address, root first. */
export function matchedRoutes(pathname: string): RouteObject[] {
  return (matchesOf(pathname) ?? []).map((match) => match.route);
}

/** The tab's title of the page at this address (none: the business name and tagline). */
function titleOf(pathname: string): string | undefined {
  return (matchedRoutes(pathname).at(-1)?.handle as RouteHandle | undefined)?.title;
}

/**
 * Fetches the code of every lazy part that draws this address (wrapper and page), so the first
 * render draws the page itself: the server's first screen, and the browser adopting it.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const loads = matchedRoutes(pathname).flatMap((route) => (route.handle as RouteHandle | undefined)?.load ?? []);
  await Promise.all(loads.map(codeOf));
}

/** The app inside a router: scroll positions, the tab's title, the global error screen, the routes. */
export function AppRoutes(): ReactNode {
  const location = useLocation();
  useScrollRestoration();
  useDocumentTitle(titleOf(location.pathname));
  return (
    <RouteErrorBoundary fullScreen resetKey={location.key}>
      {renderMatches(matchesOf(location.pathname))}
    </RouteErrorBoundary>
  );
}
