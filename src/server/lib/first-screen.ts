// A page's first screen without waiting on the browser. For a public page the server answers the
// GET reads its first screen makes (shared/first-screen.ts) and sends their JSON inside the HTML,
// in <script id="boot-data" type="application/json">, keyed by path; the web app seeds its query
// cache from it. On the landing it also draws the first screen itself, with the web app's own
// components built for the server (dist/ssr/first-screen.js, from src/web/ssr): the visitor
// sees the navigation and the hero before the page's code has arrived. The reads go through the
// app's own routes (inject), so they are exactly what the API answers, caches and all.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { ADMIN_ONLY_TABLES } from "@/server/db/schema";
import { firstScreenReads } from "@/shared/first-screen";

/** The page is never held up for its inlined reads: what is not ready by then is read by the browser. */
export const FIRST_SCREEN_DEADLINE_MS = 300;

/** Draws #root's markup for a page from its reads; null when the page is drawn by the browser. */
export type FirstScreenRenderer = (pageUrl: string, boot: Record<string, unknown>) => Promise<string | null>;

/** JSON safe inside a <script> element: no "</script>" or "<!--" can close or confuse it. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The server-side first screen built beside the web build (<web>/../ssr/first-screen.js), if there is one. */
export async function loadFirstScreenRenderer(webDistDir: string, log: FastifyBaseLogger): Promise<FirstScreenRenderer | null> {
  const file = path.resolve(webDistDir, "..", "ssr", "first-screen.js");
  if (!existsSync(file)) return null;
  try {
    const module = (await import(pathToFileURL(file).href)) as { renderFirstScreen?: unknown };
    if (typeof module.renderFirstScreen === "function") return module.renderFirstScreen as FirstScreenRenderer;
    log.warn({ file }, "the server-side first screen exports no renderFirstScreen: pages are drawn by the browser");
  } catch (error) {
    log.warn({ err: error, file }, "the server-side first screen could not be loaded: pages are drawn by the browser");
  }
  return null;
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

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[c]};`);

/**
 * The tab title before the app runs: the business's own name and tagline (index.html carries
 * the product's), so a rebranded shop never shows "StreamDesk" in a tab, a bookmark or a share.
 */
export function withBusinessTitle(html: string, branding: unknown): string {
  const fields = (branding as { data?: Record<string, unknown> } | undefined)?.data;
  const name = typeof fields?.company_name === "string" ? fields.company_name.trim() : "";
  if (!name) return html;
  const tagline = typeof fields?.tagline === "string" ? fields.tagline.trim() : "";
  const title = escapeHtml(tagline ? `${name} — ${tagline}` : name);
  return html.replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`);
}

const MARK_START = "<!--first-screen-->";
const MARK_END = "<!--/first-screen-->";

/** Pages reuse their reads for this long, unless something changes first (the change feed). */
export const READS_KEPT_MS = 5000;

const ADMIN_ONLY: ReadonlySet<string> = new Set(ADMIN_ONLY_TABLES);

/** Builds pages from index.html: its reads inlined, and on the landing its first screen drawn. */
export function createPageBuilder(app: FastifyInstance, html: string, renderer: FirstScreenRenderer | null) {
  // The reads of each kind of page, kept for a few seconds: a busy landing does not run them all
  // again for every visitor. Any change to the data, or a missed stretch of the feed, drops them.
  const kept = new Map<string, { at: number; data: Record<string, unknown>; json: string }>();
  let generation = 0;
  const drop = () => {
    generation += 1;
    kept.clear();
  };
  // Pages inline public reads only: a change to a table only the dashboard reads (the outbox's
  // delivery states, payments, clients) leaves them as they were.
  app.changes.onChange((change) => {
    if (!ADMIN_ONLY.has(change.table)) drop();
  });
  app.changes.onResync(drop);
  async function reads(paths: string[]): Promise<{ data: Record<string, unknown>; json: string }> {
    const key = paths.join(" ");
    const hit = kept.get(key);
    if (hit && Date.now() - hit.at < READS_KEPT_MS) return hit;
    const started = generation;
    const data = await readFirstScreen(app, paths);
    const fresh = { at: Date.now(), data, json: scriptSafeJson(data) };
    // Only a complete set, read while nothing changed, is kept: a read that missed the deadline
    // is tried again next time, and reads overtaken by a change are not kept.
    if (Object.keys(data).length === paths.length && started === generation) kept.set(key, fresh);
    return fresh;
  }

  // The same reads draw the same markup: the last few drawings are kept (a change to any of the
  // reads changes the key).
  const drawn = new Map<string, string | null>();
  const KEEP = 8;

  async function draw(pageUrl: string, data: Record<string, unknown>, json: string): Promise<string | null> {
    if (!renderer) return null;
    const key = `${pageUrl.split("#")[0]}\n${json}`;
    const kept = drawn.get(key);
    if (kept !== undefined) return kept;
    let markup: string | null;
    try {
      markup = await renderer(pageUrl, data);
    } catch (error) {
      app.log.error({ err: error, url: pageUrl }, "drawing the first screen failed: the browser draws it");
      return null;
    }
    drawn.set(key, markup);
    if (drawn.size > KEEP) drawn.delete(drawn.keys().next().value as string);
    return markup;
  }

  return async function page(pageUrl: string): Promise<string> {
    const paths = firstScreenReads(pageUrl);
    if (paths.length === 0) return html;
    const { data, json } = await reads(paths);
    if (Object.keys(data).length === 0) return html;
    let out = html;
    const markup = await draw(pageUrl, data, json);
    const start = out.indexOf(MARK_START);
    const end = out.indexOf(MARK_END);
    if (markup && start >= 0 && end > start) {
      out = `${out.slice(0, start)}${markup}${out.slice(end + MARK_END.length)}`.replace(
        '<div id="root">',
        '<div id="root" data-first-screen="server">',
      );
    }
    out = withBusinessTitle(out, data["/api/branding"]);
    const block = `<script id="boot-data" type="application/json">${json}</script>`;
    const at = out.lastIndexOf("</body>");
    return at < 0 ? out + block : `${out.slice(0, at)}${block}\n${out.slice(at)}`;
  };
}
