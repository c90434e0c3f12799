import { lazy } from "react";
import { Outlet } from "react-router";
import { AfterHydration } from "@/web/components/after-hydration";
import { SiteNav } from "./site-nav";

// Below the fold on every page: its code loads after the first paint, and it mounts after the first screen.
const DeferredFooter = lazy(() => import("./deferred-footer").then((m) => ({ default: m.DeferredFooter })));
// Usually empty: its code and its read follow the first paint too.
const NoticeBar = lazy(() => import("./notice-bar").then((m) => ({ default: m.NoticeBar })));
// Spec §4's first run of notifications: the prompt 3 s after a browser's first visit, then alerts.
const NotificationCenter = lazy(() =>
  import("@/web/features/notifications/notification-center").then((m) => ({ default: m.NotificationCenter })),
);

/**
 * Navigation, the business's notices, the page, footer, and the notifications' first run. While
 * a page's code loads, its skeleton stands in (router.tsx).
 */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-accent font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-4 focus:py-3"
      >
        Skip to content
      </a>
      <SiteNav />
      <AfterHydration>
        <NoticeBar />
      </AfterHydration>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <AfterHydration fallback={<div className="min-h-96" />}>
        <DeferredFooter />
      </AfterHydration>
      <AfterHydration>
        <NotificationCenter />
      </AfterHydration>
    </div>
  );
}
