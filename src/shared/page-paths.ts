// Every page path the web app has (spec §2's route table), for the server: a path that is none
// of these is answered with the app's not-found page AND status 404, so search engines and
// link checkers see a missing page as missing. src/web/app/page-paths.test.ts checks that this
// list and the router's table agree.

/** ':name' is one path segment; a trailing '/*' is anything below (the dashboard's sections). */
export const PAGE_PATHS = [
  "/",
  "/home",
  "/about",
  "/pricing",
  "/how-to-use",
  "/testimonials",
  "/stream-test",
  "/support",
  "/technical-support",
  "/setup-guide",
  "/privacy-policy",
  "/terms-of-service",
  "/refund-policy",
  "/client-password-reset",
  "/knowledge-base",
  "/knowledge-base/:slug",
  "/downloads",
  "/status",
  "/releases",
  "/order",
  "/auth",
  "/pay/:token",
  "/payment/success",
  "/payment/failure",
  "/payment/cancel",
  "/payment-history",
  "/account-management",
  "/admin",
  "/admin/*",
  "/client",
  "/client/login",
  "/client/specials",
  "/partner",
  "/partner/set-password",
] as const;

function matches(pattern: string, pathname: string): boolean {
  if (pattern.endsWith("/*")) {
    const prefix = pattern.slice(0, -2);
    return pathname.startsWith(`${prefix}/`);
  }
  const want = pattern.split("/");
  const got = pathname.split("/");
  return want.length === got.length && want.every((part, i) => (part.startsWith(":") ? got[i] !== "" : part === got[i]));
}

/** Whether the web app has a page at this path (query and trailing slash ignored). */
export function isPagePath(url: string): boolean {
  let pathname = url.split(/[?#]/, 1)[0] || "/";
  if (pathname.length > 1) pathname = pathname.replace(/\/+$/, "");
  return PAGE_PATHS.some((pattern) => matches(pattern, pathname));
}
