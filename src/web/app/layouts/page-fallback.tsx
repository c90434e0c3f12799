import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { FullScreenLoading } from "../full-screen-loading";
import type { PageFallback } from "../route-table";

/** What a page shows while its code loads: the home page's full-screen state or a skeleton. */
export function PageFallbackView({ fallback }: { fallback: PageFallback }) {
  return fallback === "loading" ? <FullScreenLoading /> : <PageSkeleton variant={fallback} />;
}
