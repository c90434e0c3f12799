// The build's hashed assets (dist/web/assets: scripts, styles, fonts), answered from memory by
// the HTTP server before Fastify routes anything (installed by buildApp beside the read cache's
// serveFast). Every visitor fetches dozens of them; read from disk per request (@fastify/static)
// each took a thread-pool read and a stream, about a tenth of nginx's rate. Their bytes and the
// .br/.gz forms the build wrote beside them are read once at start: a hashed name never changes
// its content. The first request for each file still goes through Fastify (@fastify/static);
// its headers — helmet's, the immutable cache-control, the content type — are learnt from that
// response and replayed, so both paths answer alike. Ranges, query strings and anything else
// unusual go to Fastify as before.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import path from "node:path";
import { pickEncoding } from "./cache";

/**
 * The cache policy of a file of the build, by the path @fastify/static sends (with `preCompressed`
 * that is the `.br`/`.gz` beside the file when the client takes one, so the policy reads the name
 * without it). Vite's hashed assets never change; the shell (index.html, the service worker) is
 * revalidated on every load, or a fix would wait an hour to reach an installed app; the rest
 * (icons, the manifest) may be kept an hour.
 */
export function cacheControlFor(filePath: string): string {
  const file = filePath.replace(/\.(?:br|gz)$/, "");
  if (file.includes(`${path.sep}assets${path.sep}`)) return "public, max-age=31536000, immutable";
  if (file.endsWith(`${path.sep}sw.js`) || file.endsWith(".html")) return "no-cache";
  return "public, max-age=3600";
}

/** Headers written per response or per encoding: never replayed from the learnt response. */
const NOT_LEARNT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "date",
  "connection",
  "keep-alive",
  "etag",
  "last-modified",
]);
/** A file larger than this stays on disk (nothing the build makes comes near it). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** All assets held in memory at most; the rest are served from disk. */
const MAX_TOTAL_BYTES = 96 * 1024 * 1024;

interface Asset {
  forms: { "": Buffer; br?: Buffer; gzip?: Buffer };
  etag: string;
  /** learnt from Fastify's first answer; null until then */
  base: OutgoingHttpHeaders | null;
  /** complete 200 headers by encoding ("" for none), made on first use */
  ok: Map<string, OutgoingHttpHeaders>;
}

export class StaticAssets {
  private readonly assets = new Map<string, Asset>();
  /** Called for each request answered here (the request log and metrics, like ReadCache.onServed). */
  onServed: ((request: IncomingMessage, status: number, startedAt: number) => void) | null = null;

  /** Read `<webRoot>/assets/*` (and their .br/.gz) into memory, served under `/assets/`. */
  static load(webRoot: string): StaticAssets {
    const assets = new StaticAssets();
    const dir = path.join(webRoot, "assets");
    if (!existsSync(dir)) return assets;
    let total = 0;
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith(".br") || name.endsWith(".gz")) continue;
      const file = path.join(dir, name);
      const stat = statSync(file);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) continue;
      const identity = readFileSync(file);
      const br = existsSync(`${file}.br`) ? readFileSync(`${file}.br`) : undefined;
      const gzip = existsSync(`${file}.gz`) ? readFileSync(`${file}.gz`) : undefined;
      const size = identity.length + (br?.length ?? 0) + (gzip?.length ?? 0);
      if (total + size > MAX_TOTAL_BYTES) break;
      total += size;
      const etag = `W/"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
      assets.assets.set(`/assets/${name}`, { forms: { "": identity, br, gzip }, etag, base: null, ok: new Map() });
    }
    return assets;
  }

  get size(): number {
    return this.assets.size;
  }

  /** Fastify answered `url` with these headers (status 200): replay them from now on. */
  learn(url: string, headers: Record<string, unknown>): void {
    const asset = this.assets.get(url);
    if (!asset || asset.base) return;
    const base: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined && !NOT_LEARNT.has(name) && name !== "set-cookie") base[name] = value as OutgoingHttpHeaders[string];
    }
    base.vary = "Accept-Encoding";
    base.etag = asset.etag;
    asset.base = base;
  }

  /** Answers a GET/HEAD of a learnt asset from memory; false to leave it to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== "GET" && request.method !== "HEAD") return false;
    const url = request.url as string;
    if (!url.startsWith("/assets/")) return false;
    const asset = this.assets.get(url);
    if (!asset?.base || request.headers.range) return false;
    const startedAt = performance.now();
    if (matches(asset.etag, request.headers["if-none-match"])) {
      response.writeHead(304, { etag: asset.etag, vary: "Accept-Encoding", "cache-control": asset.base["cache-control"] });
      response.end();
    } else {
      const accepted = request.headers["accept-encoding"];
      let wanted = typeof accepted === "string" ? pickEncoding(accepted) : null;
      // brotli, else gzip, when the client takes it and the build made it.
      if (wanted === "br" && !asset.forms.br) wanted = pickEncoding((accepted as string).replace(/\bbr\b[^,]*/gi, ""));
      const encoding = wanted === "br" ? "br" : wanted === "gzip" && asset.forms.gzip ? "gzip" : "";
      const bytes = asset.forms[encoding] as Buffer;
      let headers = asset.ok.get(encoding);
      if (!headers) {
        headers = { ...asset.base, "content-length": bytes.length, ...(encoding ? { "content-encoding": encoding } : {}) };
        asset.ok.set(encoding, headers);
      }
      response.writeHead(200, headers);
      response.end(request.method === "HEAD" ? undefined : bytes);
    }
    this.onServed?.(request, response.statusCode, startedAt);
    return true;
  }
}

function matches(etag: string, ifNoneMatch: string | undefined): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const tag = etag.slice(2);
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}
