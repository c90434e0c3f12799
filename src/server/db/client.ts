// One database handle for the whole server: embedded PGlite (DATA_DIR) by default, or a real
// PostgreSQL through `pg` when DATABASE_URL is set. Same schema, same migrations, same queries.
import { mkdirSync } from "node:fs";
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
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await openPglite(options.dataDir, options.loadDataDir);
  // A dumped template (tests) is already migrated by this same code.
  if (!options.loadDataDir) await database.migrate();
  return database;
}

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database & { migrate(): Promise<void> }> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // (PGlite reads options from the first argument; with `undefined` first, they are ignored.)
  const client = new PGlite({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
  await client.waitReady;
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
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
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

function openPostgres(url: string, poolSize: number): Database & { migrate(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // A client that loses its connection (the server restarted, an admin terminated the backend)
  // must not crash the process: idle ones report through the pool, checked-out ones through
  // themselves. The query that was running fails, and the API answers it 503.
  pool.on("error", () => {});
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
