// The GET reads a public page makes as it opens. The server answers them while sending the page
// and puts their JSON inside it (src/server/lib/first-screen.ts); the web app seeds its query
// cache from them before its first render (src/web/lib/first-screen.ts). So the navigation and
// the landing's hero draw at once, and the landing's sections mount with their content instead
// of mounting empty and drawing again when it arrives. One list, both sides.

/** Every public page's navigation (name, icon, status) and notice bar. */
export const PUBLIC_FIRST_SCREEN_READS = ["/api/branding", "/api/images?keys=pwa_icon", "/api/status", "/api/notices"] as const;
/** The landing: its hero, then the sections below the fold and the footer. */
export const LANDING_FIRST_SCREEN_READS = [
  "/api/content?section=hero",
  // the hero's free-trial button says so on a sport event day, from the first paint
  "/api/trial-availability",
  "/api/images?keys=hero_logo",
  "/api/content?section=about",
  "/api/images?keys=about_company_logo",
  "/api/packages",
  "/api/specials",
  "/api/banners",
  "/api/settings",
  "/api/downloads",
  "/api/testimonials",
  "/api/content?section=testimonials",
  "/api/content?section=footer",
  "/api/images?keys=footer_logo",
  "/api/images?keys=footer_mascot",
] as const;

/** The landing page's paths (spec §2: / and /home). */
export function isLandingPath(pathname: string): boolean {
  return pathname === "/" || pathname === "/home";
}

/** The GET paths inlined for this page path: none for the dashboard and the portal. */
export function firstScreenReads(pagePath: string): string[] {
  const pathname = pagePath.split(/[?#]/)[0] || "/";
  if (/^\/(admin|client)(\/|$)/.test(pathname)) return [];
  return isLandingPath(pathname) ? [...PUBLIC_FIRST_SCREEN_READS, ...LANDING_FIRST_SCREEN_READS] : [...PUBLIC_FIRST_SCREEN_READS];
}
