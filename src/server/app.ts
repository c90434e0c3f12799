// buildApp(config) composes the server: infrastructure (config, database, change feed, cache,
// security headers, compression, cookies, CSRF guard) → services → route modules → the SPA.
// It never listens; main.ts does.

import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyError, type FastifyInstance, LogController } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { dnsResolver, type HostResolver } from "@/server/adapters/payments/payfast/source";
import { renderAttachment } from "@/server/modules/billing/service";
import { loadPanelSettings } from "@/server/modules/panel/settings";
import { isPagePath } from "@/shared/page-paths";
import { createSmtpTransport } from "./adapters/email";
import { withReadCache } from "./adapters/panel/cached";
import { selectPanel } from "./adapters/panel/select-panel";
import { createCloudApiTransport } from "./adapters/whatsapp";
import { configurePasswordCost, configurePasswordQueue } from "./auth/passwords";
import type { Config } from "./config";
import { ChangeBus } from "./db/changes";
import { type Database, type Db, openDatabase } from "./db/client";
import { seedIfEmpty } from "./db/seed";
import { startJobs } from "./jobs";
import { OutboxWorker } from "./jobs/outbox-worker";
import { ProvisioningWorker } from "./jobs/provisioning-worker";
import { ReadCache } from "./lib/cache";
import { installInputCleaning } from "./lib/clean-input";
import { AppError, errorBody } from "./lib/errors";
import { createPageBuilder, loadFirstScreenRenderer } from "./lib/first-screen";
import { LogBuffer } from "./lib/log-destination";
import { installMetrics, installRequestLog, LOG_REDACT, urlForLog } from "./lib/observability";
import { configureSecretsKey } from "./lib/secret-box";
import { cacheControlFor, StaticAssets } from "./lib/static-assets";
import { routeModules } from "./modules";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    cache: ReadCache;
    changes: ChangeBus;
    outbox: OutboxWorker;
    provisioning: ProvisioningWorker;
    /** how host names are resolved where an address is checked against a provider's hosts (PayFast's ITN source) */
    resolveHost: HostResolver;
  }
}

export type App = FastifyInstance;

export interface BuildOptions {
  /** an already-open database (tests share one per worker); buildApp then does not close it */
  database?: Database;
  /** seed demo content on an empty database (default true) */
  seed?: boolean;
  /** where log lines go (tests); default: standard output, gathered per event-loop turn */
  logDestination?: LogBuffer;
  /** the resolver for PayFast's ITN hosts (tests: no DNS); default: the system's */
  resolveHost?: HostResolver;
}

/**
 * The listen queue (main.ts): a burst of connections (a flood of streams, a crowd after a
 * broadcast) past Node's default of 511 would overflow it, and every connection the kernel
 * dropped — /api/health's too — waits a second for its SYN to be sent again. The kernel caps it
 * at net.core.somaxconn (4096 on current kernels).
 */
export const LISTEN_BACKLOG = 4096;
const REQUEST_TIMEOUT_MS = 120_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const cache = new ReadCache();
  const logDestination = config.LOG_LEVEL === "silent" ? null : (options.logDestination ?? new LogBuffer());
  /** the SPA's hashed assets, answered from memory once learnt (registerSpa) */
  let assets: StaticAssets | null = null;
  const app = Fastify({
    logger: logDestination
      ? { level: config.LOG_LEVEL, serializers: { req: requestForLog }, redact: LOG_REDACT, stream: logDestination }
      : false,
    // (typed as one member of its union: Fastify's overloads do not take the union itself)
    trustProxy: trustedProxies(config.TRUST_PROXY) as string[],
    bodyLimit: 256 * 1024,
    // One line per request instead of Fastify's two (installRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    // A client must send its whole request within 2 minutes (a stalled upload cannot hold a
    // connection, or a shutdown, for ever); an idle keep-alive connection is closed after 72 s,
    // longer than a load balancer's own idle timeout (nginx 60 s), so the proxy closes first.
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Our own HTTP server: a public read Fastify has already answered is answered again from
    // its prepared bytes before routing (ReadCache.serveFast); everything else goes to Fastify.
    serverFactory(handler) {
      const headersTimeout = config.HEADERS_TIMEOUT_S * 1000;
      const server = http.createServer(
        // Node checks the header and request deadlines only on this interval (default 30 s, so a
        // 20 s deadline really closed at 20–50 s): checked every second, the deadline is the deadline.
        { connectionsCheckingInterval: Math.min(1000, headersTimeout / 4) },
        (request, response) => {
          if (!cache.serveFast(request, response) && !assets?.serve(request, response)) handler(request, response);
        },
      );
      // (Fastify applies its timeouts only to a server it makes itself.)
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      server.requestTimeout = REQUEST_TIMEOUT_MS;
      // Request headers within HEADERS_TIMEOUT_S, 20 s by default (Node's default is the request timeout).
      server.headersTimeout = headersTimeout;
      return server;
    },
    // Errors Fastify raises before routing (a malformed URL, an over-long parameter) leave in
    // our error shape too.
    frameworkErrors(error, _request, reply) {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as import("fastify").FastifyReply)
        .status(status)
        .send(errorBody(status === 414 ? "uri_too_long" : "bad_request", "That address is not valid."));
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // ---- infrastructure ----
  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.inMemoryDb ? undefined : config.DATA_DIR,
      pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
      onPoolError: (error) => app.log.warn({ err: error }, "database: an idle pooled connection failed (it is replaced)"),
    }));
  if (options.seed !== false) await database.exclusive(() => seedIfEmpty(database.db));

  const changes = new ChangeBus();
  await changes.start(database);
  changes.onChange((change) => cache.invalidateTable(change.table));
  // After the LISTEN connection was lost, changes made meanwhile were never announced.
  changes.onResync(() => cache.clear());

  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("cache", cache);
  app.decorate("resolveHost", options.resolveHost ?? dnsResolver);
  app.decorate("changes", changes);
  configureSecretsKey(config.SECRETS_KEY);
  configurePasswordCost(config.PASSWORD_HASH_COST);
  configurePasswordQueue(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE);
  const from = config.MAIL_FROM ?? "StreamDesk <no-reply@streamdesk.local>";
  const email = config.SMTP_URL ? createSmtpTransport(config.SMTP_URL, from) : null;
  const whatsapp =
    config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID
      ? createCloudApiTransport(config.WHATSAPP_API_URL, config.WHATSAPP_PHONE_NUMBER_ID, config.WHATSAPP_TOKEN)
      : null;
  const worker = new OutboxWorker(database.db, { email, whatsapp, documents: (ref) => renderAttachment(database.db, ref) }, undefined, {
    publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ""),
    log: app.log,
  });
  app.decorate("outbox", worker);
  // panel reads kept for the owner's panel_cache_minutes, shared by the dashboard and the jobs
  const panel = withReadCache(selectPanel(config, database.db), async () => (await loadPanelSettings(app)).cache_minutes * 60_000);
  const provisioning = new ProvisioningWorker(app, panel);
  app.decorate("provisioning", provisioning);
  // Work queued by any process reaches this one through the change feed: a payment captured
  // anywhere is on the panel within moments, not at the next poll.
  changes.onChange((change) => {
    if (change.table === "provisioning_jobs" && change.op === "INSERT" && config.JOBS === "on") provisioning.nudge();
  });
  const stopJobs = config.JOBS === "on" ? startJobs(app) : async () => {};

  app.addHook("onClose", async () => {
    await stopJobs();
    await worker.stop();
    await provisioning.stop();
    email?.close();
    await changes.stop();
    if (ownsDatabase) await database.close();
    logDestination?.close();
  });

  installErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.PUBLIC_URL?.startsWith("https://") ? undefined : false,
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip", "deflate"] });
  await app.register(cookie);
  installOriginGuard(app, config);
  installInputCleaning(app);
  installRequestLog(app);
  installMetrics(app, { token: config.METRICS_TOKEN });

  // ---- route modules ----
  for (const module of routeModules) await app.register(module, { prefix: "/api" });

  // ---- the SPA ----
  assets = await registerSpa(app, config);
  return app;
}

/** A request as logged (Fastify's fields), with tokens in the query string masked (Meta's hub.verify_token). */
function requestForLog(request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: request.method,
    url: urlForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** One error handler: every failure leaves in the error shape, never with a stack trace. */
function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "_";
        if (!fields[key]) fields[key] = issue.message ?? "Invalid value";
      }
      const first = Object.values(fields)[0];
      return reply.status(400).send(errorBody("validation", first ?? "Please check the information you entered.", fields));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(errorBody("rate_limited", "Too many requests. Please wait a minute and try again."));
    }
    if (status === 413) return reply.status(413).send(errorBody("payload_too_large", "That request is too large."));
    if (status === 415)
      return reply.status(415).send(errorBody("unsupported_media_type", "Send JSON with Content-Type: application/json."));
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(status === 404 ? "not_found" : "bad_request", error.message || "Bad request."));
    }
    // A lost database connection (restart, terminated backend) is a 503 the client may retry.
    if (isConnectionLoss(error)) {
      reply.header("retry-after", "5");
      return reply.status(503).send(errorBody("unavailable", "The service is temporarily unavailable. Please try again shortly."));
    }
    // Every database connection was busy for the pool's whole wait (a burst of requests, each in
    // its transaction): the server is up but full, so a 503 the client (or a provider's webhook
    // retry) may repeat shortly, never a 500 that reads as a bug.
    if (isPoolBusy(error)) {
      reply.header("retry-after", "2");
      return reply.status(503).send(errorBody("busy", "We are very busy right now. Please try again in a moment."));
    }
    // Unknown failure: if the database is unreachable this is a 503 the client may retry.
    const databaseUp = await app.database
      .ping()
      .then(() => true)
      .catch(() => false);
    if (!databaseUp) {
      reply.header("retry-after", "5");
      return reply.status(503).send(errorBody("unavailable", "The service is temporarily unavailable. Please try again shortly."));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send(errorBody("internal", "Something went wrong on our side. Please try again."));
  });
}

/**
 * Which proxies' X-Forwarded-For entries to believe. `true` is ONE hop (the load balancer in
 * front of us), not "believe everything": the client address is then the right-most entry the
 * trusted proxy added, so a client cannot choose its own address by sending the header itself.
 */
export function trustedProxies(setting: string): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === "false") return false;
  const hops = setting === "true" ? 1 : /^\d+$/.test(setting) ? Number(setting) : null;
  // Hop 0 is the peer that connected to us; with N proxies in front, hops 0..N-1 are theirs.
  // (A list of addresses is stricter: set one when the proxies' addresses are known.)
  if (hops !== null) return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
  return setting.split(",").map((part) => part.trim());
}

/** pg-pool's answer when no connection came free within connectionTimeoutMillis (db/client.ts). */
export function isPoolBusy(error: unknown): boolean {
  let current: unknown = error;
  // however wrapped (Drizzle's query error keeps the driver's as its cause)
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    if (typeof message === "string" && /^timeout exceeded when trying to connect$/i.test(message)) return true;
    current = cause;
  }
  return false;
}

/** PostgreSQL's "connection went away" errors (class 08, admin shutdown 57P0x) and socket resets, however wrapped. */
export function isConnectionLoss(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (
      typeof code === "string" &&
      (/^08/.test(code) || /^57P0[123]$/.test(code) || code === "ECONNRESET" || code === "ECONNREFUSED" || code === "EPIPE")
    ) {
      return true;
    }
    if (
      typeof message === "string" &&
      /Connection terminated|terminating connection|Client has encountered a connection error/i.test(message)
    )
      return true;
    current = cause;
  }
  return false;
}

/** Routes called server to server, which carry their own signatures instead of cookies. */
const SIGNED_CALLBACKS = new Set(["/api/payments/webhook/:provider", "/api/whatsapp/webhook"]);
const SESSION_COOKIE = /(?:^|;\s*)(?:sd_admin|sd_client)=/;
const FOREIGN = "This request came from another site and was refused.";

/**
 * CSRF: a state-changing request to the API carrying a foreign Origin (or Referer) is refused;
 * so is one that carries a session cookie but neither header (a browser always sends one of
 * them with a write). The route is judged as routed — the decoded path Fastify matched — so
 * `/%61pi/admin/...` is guarded exactly like `/api/admin/...`.
 */
function installOriginGuard(app: FastifyInstance, config: Config): void {
  const allowed = new Set<string>();
  if (config.PUBLIC_URL) allowed.add(new URL(config.PUBLIC_URL).origin);
  app.addHook("onRequest", async (request) => {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
    const route = request.routeOptions.url ?? decodeURIComponent(request.url.split("?")[0] ?? "");
    if (!route.startsWith("/api/") || SIGNED_CALLBACKS.has(route)) return;
    const source = request.headers.origin ?? request.headers.referer;
    if (!source) {
      if (SESSION_COOKIE.test(request.headers.cookie ?? "")) throw new AppError(403, "forbidden", FOREIGN);
      return; // no cookie, no browser: nothing for CSRF to ride on
    }
    let origin: string;
    try {
      origin = new URL(source).origin;
    } catch {
      throw new AppError(403, "forbidden", FOREIGN);
    }
    const own = `${request.protocol}://${request.host}`;
    if (origin !== own && !allowed.has(origin)) throw new AppError(403, "forbidden", FOREIGN);
  });
}

/** The built web app: its files, the history fallback; returns its hashed assets, held in memory. */
async function registerSpa(app: FastifyInstance, config: Config): Promise<StaticAssets | null> {
  const root = path.resolve(config.WEB_DIST_DIR);
  const hasSpa = existsSync(path.join(root, "index.html"));
  let assets: StaticAssets | null = null;
  if (hasSpa) {
    // Hashed assets: the first request for each goes through @fastify/static (below) and its
    // headers are learnt; later ones are answered from memory before routing (serverFactory).
    const held = StaticAssets.load(root);
    held.onServed = (request, status, startedAt) => app.cache.onServed?.(request, status, startedAt);
    // (a callback hook, not async: it runs on every response)
    app.addHook("onSend", (request, reply, payload, done) => {
      if (reply.statusCode === 200 && request.url.startsWith("/assets/")) held.learn(request.url, reply.getHeaders());
      done(null, payload);
    });
    assets = held;
    const page = createPageBuilder(app, readFileSync(path.join(root, "index.html"), "utf8"), await loadFirstScreenRenderer(root, app.log));
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes each text asset's .br and .gz beside it: sent as they are, not compressed per request.
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header("cache-control", cacheControlFor(filePath));
      },
    });
    // Files are served by their own routes (registered above); every other page path gets
    // index.html so the client router can take it (history fallback).
    app.get("/*", (request, reply) => {
      if (request.url.startsWith("/api/") || request.url === "/api") {
        return reply.status(404).send(errorBody("not_found", `No such endpoint: ${request.method} ${request.url.split("?")[0]}`));
      }
      reply.header("cache-control", "no-cache");
      reply.type("text/html; charset=utf-8");
      // The app draws its not-found page for any path; the status says so too.
      if (!isPagePath(request.url)) reply.status(404);
      return page(request.url);
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api" || !hasSpa) {
      return reply.status(404).send(errorBody("not_found", `No such endpoint: ${request.method} ${request.url.split("?")[0]}`));
    }
    return reply.status(404).send(errorBody("not_found", "Not found."));
  });
  return assets;
}
