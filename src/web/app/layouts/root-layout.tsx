import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Outlet, ScrollRestoration, useMatches } from "react-router";
import { usePageTitleOverride } from "@/web/lib/page-title";
import { useBranding } from "@/web/lib/queries/branding";
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

/** The tab title: the page's title and the business name, both known only at run time. */
function useDocumentTitle(): void {
  const matches = useMatches();
  const { branding } = useBranding();
  const pageTitle = usePageTitleOverride() ?? (matches[matches.length - 1]?.handle as { title?: string } | undefined)?.title;
  useEffect(() => {
    const name = branding.companyName;
    if (!name) return;
    document.title = pageTitle ? `${pageTitle} · ${name}` : branding.tagline ? `${name} — ${branding.tagline}` : name;
  }, [pageTitle, branding.companyName, branding.tagline]);
}

/** Wraps every page: live data, the tab title, and scroll positions restored on back and forward. */
export function RootLayout() {
  useDeferredLiveData();
  useDocumentTitle();
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
