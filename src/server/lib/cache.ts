// In-memory read cache for public reads. Entries name the tables they depend on; the change
// feed invalidates by table, so a write anywhere (this process or another) refreshes reads.
//
// Public reads that take no parameters are kept as prepared responses (`prepared` +
// `sendPrepared`): the serialised bytes, their ETag, and their brotli and gzip forms made once,
// answered 304 when the browser has them. Once Fastify has answered such a read, the exact
// response (its headers as every hook set them) is also answered straight from the HTTP
// server (`serveFast`, installed by buildApp), with no routing, hooks or validation, until a
// change to one of its tables drops the entry; the next request goes through Fastify again.
import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

type Entry = { tables: readonly string[]; value: Promise<unknown> };
type Encoding = "br" | "gzip";

/** Smaller bodies go as they are (the same threshold as @fastify/compress in app.ts). */
const MIN_COMPRESS_BYTES = 1024;
export const JSON_TYPE = "application/json; charset=utf-8";

/** One response body, serialised once, with its validator and compressed forms made on first use. */
export class Prepared {
  readonly etag: string;
  private readonly forms: Partial<Record<Encoding, Buffer>> = {};

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
  ) {
    this.etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  }

  /** The bytes to send for an Accept-Encoding header: brotli, else gzip, else as they are. */
  encoded(acceptEncoding: string | string[] | undefined): { encoding: Encoding | null; bytes: Buffer } {
    if (this.body.length < MIN_COMPRESS_BYTES || typeof acceptEncoding !== "string") return { encoding: null, bytes: this.body };
    const encoding = pickEncoding(acceptEncoding);
    if (!encoding) return { encoding: null, bytes: this.body };
    let bytes = this.forms[encoding];
    if (!bytes) {
      bytes =
        encoding === "br"
          ? brotliCompressSync(this.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 10, [zlib.BROTLI_PARAM_SIZE_HINT]: this.body.length } })
          : gzipSync(this.body, { level: 9 });
      this.forms[encoding] = bytes;
    }
    return { encoding, bytes };
  }

  /** Whether an If-None-Match header names this body (weak comparison, as for GET). */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    if (ifNoneMatch.trim() === "*") return true;
    const tag = this.etag.slice(2);
    return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
  }
}

/** br or gzip when the client accepts it (q > 0); null for identity. */
export function pickEncoding(header: string): Encoding | null {
  let gzip = false;
  let star = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) <= 0) continue;
    if (name === "br") return "br";
    if (name === "gzip") gzip = true;
    if (name === "*") star = true;
  }
  return gzip || star ? "gzip" : null;
}

/** Headers the HTTP layer writes itself, never replayed from a learnt response. */
const PER_RESPONSE = new Set(["content-length", "content-encoding", "transfer-encoding", "date", "connection", "keep-alive"]);

interface FastRoute {
  key: string;
  entry: Entry;
  prepared: Prepared;
  /** the learnt headers but the body's own (length, encoding) */
  base: OutgoingHttpHeaders;
  /** by encoding ("" for none): the complete headers of a 200, flat (name, value, …) */
  ok: Map<string, string[]>;
  notModified: string[];
}

/**
 * Headers as writeHead's flat list (name, value, name, value, …), made once a route: Node checks
 * a list's names and values more cheaply than an object's, ~10 % of a cached read's CPU.
 */
function flatHeaders(headers: OutgoingHttpHeaders): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) flat.push(name, String(one));
  }
  return flat;
}

/** onRequest hook of the public reads: browsers revalidate every time (ETag, 304); TanStack Query does the client-side caching. */
export async function revalidateAlways(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header("cache-control", "no-cache");
}

export class ReadCache {
  private entries = new Map<string, Entry>();
  private fast = new Map<string, FastRoute>();
  /** Called for each request serveFast answers (the request log and metrics). */
  onServed: ((request: IncomingMessage, status: number, startedAt: number) => void) | null = null;

  /** Cached value for key, loading it once; concurrent callers share one load. */
  get<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit.value as Promise<T>;
    const value = load();
    const entry = { tables, value };
    this.entries.set(key, entry);
    // A failed load must not stay cached.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** A cached read as a prepared JSON response: `{data}` serialised once. */
  prepared(key: string, tables: readonly string[], load: () => Promise<unknown>, contentType = JSON_TYPE): Promise<Prepared> {
    return this.get(key, tables, async () => new Prepared(Buffer.from(JSON.stringify(await load())), contentType));
  }

  /**
   * Answer a prepared read from a route: ETag, 304 when the client has it, the compressed form
   * it accepts. A plain GET of the route's own path (no query string) is then remembered with
   * the response's headers, for serveFast to answer the same way.
   */
  send(key: string, prepared: Prepared, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.header("etag", prepared.etag);
    reply.header("vary", "Accept-Encoding");
    reply.type(prepared.contentType);
    if (request.method === "GET" && request.url === request.routeOptions.url) this.learn(request.url, key, prepared, reply.getHeaders());
    if (prepared.matches(request.headers["if-none-match"])) return reply.status(304).send();
    const { encoding, bytes } = prepared.encoded(request.headers["accept-encoding"]);
    if (encoding) reply.header("content-encoding", encoding);
    return reply.send(bytes);
  }

  /** A route handler answering a cached read (`load`'s answer, serialised once) through send. */
  handler(key: string, tables: readonly string[], load: () => Promise<unknown>, contentType?: string) {
    return async (request: FastifyRequest, reply: FastifyReply) =>
      this.send(key, await this.prepared(key, tables, load, contentType), request, reply);
  }

  private learn(url: string, key: string, prepared: Prepared, headers: Record<string, unknown>): void {
    const entry = this.entries.get(key);
    // A response that sets a cookie is somebody's own: never replayed to others.
    if (!entry || headers["set-cookie"] !== undefined || this.fast.get(url)?.prepared === prepared) return;
    // Only while the entry is the one this body came from (a change may have dropped it meanwhile).
    void entry.value.then((value) => {
      if (value !== prepared || this.entries.get(key) !== entry) return;
      const base: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined && !PER_RESPONSE.has(name)) base[name] = value as OutgoingHttpHeaders[string];
      }
      const notModified: OutgoingHttpHeaders = {};
      for (const name of ["etag", "vary", "cache-control"]) if (base[name] !== undefined) notModified[name] = base[name];
      const ok = new Map([["", flatHeaders({ ...base, "content-length": prepared.body.length })]]);
      this.fast.set(url, { key, entry, prepared, base, ok, notModified: flatHeaders(notModified) });
    });
  }

  /** Answers a GET/HEAD of a learnt public read without Fastify; false when it is not one. */
  serveFast(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.fast.size === 0 || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const url = request.url as string;
    const route = this.fast.get(url);
    if (!route) return false;
    if (this.entries.get(route.key) !== route.entry) {
      this.fast.delete(url);
      return false;
    }
    const startedAt = performance.now();
    const { prepared } = route;
    if (prepared.matches(request.headers["if-none-match"])) {
      response.writeHead(304, route.notModified);
      response.end();
    } else {
      const { encoding, bytes } = prepared.encoded(request.headers["accept-encoding"]);
      let headers = route.ok.get(encoding ?? "");
      if (!headers) {
        headers = flatHeaders({ ...route.base, "content-encoding": encoding as string, "content-length": bytes.length });
        route.ok.set(encoding as string, headers);
      }
      response.writeHead(200, headers);
      response.end(request.method === "HEAD" ? undefined : bytes);
    }
    this.onServed?.(request, response.statusCode, startedAt);
    return true;
  }

  invalidateTable(table: string): void {
    for (const [key, entry] of this.entries) if (entry.tables.includes(table)) this.entries.delete(key);
    for (const [url, route] of this.fast) if (route.entry.tables.includes(table)) this.fast.delete(url);
  }

  clear(): void {
    this.entries.clear();
    this.fast.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
