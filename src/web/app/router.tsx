// The data router: a root (live data, scroll restoration, the global error screen), the public
// layout with its pages, and the admin and client wrappers, each in its own lazy chunk.
import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createDataRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_defaultMapRouteProperties as mapRouteProperties,
  type RouteObject,
} from "react-router";
import { PageFallbackView } from "./layouts/page-fallback";
import { PublicLayout } from "./layouts/public-layout";
import { RootLayout } from "./layouts/root-layout";
import { GlobalRouteError, LocalRouteError } from "./route-error";
import {
  adminIndex,
  adminPages,
  clientAccountPages,
  clientIndex,
  clientPages,
  fallbackForPath,
  type PageRoute,
  publicPages,
} from "./route-table";

function toRoute({ path, title, fallback, boundary, load }: PageRoute): RouteObject {
  const common = {
    lazy: async () => ({ Component: await load() }),
    hydrateFallbackElement: <PageFallbackView fallback={fallback} />,
    handle: { fallback, title },
    ErrorBoundary: boundary ? LocalRouteError : undefined,
  };
  return path === "" ? { ...common, index: true } : { ...common, path };
}

const loadClientLayout = async () => ({ Component: (await import("@/web/features/client/client-layout")).ClientLayout });

/** The admin and client wrappers load with the skeleton of the page asked for. */
function WrapperFallback() {
  return <PageFallbackView fallback={fallbackForPath(window.location.pathname)} />;
}

export const routes: RouteObject[] = [
  {
    id: "root",
    Component: RootLayout,
    ErrorBoundary: GlobalRouteError,
    children: [
      { Component: PublicLayout, children: publicPages.map(toRoute) },
      {
        path: "admin",
        lazy: async () => ({ Component: (await import("@/web/features/admin/admin-layout")).AdminLayout }),
        HydrateFallback: WrapperFallback,
        children: [adminIndex, ...adminPages].map(toRoute),
      },
      {
        path: "client",
        lazy: loadClientLayout,
        HydrateFallback: WrapperFallback,
        children: [clientIndex, ...clientPages].map(toRoute),
      },
      // /payment-history and /account-management: the same wrapper, at the spec's addresses.
      { id: "client-account", lazy: loadClientLayout, HydrateFallback: WrapperFallback, children: clientAccountPages.map(toRoute) },
    ],
  },
];

/**
 * `createBrowserRouter(routes)` in two steps, each a task of its own on a slow phone: this one
 * builds the router (ranking every route); `router.initialize()` then matches the address and
 * starts loading the page. createBrowserRouter is exactly these two calls, with these options
 * (React Router 8.5: `createRouter({...}).initialize()`); it has no public way to make the router
 * without initializing it, hence the UNSAFE_ imports (docs/decisions/008-production.md).
 */
export function createRouter(): ReturnType<typeof createDataRouter> {
  return createDataRouter({ history: createBrowserHistory(), routes, mapRouteProperties, hydrationRouteProperties });
}
