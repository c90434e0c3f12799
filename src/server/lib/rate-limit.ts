// Rate limits whose counters live in the database, so every server process behind a load
// balancer shares them. Fixed one-minute windows: simple, predictable, and enough to stop
// guessing and form spam. Exceeding a limit answers 429 with Retry-After.
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { tooManyRequests } from "./errors";

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Count `amount` hits (one by default; bytes for a byte budget) on `key` in the current minute;
 * allowed while the count stays ≤ limit.
 */
export async function hit(db: Db, key: string, limit: number, amount = 1): Promise<LimitResult> {
  const result = await db.execute(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, ${amount}, date_trunc('minute', now()))
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = date_trunc('minute', now()) THEN rate_limits.count + ${amount} ELSE ${amount} END,
      window_start = date_trunc('minute', now())
    RETURNING count, extract(epoch from (date_trunc('minute', now()) + interval '1 minute' - now()))::float AS retry_after`);
  const row = (result as unknown as { rows: { count: number; retry_after: number }[] }).rows[0];
  const count = Number(row?.count ?? 1);
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(Number(row?.retry_after ?? 60))) };
}

/**
 * Reserve one attempt on `key` in the current minute, atomically: the row is counted up only
 * while it is below `limit`, so N concurrent callers get at most `limit` reservations between
 * them (PostgreSQL re-checks the WHERE on the locked, latest row of an ON CONFLICT update; a
 * count read first and written later let 25 simultaneous guesses through — issue 30). A refused
 * reservation adds nothing.
 */
export async function reserve(db: Db, key: string, limit: number): Promise<LimitResult> {
  const result = await db.execute(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, 1, date_trunc('minute', now()))
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = date_trunc('minute', now()) THEN rate_limits.count + 1 ELSE 1 END,
      window_start = date_trunc('minute', now())
    WHERE rate_limits.window_start <> date_trunc('minute', now()) OR rate_limits.count < ${limit}
    RETURNING count`);
  const row = (result as unknown as { rows: { count: number }[] }).rows[0];
  if (row && limit >= 1) return { allowed: true, count: Number(row.count), retryAfterSeconds: 0 };
  const { count, retryAfterSeconds } = await peek(db, key);
  return { allowed: false, count, retryAfterSeconds };
}

/** Give back one reservation on `key` made in the current minute (never below zero). */
export async function refund(db: Db, key: string): Promise<void> {
  await db.execute(sql`
    UPDATE rate_limits SET count = count - 1
    WHERE key = ${key} AND window_start = date_trunc('minute', now()) AND count > 0`);
}

/** The count on `key` in the current minute, without adding to it. */
export async function peek(db: Db, key: string): Promise<{ count: number; retryAfterSeconds: number }> {
  const result = await db.execute(sql`
    SELECT count, extract(epoch from (date_trunc('minute', now()) + interval '1 minute' - now()))::float AS retry_after
    FROM rate_limits WHERE key = ${key} AND window_start = date_trunc('minute', now())`);
  const row = (result as unknown as { rows: { count: number; retry_after: number }[] }).rows[0];
  const count = Number(row?.count ?? 0);
  const retryAfterSeconds = Math.max(1, Math.ceil(Number(row?.retry_after ?? 60)));
  return { count, retryAfterSeconds };
}

/** Throws the 429 AppError when any of the keys is over its limit. */
export async function enforce(db: Db, checks: { key: string; limit: number; message?: string }[]): Promise<void> {
  for (const check of checks) {
    const result = await hit(db, check.key, check.limit);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, check.message);
  }
}

/** Clear the one key (a successful login clears its account counter). */
export async function reset(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

/** Old windows are worthless; the maintenance job drops them. */
export async function purgeOldWindows(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '10 minutes'`);
}

export function clientIp(request: FastifyRequest): string {
  return request.ip || "unknown";
}

export const PUBLIC_WRITE_MESSAGE = "Too many requests from your connection. Please wait a minute and try again.";

// ---- per recipient ------------------------------------------------------------------------------

/**
 * Messages a stranger can cause to any address or number they type: a status-update
 * confirmation, an order or interest confirmation. Beyond RECIPIENT_LIMIT_PER_HOUR of them (all
 * kinds together) to one recipient in an hour, nothing more is queued to that recipient (issue 30:
 * 60 and 60 mails were queued to one victim from three addresses, each under its per-address limit).
 */
export const STRANGER_MESSAGE_KINDS = ["status-confirm", "order-confirmation", "interest-confirmation"] as const;
export const RECIPIENT_LIMIT_PER_HOUR = 3;

/**
 * Of `messages`, those that may be queued now: every message of another kind (the business's own
 * notices), and a stranger-caused one only while its recipient has had fewer than `limit` such
 * messages in the last hour. Counted from the outbox itself, under a transaction-scoped advisory
 * lock per recipient, so concurrent forms naming one victim cannot all slip under the cap. Call
 * it inside the transaction that queues the messages.
 */
export async function withinRecipientCap<M extends { kind: string; recipient: string }>(
  tx: Pick<Db, "execute">,
  messages: M[],
  limit = RECIPIENT_LIMIT_PER_HOUR,
): Promise<M[]> {
  const kept: M[] = [];
  const queuedNow = new Map<string, number>();
  for (const message of messages) {
    if (!(STRANGER_MESSAGE_KINDS as readonly string[]).includes(message.kind)) {
      kept.push(message);
      continue;
    }
    const recipient = message.recipient.trim().toLowerCase();
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`recipient-cap:${recipient}`}))`);
    const result = await tx.execute(sql`
      SELECT count(*)::int AS n FROM outbox
      WHERE lower(trim(recipient)) = ${recipient}
        AND kind IN ${[...STRANGER_MESSAGE_KINDS]}
        AND created_at > now() - interval '1 hour'`);
    const sent = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) + (queuedNow.get(recipient) ?? 0);
    if (sent >= limit) continue;
    queuedNow.set(recipient, (queuedNow.get(recipient) ?? 0) + 1);
    kept.push(message);
  }
  return kept;
}
