// One database handle for the whole server: embedded PGlite (DATA_DIR) by default, or a real
// PostgreSQL through `pg` when DATABASE_URL is set. Same schema, same migrations, same queries.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
export const CHANGE_CHANNEL = "table_changes";
/** The advisory lock several starting processes take turns on for migrations and the seed. */
const MIGRATION_LOCK_KEY = 7_405_221_901;

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /**
   * Subscribe to pg_notify payloads on a channel; resolves to an unsubscribe function.
   * `onReconnect` runs after a lost LISTEN connection is back: notifications sent while it was
   * down are gone, so the caller must treat everything as changed.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** A cheap round trip, used by health checks and the 503 guard. */
  ping(): Promise<void>;
  /**
   * Runs `fn` while holding a database-wide lock (PostgreSQL advisory lock), so several
   * processes starting together migrate and seed one after another, never at once.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PGlite only: the whole data directory as a gzip tarball, taken from the running server (a
   * checkpoint first, so everything written is in it); `npm run restore` takes the file.
   */
  backup?(): Promise<Blob>;
  /** PostgreSQL only: the pool's connections (GET /metrics) */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export interface DatabaseOptions {
  /** postgres://… ; when absent, PGlite is used */
  databaseUrl?: string;
  /** PGlite data directory; when absent with no databaseUrl, an in-memory PGlite (tests) */
  dataDir?: string;
  /** pool size for PostgreSQL */
  poolSize?: number;
  /** PGlite only: start from a dumped data directory (tests start from a migrated template) */
  loadDataDir?: Blob;
  /** PGlite only: PostgreSQL's shared_buffers, in MB (PGlite's default, 128, costs its RSS) */
  pgliteSharedBuffersMb?: number;
  /** PostgreSQL only: an idle pooled connection failed (logged by the app; the pool replaces it) */
  onPoolError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.onPoolError)
    : await openPglite(options.dataDir, options.loadDataDir, options.pgliteSharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB);
  // A dumped template (tests) is already migrated by this same code.
  if (!options.loadDataDir) await database.migrate();
  return database;
}

/**
 * PGlite's memory is one WebAssembly heap that grows and never shrinks. Two things keep it small
 * (README, "Memory"): shared_buffers of 32 MB instead of 128 (the tables are small and the OS
 * caches the files anyway), and a new data directory made by initdb in a short-lived child
 * process, whose few hundred MB go away with it instead of staying in the server's heap.
 */
export const PGLITE_SHARED_BUFFERS_MB = 32;

function initialisePgliteApart(dataDir: string): void {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
(async () => { const db = new PGlite({ dataDir: ${JSON.stringify(dataDir)} }); await db.waitReady; await db.close(); })()
  .catch((error) => { console.error(error); process.exit(1); });`;
  // On failure the server makes the directory itself, as before (more memory, same result).
  spawnSync(process.execPath, ["-e", script], { stdio: ["ignore", "ignore", "inherit"] });
}

async function openPglite(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  sharedBuffersMb: number,
): Promise<Database & { migrate(): Promise<void> }> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  if (dataDir && !loadDataDir) initialisePgliteApart(dataDir);
  // (PGlite reads options from the first argument; with `undefined` first, they are ignored.)
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`],
  });
  await client.waitReady;
  // Names the process holding the directory: `npm run backup` / `restore` refuse while it lives.
  const pidFile = dataDir ? path.join(dataDir, "streamdesk.pid") : null;
  if (pidFile) writeFileSync(pidFile, String(process.pid));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: "pglite",
    db,
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => {
        if (!closed) await unsubscribe();
      };
    },
    async ping() {
      if (closed) throw new Error("database closed");
      await client.query("select 1");
    },
    // One process owns an embedded database: nothing to wait for.
    exclusive: (fn) => fn(),
    async backup() {
      await client.query("checkpoint");
      return client.dumpDataDir("gzip");
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
      if (pidFile) rmSync(pidFile, { force: true });
    },
    dump: () => client.dumpDataDir("none"),
  } as Database & { migrate(): Promise<void> };
}

/** A migrated, empty PGlite dumped to a tarball: tests load it instead of migrating each time. */
export async function dumpMigratedPglite(): Promise<Blob> {
  const database = (await openDatabase({})) as Database & { dump(): Promise<Blob | File> };
  const blob = await database.dump();
  await database.close();
  return blob;
}

/**
 * A checked-out client whose connection dies is given back to the pool at once, marked broken
 * (so the pool drops it and opens a new one), and its later release by the code that held it is
 * a no-op. Without this, drizzle's transaction leaks the client when BEGIN itself fails, and a
 * few terminated backends leave the pool empty and every later request waiting.
 */
function releaseDeadClients(pool: pg.Pool): void {
  const checkouts = new WeakMap<pg.PoolClient, { released: boolean }>();
  const hooked = new WeakSet<pg.PoolClient>();
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.connect = (async (...args: unknown[]) => {
    if (args.length) return (pool.constructor as typeof pg.Pool).prototype.connect.apply(pool, args as never);
    const client = await connect();
    const checkout = { released: false };
    checkouts.set(client, checkout);
    const release = client.release;
    client.release = (error?: Error | boolean) => {
      if (checkout.released) return;
      checkout.released = true;
      release.call(client, error);
    };
    if (!hooked.has(client)) {
      hooked.add(client);
      client.on("error", (error) => {
        const current = checkouts.get(client);
        if (current && !current.released) client.release(error);
      });
    }
    return client;
  }) as typeof pool.connect;
}

/** A pool error as it may be logged: a plain Error with the message and, when there is one, the code. */
export function poolErrorSummary(error: unknown): Error & { code?: string } {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const summary: Error & { code?: string } = new Error(typeof message === "string" ? message.slice(0, 500) : "database connection error");
  summary.name = "PoolError";
  if (typeof code === "string" || typeof code === "number") summary.code = String(code);
  summary.stack = undefined;
  return summary;
}

function openPostgres(url: string, poolSize: number, onPoolError?: (error: Error) => void): Database & { migrate(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // A client that loses its connection (the server restarted, an admin terminated the backend)
  // must not crash the process: idle ones report through the pool, checked-out ones through
  // themselves. The query that was running fails, and the API answers it 503; the error is logged.
  // Only the message and the code reach the log: the driver's error (and the event's second
  // argument) can carry the whole connection — its parameters, socket and buffers (issue 30).
  pool.on("error", (error) => onPoolError?.(poolErrorSummary(error)));
  releaseDeadClients(pool);
  async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const lockClient = await pool.connect();
    try {
      await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      return await fn();
    } finally {
      await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      lockClient.release();
    }
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listeners = new Set<pg.Client>();
  return {
    kind: "postgres",
    db,
    async migrate() {
      await exclusive(() => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }));
    },
    exclusive,
    async listen(channel, onPayload, onReconnect) {
      // LISTEN needs one dedicated connection; it reconnects by itself when the database returns.
      let client: pg.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | null = null;
      let connectedBefore = false;
      const connect = async () => {
        if (stopped) return;
        const c = new pg.Client({ connectionString: url });
        c.on("notification", (msg) => {
          if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
        });
        const reconnect = () => {
          listeners.delete(c);
          c.removeAllListeners("end");
          c.end().catch(() => {});
          if (stopped || retry) return;
          retry = setTimeout(() => {
            retry = null;
            void connect();
          }, 1000);
        };
        c.on("error", reconnect);
        c.on("end", reconnect);
        try {
          await c.connect();
          await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
          client = c;
          listeners.add(c);
          if (connectedBefore) onReconnect?.();
          connectedBefore = true;
        } catch {
          reconnect();
        }
      };
      await connect();
      return async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        if (client) {
          listeners.delete(client);
          client.removeAllListeners("end");
          await client.end().catch(() => {});
        }
      };
    },
    async ping() {
      await pool.query("select 1");
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      for (const c of listeners) {
        c.removeAllListeners("end");
        await c.end().catch(() => {});
      }
      listeners.clear();
      await pool.end();
    },
  };
}
