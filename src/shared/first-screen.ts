// The GET reads a public page makes to draw its first screen. The server answers them while
// sending the page and puts their JSON inside it (src/server/lib/first-screen.ts); the web app
// seeds its query cache from them before its first render (src/web/lib/first-screen.ts), so
// neither the navigation nor the landing's hero waits for a round trip. One list, both sides.

/** Every public page's navigation (name, icon, status) and notice bar. */
export const PUBLIC_FIRST_SCREEN_READS = ["/api/branding", "/api/images?keys=pwa_icon", "/api/status", "/api/notices"] as const;
/** The landing's hero. */
export const LANDING_FIRST_SCREEN_READS = ["/api/content?section=hero", "/api/images?keys=hero_logo"] as const;

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
