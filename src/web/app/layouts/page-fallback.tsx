import { lazy, Suspense } from "react";
import { FullScreenLoading } from "../full-screen-loading";
import type { PageFallback } from "../route-table";

// The skeletons are not needed to paint the landing page: their code follows the first paint
// (preloaded by the root layout), and until it lands the full-screen 'Loading...' stands in.
const loadPageSkeleton = () => import("@/web/components/ui/page-skeleton");
const PageSkeleton = lazy(() => loadPageSkeleton().then((m) => ({ default: m.PageSkeleton })));

/** Fetches the skeletons' code ahead of the first navigation that needs it. */
export function preloadPageSkeleton(): void {
  void loadPageSkeleton().catch(() => {
    // Offline: the full-screen state stands in.
  });
}

/** What a page shows while its code loads: the home page's full-screen state or a skeleton. */
export function PageFallbackView({ fallback }: { fallback: PageFallback }) {
  if (fallback === "loading") return <FullScreenLoading />;
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <PageSkeleton variant={fallback} />
    </Suspense>
  );
}
