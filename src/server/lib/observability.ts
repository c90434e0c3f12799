// What an operator sees of a running server: one JSON log line per request (Fastify's pino,
// nothing from headers or bodies, tokens in query strings masked) and, when METRICS_TOKEN is
// set, GET /metrics in Prometheus' text format (prom-client) for a bearer of that token:
// request durations by route, the outbox's and the provisioning queue's backlog and failures,
// open SSE streams, the database pool, and the process's own figures (memory, event loop, GC).
import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { rowsOf } from "@/server/db/rows";
import { errorBody } from "./errors";

/** A request's address as logged: tokens in the query string (Meta's hub.verify_token, ours) masked. */
export function urlForLog(url: string): string {
  return url.replace(/([?&](?:hub\.verify_token|token|key|secret|password)=)[^&]*/gi, "$1[hidden]");
}

/** Where log lines must never carry a secret, whatever a caller passes to the logger. */
export const LOG_REDACT = {
  paths: [
    "req.headers.cookie",
    "req.headers.authorization",
    "headers.cookie",
    "headers.authorization",
    'res.headers["set-cookie"]',
    "*.password",
    "*.password_hash",
    "*.token",
    "*.secret",
  ],
  censor: "[redacted]",
};

const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? "unmatched";

/** One line per answered request (Fastify's own two lines are off): what, where from, how it went, how long. */
export function installRequestLog(app: FastifyInstance): void {
  // The access line carries only the fields built here, never a caller's object, so no secret can
  // reach it: it skips the redaction every other line goes through (LOG_REDACT's wildcards), which
  // was four fifths of the line's cost (5.4 against 1.0 µs a line, pino 10) and a fifth of the
  // server's time answering a cached read at LOG_LEVEL info (docs/performance.md).
  const access = app.log.child({}, { redact: { paths: [] } });
  app.addHook("onResponse", async (request, reply) => {
    const line = {
      reqId: request.id,
      method: request.method,
      url: urlForLog(request.url),
      route: routeOf(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (reply.statusCode >= 500) access.error(line, "request");
    else access.info(line, "request");
  });
  // Reads answered before routing (ReadCache.serveFast) log the same line; the address is the
  // peer's, with what a proxy forwarded beside it (Fastify's trust rules did not run).
  const log = app.log as typeof app.log & { isLevelEnabled?: (level: string) => boolean };
  if (!log.isLevelEnabled?.("info")) return;
  const previous = app.cache.onServed;
  app.cache.onServed = (request, status, startedAt) => {
    previous?.(request, status, startedAt);
    const forwarded = request.headers["x-forwarded-for"];
    access.info(
      {
        method: request.method,
        url: request.url,
        route: request.url,
        status,
        ms: Math.round((performance.now() - startedAt) * 10) / 10,
        ip: request.socket.remoteAddress,
        ...(forwarded ? { forwarded } : {}),
      },
      "request",
    );
  };
}

/** Statuses counted on each scrape (the terminal ones, sent and done, grow for ever and are left out). */
const OUTBOX_STATES = ["pending", "sending", "failed", "owner"] as const;
const PROVISIONING_STATES = ["pending", "running", "failed", "task"] as const;

export interface MetricsOptions {
  /** the bearer token GET /metrics wants; undefined: the route answers 404 */
  token: string | undefined;
}

export function installMetrics(app: FastifyInstance, { token }: MetricsOptions): void {
  if (!token) {
    app.get("/metrics", { exposeHeadRoute: false }, async (_request, reply) =>
      reply.status(404).send(errorBody("not_found", "No such endpoint: GET /metrics")),
    );
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let sseClients = 0;
  new Gauge({
    name: "streamdesk_sse_clients",
    help: "Open change-feed streams (GET /api/events) on this process",
    registers: [registry],
    collect() {
      this.set(sseClients);
    },
  });
  const databaseUp = new Gauge({
    name: "streamdesk_database_up",
    help: "1 when the last scrape could read the database",
    registers: [registry],
  });
  const outbox = new Gauge({
    name: "streamdesk_outbox_messages",
    help: "Outbox messages not yet delivered, by status (failed: gave up; owner: waiting for the owner to send by hand)",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const outboxOldest = new Gauge({
    name: "streamdesk_outbox_oldest_pending_seconds",
    help: "Age of the oldest pending outbox message (0 when none)",
    registers: [registry],
  });
  const provisioning = new Gauge({
    name: "streamdesk_provisioning_jobs",
    help: "Panel provisioning jobs not done, by status (failed: waiting for the owner's retry; task: manual mode)",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const pool = new Gauge({
    name: "streamdesk_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, waiting = requests queued for one); absent on PGlite",
    labelNames: ["state"] as const,
    registers: [registry],
  });

  /** Read on each scrape, before the registry renders. */
  async function sample(): Promise<void> {
    const stats = app.database.poolStats?.();
    if (stats) for (const [state, value] of Object.entries(stats)) pool.set({ state }, value);
    try {
      const counts = async (table: string, states: readonly string[]) => {
        const result = await app.db.execute(
          sql`select status, count(*)::int as n from ${sql.identifier(table)} where status in (${sql.join(
            states.map((s) => sql`${s}`),
            sql`, `,
          )}) group by status`,
        );
        const rows = rowsOf<{ status: string; n: number }>(result);
        return new Map(rows.map((row) => [row.status, Number(row.n)]));
      };
      const [mail, jobs, oldest] = await Promise.all([
        counts("outbox", OUTBOX_STATES),
        counts("provisioning_jobs", PROVISIONING_STATES),
        app.db.execute(
          sql`select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as s from outbox where status = 'pending'`,
        ),
      ]);
      for (const status of OUTBOX_STATES) outbox.set({ status }, mail.get(status) ?? 0);
      for (const status of PROVISIONING_STATES) provisioning.set({ status }, jobs.get(status) ?? 0);
      outboxOldest.set(Number(rowsOf<{ s: number }>(oldest)[0]?.s ?? 0));
      databaseUp.set(1);
    } catch (error) {
      databaseUp.set(0);
      app.log.warn({ err: error }, "metrics: the database could not be read");
    }
  }

  app.addHook("onRequest", async (request, reply) => {
    if (routeOf(request) !== "/api/events") return;
    sseClients++;
    reply.raw.once("close", () => sseClients--);
  });
  app.addHook("onResponse", async (request, reply) => {
    duration.observe({ method: request.method, route: routeOf(request), status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  const previous = app.cache.onServed;
  app.cache.onServed = (request, status, startedAt) => {
    previous?.(request, status, startedAt);
    duration.observe(
      { method: request.method ?? "GET", route: request.url ?? "", status: String(status) },
      (performance.now() - startedAt) / 1000,
    );
  };

  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  app.get("/metrics", { exposeHeadRoute: false }, async (request, reply) => {
    const given = createHash("sha256")
      .update(request.headers.authorization ?? "")
      .digest();
    if (!timingSafeEqual(given, expected)) {
      reply.header("www-authenticate", 'Bearer realm="metrics"');
      return reply.status(401).send(errorBody("unauthorized", "GET /metrics needs the METRICS_TOKEN as a bearer token."));
    }
    await sample();
    reply.header("cache-control", "no-store");
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
