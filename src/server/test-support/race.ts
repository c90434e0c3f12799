// A starting line for tests that race on PostgreSQL (issue 47): a connection of its own takes a lock
// the racers need, the racers are started, and the lock is let go only once the database shows that
// many of them waiting on it: they then go at the same moment, not one after another as they were
// started. The condition is the database's own (pg_stat_activity), never a fixed wait. PostgreSQL
// only: PGlite is one connection, where nothing can wait on anything.
import pg from "pg";
import { type App, buildApp } from "@/server/app";
import { openDatabase } from "@/server/db/client";
import type { TestApp } from "@/server/testing";

/** How many statements of this database are waiting on a lock now. */
async function lockWaiters(watcher: pg.Client): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
  );
  return rows[0].n;
}

/** Wait until at least `count` statements of the database at `url` wait on a lock (or fail after `timeoutMs`). */
export async function waitForLockWaiters(url: string, count: number, timeoutMs = 15_000): Promise<void> {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  try {
    const until = Date.now() + timeoutMs;
    for (let seen = await lockWaiters(watcher); seen < count; seen = await lockWaiters(watcher)) {
      if (Date.now() > until) throw new Error(`only ${seen} of ${count} racers came to wait on the lock within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await watcher.end();
  }
}

/**
 * Runs `lock` (e.g. `LOCK TABLE outbox IN EXCLUSIVE MODE`) in a transaction of its own on the
 * database at `url`, starts `race`, waits until `racers` statements wait on a lock, then commits:
 * the racers are let go together. Returns what `race` returns.
 */
export async function startTogether<T>(url: string, lock: string, racers: number, race: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  let racing: Promise<T> | null = null;
  try {
    await holder.query("BEGIN");
    await holder.query(lock);
    racing = race();
    // A racer that fails before it waits is reported by `race` itself, not as a timeout here.
    racing.catch(() => {});
    await waitForLockWaiters(url, racers);
  } finally {
    await holder.query("COMMIT").catch(() => {});
    await holder.end();
  }
  return racing;
}

/** A second server process on the same PostgreSQL database as a test app: an app, and a pool, of its own. */
export interface OtherProcess {
  app: App;
  close(): Promise<void>;
}

/**
 * Builds another app on the database of `t` (PostgreSQL only), as a second server process would
 * be: same config, its own connection pool, nothing seeded. Close it before the test app.
 * It shares this Node process's modules with the test app: state a module keeps in memory (the
 * pay-link route's map of starts in flight, say) is one for both, so a race through such a path
 * tests the process, not the database; race below it (the database claim) there.
 */
export async function secondProcess(t: TestApp, poolSize = 5): Promise<OtherProcess> {
  if (!t.database.url) throw new Error("a second process needs PostgreSQL (PGlite is one connection)");
  const database = await openDatabase({ databaseUrl: t.database.url, poolSize });
  const app = await buildApp(t.config, { database, seed: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
