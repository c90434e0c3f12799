import { useEffect } from "react";
import { usePageTitleOverride } from "@/web/lib/page-title";
import { useBranding } from "@/web/lib/queries/branding";

/**
 * The tab title: the page's title (its route's, or one the page sets itself) and the business
 * name, both known only at run time.
 */
export function useDocumentTitle(routeTitle: string | undefined): void {
  const { branding } = useBranding();
  const pageTitle = usePageTitleOverride() ?? routeTitle;
  useEffect(() => {
    const name = branding.companyName;
    if (!name) return;
    document.title = pageTitle ? `${pageTitle} · ${name}` : branding.tagline ? `${name} — ${branding.tagline}` : name;
  }, [pageTitle, branding.companyName, branding.tagline]);
}
