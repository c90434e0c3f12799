// Waiting for the change feed instead of guessing how long it takes: a marker sent on the feed's
// channel after the writes a test made arrives after all of their changes (notifications come
// in the order they were committed), so once the bus has re-published it, every listener has
// been handed every earlier change.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { CHANGE_CHANNEL } from "@/server/db/client";

/** Resolves once this process's change bus has passed on every change committed before the call. */
export async function changesDelivered(app: FastifyInstance, timeoutMs = 10_000): Promise<void> {
  const marker = `test-marker-${randomUUID()}`;
  let off = () => {};
  const seen = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the change feed did not deliver its marker in ${timeoutMs} ms`)), timeoutMs);
    off = app.changes.onChange((change) => {
      if (change.table !== marker) return;
      clearTimeout(timer);
      resolve();
    });
  });
  try {
    await app.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify({ table: marker, op: "UPDATE", id: null })})`);
    await seen;
  } finally {
    off();
  }
}
