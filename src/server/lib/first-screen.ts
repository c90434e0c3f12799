// The page's first screen without a round trip per read: for a public page, the server answers
// the few GET reads its first screen makes (branding, the status icon, notices, and on the
// landing the hero's content and logo) and sends their JSON inside the HTML, in
// <script id="boot-data" type="application/json">, keyed by path. The web app's apiGet answers
// those reads from it once (src/web/lib/boot-data.ts). The reads go through the app's own
// routes (inject), so they are exactly what the API answers, caches and all.
import type { FastifyInstance } from "fastify";

/** Every public page's first screen: the navigation (name, icon, status) and the notice bar. */
const PUBLIC_READS = ["/api/branding", "/api/images?keys=pwa_icon", "/api/status", "/api/notices"];
/** The landing's hero. */
const LANDING_READS = ["/api/content?section=hero", "/api/images?keys=hero_logo"];
/** The page is never held up for its inlined reads: what is not ready by then is read by the browser. */
export const FIRST_SCREEN_DEADLINE_MS = 300;

/** The GET paths inlined for this page path (none for the dashboard and the portal). */
export function firstScreenReads(pagePath: string): string[] {
  const pathname = pagePath.split(/[?#]/)[0] ?? "/";
  if (/^\/(admin|client)(\/|$)/.test(pathname)) return [];
  return pathname === "/" || pathname === "/home" ? [...PUBLIC_READS, ...LANDING_READS] : PUBLIC_READS;
}

/** JSON safe inside a <script> element: no "</script>" or "<!--" can close or confuse it. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The reads that answered 200 with JSON within the deadline, by path. */
export async function readFirstScreen(app: FastifyInstance, paths: readonly string[]): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  const reads = paths.map(async (url) => {
    const response = await app.inject({ method: "GET", url, headers: { accept: "application/json" } });
    if (response.statusCode !== 200) return;
    try {
      data[url] = response.json();
    } catch {
      // not JSON: left to the browser
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FIRST_SCREEN_DEADLINE_MS);
  });
  await Promise.race([Promise.allSettled(reads), deadline]);
  clearTimeout(timer);
  // A copy: reads finishing after the deadline must not change what was sent.
  return { ...data };
}

/** index.html with the page's first-screen reads inlined before </body>. */
export async function pageWithFirstScreen(app: FastifyInstance, html: string, pagePath: string): Promise<string> {
  const paths = firstScreenReads(pagePath);
  if (paths.length === 0) return html;
  const data = await readFirstScreen(app, paths);
  if (Object.keys(data).length === 0) return html;
  const block = `<script id="boot-data" type="application/json">${scriptSafeJson(data)}</script>`;
  const at = html.lastIndexOf("</body>");
  return at < 0 ? html + block : `${html.slice(0, at)}${block}\n${html.slice(at)}`;
}
