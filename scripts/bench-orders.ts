// Order submissions under load (docs/architecture.md, "Budgets": 1,000 concurrent submissions, all saved,
// none answered 5xx). Starts the app in this process on 127.0.0.1:0 — on a fresh PGlite data
// dir and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, again on a fresh PostgreSQL
// database it creates and drops — fires the submissions at once with fetch, and prints leads
// saved (counted in the database), 5xx, other non-2xx, p50/p99 latency and wall time. It
// reports; it never fails on a figure. Bounded: each run stops within ~90 s, the whole within
// ~4 minutes.
//
//   node --import tsx scripts/bench-orders.ts [--count=1000] [--json]
//   import { benchOrders, printOrdersBench } from "./bench-orders"  (scripts/bench.ts)
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp, LISTEN_BACKLOG } from "../src/server/app";
import { loadConfig } from "../src/server/config";

const RUN_TIMEOUT_MS = 90_000;
const WARM_UP = 10;
const PAID_PACKAGES = [
  { package: "Month to Month", duration: "1 Month" },
  { package: "3 Months", duration: "3 Months" },
  { package: "6 Months", duration: "6 Months" },
  { package: "12 Months", duration: "12 Months" },
];
const DEVICES = ["android", "ios", "smart-tv-samsung", "firestick", "pc"];
const PLATFORMS = ["fibre", "wireless", "5g", "lte"];

export interface OrdersBenchResult {
  database: "pglite" | "postgres";
  submissions: number;
  /** bench leads found in the database afterwards */
  saved: number;
  status2xx: number;
  status5xx: number;
  otherNon2xx: number;
  /** requests that got no answer (connection error or the run's time limit) */
  noAnswer: number;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
}

export interface OrdersBenchOptions {
  /** concurrent submissions per database (default 1000) */
  count?: number;
  /** a PostgreSQL URL to create the bench database on; default BENCH_DATABASE_URL ?? TEST_DATABASE_URL; null: PGlite only */
  postgresAdminUrl?: string | null;
}

/** One result per database: PGlite always, PostgreSQL when a URL is given or set in the environment. */
export async function benchOrders(options: OrdersBenchOptions = {}): Promise<OrdersBenchResult[]> {
  const count = options.count ?? 1000;
  const adminUrl =
    options.postgresAdminUrl === undefined ? (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) : options.postgresAdminUrl;
  const results = [await onPglite(count)];
  if (adminUrl) results.push(await onPostgres(adminUrl, count));
  return results;
}

export function printOrdersBench(results: readonly OrdersBenchResult[], log: (line: string) => void = console.log): void {
  log("database   submissions  saved  2xx    5xx  other-non-2xx  no-answer  p50 ms  p99 ms  wall ms");
  for (const r of results) {
    log(
      [
        r.database.padEnd(10),
        String(r.submissions).padStart(11),
        String(r.saved).padStart(6),
        String(r.status2xx).padStart(4),
        String(r.status5xx).padStart(6),
        String(r.otherNon2xx).padStart(14),
        String(r.noAnswer).padStart(10),
        r.p50Ms.toFixed(0).padStart(7),
        r.p99Ms.toFixed(0).padStart(7),
        r.wallMs.toFixed(0).padStart(8),
      ].join(" "),
    );
  }
  const ok = results.every((r) => r.saved === r.submissions && r.status5xx === 0);
  log(`budget: every submission saved, none answered 5xx — ${ok ? "met" : "NOT met"}`);
  // For scripts/bench.ts's summary table.
  for (const r of results) {
    const figure = `orders on ${r.database}: ${r.submissions} at once saved, none 5xx`;
    const value = `${r.saved} saved, ${r.status5xx} 5xx`;
    log(`SUMMARY ${JSON.stringify({ figure, value, budget: "all, 0", ok: r.saved === r.submissions && r.status5xx === 0 })}`);
    const rate = (r.submissions / r.wallMs) * 1000;
    log(
      `SUMMARY ${JSON.stringify({ figure: `orders on ${r.database}: throughput`, value: `${rate.toFixed(0)}/s`, budget: "reported", ok: null })}`,
    );
  }
}

// ---- one run ------------------------------------------------------------------------------

const benchConfig = (env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    JOBS: "off",
    HOST: "127.0.0.1",
    PORT: "0",
    PUBLIC_WRITE_LIMIT_PER_MIN: "1000000",
    WEB_DIST_DIR: path.join(tmpdir(), "streamdesk-bench-no-spa"),
    ...env,
  });

async function onPglite(count: number): Promise<OrdersBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-bench-orders-"));
  try {
    return await run("pglite", benchConfig({ DATA_DIR: dataDir }), count);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(adminUrl: string, count: number): Promise<OrdersBenchResult> {
  const name = `sd_bench_orders_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await run("postgres", benchConfig({ DATABASE_URL: url.toString() }), count);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

function order(tag: string, i: number): Record<string, unknown> {
  const plan = PAID_PACKAGES[i % PAID_PACKAGES.length];
  return {
    name: `Bench Customer ${i}`,
    email: `${tag}-${i}@bench.example.co.za`,
    whatsapp: `+27 81 ${String(1_000_000 + i).slice(-7)}`,
    ...plan,
    device: DEVICES[i % DEVICES.length],
    internetPlatform: PLATFORMS[i % PLATFORMS.length],
    otherPlatform: "",
    internetSpeed: `${10 + (i % 90)} Mbps`,
    formType: "order",
    marketingOptIn: i % 3 === 0,
  };
}

async function run(
  database: OrdersBenchResult["database"],
  config: ReturnType<typeof loadConfig>,
  count: number,
): Promise<OrdersBenchResult> {
  const app = await buildApp(config);
  try {
    // As main.ts listens: 1,000 connections at once overflow Node's default queue of 511, and a
    // dropped connection waits for SYN retries past fetch's 10 s connect timeout (no answer).
    await app.listen({ host: "127.0.0.1", port: 0, backlog: LISTEN_BACKLOG });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/orders`;
    const send = (body: Record<string, unknown>, signal: AbortSignal) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });

    // Warm up connections, caches and prepared code paths (not counted).
    for (let i = 0; i < WARM_UP; i++) await (await send(order("warmup", i), AbortSignal.timeout(10_000))).arrayBuffer();

    const tag = `bench-${Date.now().toString(36)}`;
    const signal = AbortSignal.timeout(RUN_TIMEOUT_MS);
    const latencies: number[] = [];
    let status2xx = 0;
    let status5xx = 0;
    let otherNon2xx = 0;
    let noAnswer = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const t0 = performance.now();
        try {
          const res = await send(order(tag, i), signal);
          await res.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (res.status >= 200 && res.status < 300) status2xx++;
          else if (res.status >= 500) status5xx++;
          else otherNon2xx++;
        } catch {
          noAnswer++;
        }
      }),
    );
    const wallMs = performance.now() - started;
    const counted = await app.db.execute(sql`SELECT count(*)::int AS n FROM leads WHERE email LIKE ${`${tag}-%`}`);
    const saved = Number((counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    latencies.sort((a, b) => a - b);
    return {
      database,
      submissions: count,
      saved,
      status2xx,
      status5xx,
      otherNon2xx,
      noAnswer,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      wallMs,
    };
  } finally {
    await app.close();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

// ---- command line ---------------------------------------------------------------------------

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const countArg = args.find((a) => a.startsWith("--count="));
  const count = countArg ? Number(countArg.slice("--count=".length)) : 1000;
  if (!Number.isInteger(count) || count < 1) throw new Error("--count needs a positive whole number (--count=1000)");
  // Whatever happens, the process ends within about four minutes.
  const watchdog = setTimeout(() => {
    console.error("bench-orders: stopped by its 4-minute watchdog");
    process.exit(2);
  }, 240_000);
  watchdog.unref();
  const results = await benchOrders({ count });
  if (args.includes("--json")) console.log(JSON.stringify(results));
  else {
    console.log(`Orders: ${count} concurrent submissions per database (server and client share this process)`);
    printOrdersBench(results);
  }
  process.exit(0);
}
