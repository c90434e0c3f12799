import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Outlet } from "react-router";
import { preloadPageSkeleton } from "./page-fallback";

/**
 * Keeps the public data live. The change stream opens after the first paint: live updates
 * matter from then on, not for drawing the page.
 */
function useDeferredLiveData(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("@/web/lib/realtime").then(({ startLiveData }) => {
      if (!cancelled) stop = startLiveData(queryClient);
    });
    preloadPageSkeleton();
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient]);
}

/** Wraps every page: the public data kept live. */
export function RootLayout() {
  useDeferredLiveData();
  return <Outlet />;
}
