// Rate limits whose counters live in the database, so every server process behind a load
// balancer shares them. Exceeding a limit answers 429 with Retry-After. Sign-in (`reserve`)
// counts in a sliding minute, so no 60 seconds hold more than its limit; the form and download
// limits (`hit`, `enforce`) count per calendar minute: simple, and enough against form spam.
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
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
  const row = rowsOf<{ count: number; retry_after: number }>(result)[0];
  const count = Number(row?.count ?? 1);
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(Number(row?.retry_after ?? 60))) };
}

/**
 * `hit` for many callers in one statement (a group commit's batch): one hit each, in the order
 * given, so the k-th caller on a key gets the count it would have got hitting on its own in that
 * order. Keys are written in sorted order, so two batches never wait on each other's rows in turn.
 */
export async function hitEach(db: Pick<Db, "execute">, keys: readonly string[], limit: number): Promise<LimitResult[]> {
  if (keys.length === 0) return [];
  const amounts = new Map<string, number>();
  for (const key of keys) amounts.set(key, (amounts.get(key) ?? 0) + 1);
  const rows = [...amounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, amount]) => ({ key, amount }));
  const result = await db.execute(sql`
    INSERT INTO rate_limits (key, count, window_start)
    SELECT h.key, h.amount, date_trunc('minute', now()) FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS h(key text, amount int)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = date_trunc('minute', now()) THEN rate_limits.count + excluded.count ELSE excluded.count END,
      window_start = date_trunc('minute', now())
    RETURNING key, count, extract(epoch from (date_trunc('minute', now()) + interval '1 minute' - now()))::float AS retry_after`);
  const totals = new Map(rowsOf<{ key: string; count: number; retry_after: number }>(result).map((row) => [row.key, row]));
  const seen = new Map<string, number>();
  return keys.map((key) => {
    const row = totals.get(key);
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    // The batch's hits on a key were counted together: the k-th of n is the total less the n - k after it.
    const count = Number(row?.count ?? nth) - ((amounts.get(key) ?? nth) - nth);
    return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(Number(row?.retry_after ?? 60))) };
  });
}

// ---- sign-in: a sliding minute ---------------------------------------------------------------

/** The sliding window sign-in limits count in: any 60 seconds, whatever the clock says. */
export const SLIDING_WINDOW_SECONDS = 60;

/**
 * Reserve one attempt on `key`, atomically, while fewer than `limit` were made in the
 * SLIDING_WINDOW_SECONDS before `now`: the row keeps when each attempt of the last minute was
 * made (`hits`), so no 60 seconds ever hold more than `limit`, even across the turn of a minute
 * (issue 46: five guesses at :59.5 and five at :00.5 were all checked under calendar minutes).
 * The row is counted up only while it is below `limit` — PostgreSQL re-checks the WHERE on the
 * locked, latest row of an ON CONFLICT update — so N concurrent callers get at most `limit`
 * reservations between them (issue 30). A refused reservation adds nothing; its Retry-After is
 * when the oldest attempt that keeps it out leaves the window.
 */
export async function reserve(db: Db, key: string, limit: number, now = new Date()): Promise<LimitResult> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const inWindow = sql`h > ${at} - make_interval(secs => ${SLIDING_WINDOW_SECONDS})`;
  const result = await db.execute(sql`
    INSERT INTO rate_limits (key, count, window_start, hits) VALUES (${key}, 1, ${at}, ARRAY[${at}])
    ON CONFLICT (key) DO UPDATE SET
      hits = ARRAY(SELECT h FROM unnest(rate_limits.hits) AS h WHERE ${inWindow} ORDER BY h) || ${at},
      count = (SELECT count(*) FROM unnest(rate_limits.hits) AS h WHERE ${inWindow}) + 1,
      window_start = ${at}
    WHERE (SELECT count(*) FROM unnest(rate_limits.hits) AS h WHERE ${inWindow}) < ${limit}
    RETURNING count`);
  const row = rowsOf<{ count: number }>(result)[0];
  if (row && limit >= 1) return { allowed: true, count: Number(row.count), retryAfterSeconds: 0 };
  const hits = await hitsInWindow(db, key, now);
  // the attempt whose leaving brings the count below the limit
  const freeing = hits[Math.max(0, hits.length - Math.max(limit, 1))];
  const freeAt = freeing ? freeing.getTime() + SLIDING_WINDOW_SECONDS * 1000 : now.getTime();
  return { allowed: false, count: hits.length, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
}

/**
 * A password check outside sign-in (the current password of a password change): each try
 * reserved in the sliding window like a sign-in's, the 429 with Retry-After past `limit`.
 */
export async function limitGuesses(db: Db, key: string, limit: number, message?: string): Promise<void> {
  const result = await reserve(db, key, limit);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds, message);
}

/** Give back the latest reservation on `key` still in the window (a right password). */
export async function refund(db: Db, key: string, now = new Date()): Promise<void> {
  await db.execute(sql`
    UPDATE rate_limits SET hits = hits[1:cardinality(hits) - 1], count = greatest(count - 1, 0)
    WHERE key = ${key} AND cardinality(hits) > 0
      AND hits[cardinality(hits)] > ${now.toISOString()}::timestamptz - make_interval(secs => ${SLIDING_WINDOW_SECONDS})`);
}

/** When the attempts on `key` in the sliding window before `now` were made, oldest first. */
async function hitsInWindow(db: Db, key: string, now: Date): Promise<Date[]> {
  const result = await db.execute(sql`
    SELECT h FROM rate_limits, unnest(hits) AS h
    WHERE key = ${key} AND h > ${now.toISOString()}::timestamptz - make_interval(secs => ${SLIDING_WINDOW_SECONDS})
    ORDER BY h`);
  return rowsOf<{ h: string | Date }>(result).map((row) => new Date(row.h));
}

// ---- calendar minutes ---------------------------------------------------------------------------

/** The count on `key` in the current minute, without adding to it. */
export async function peek(db: Db, key: string): Promise<{ count: number; retryAfterSeconds: number }> {
  const result = await db.execute(sql`
    SELECT count, extract(epoch from (date_trunc('minute', now()) + interval '1 minute' - now()))::float AS retry_after
    FROM rate_limits WHERE key = ${key} AND window_start = date_trunc('minute', now())`);
  const row = rowsOf<{ count: number; retry_after: number }>(result)[0];
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
  const isStranger = (message: M) => (STRANGER_MESSAGE_KINDS as readonly string[]).includes(message.kind);
  const recipientOf = (message: M) => message.recipient.trim().toLowerCase();
  // Every recipient's lock in one statement, in sorted order (two callers never wait on each
  // other's locks in turn), then every recipient's last hour in one count: two round trips
  // however many messages (a group commit's batch names many recipients). One recipient (a form
  // alone) takes the plain statements, which PostgreSQL plans in a third of the time.
  const recipients = [...new Set(messages.filter(isStranger).map(recipientOf))].sort();
  const sentBefore = new Map<string, number>();
  const lastHour = sql`kind IN ${[...STRANGER_MESSAGE_KINDS]} AND created_at > now() - interval '1 hour'`;
  if (recipients.length === 1) {
    const [recipient] = recipients;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`recipient-cap:${recipient}`}))`);
    const result = await tx.execute(sql`
      SELECT count(*)::int AS n FROM outbox WHERE lower(trim(recipient)) = ${recipient} AND ${lastHour}`);
    sentBefore.set(recipient, Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0));
  } else if (recipients.length > 1) {
    const names = JSON.stringify(recipients.map((recipient) => `recipient-cap:${recipient}`));
    await tx.execute(sql`
      SELECT pg_advisory_xact_lock(hashtext(name))
      FROM (SELECT name FROM jsonb_array_elements_text(${names}::jsonb) WITH ORDINALITY AS r(name, i) ORDER BY i) AS ordered`);
    const result = await tx.execute(sql`
      SELECT lower(trim(recipient)) AS recipient, count(*)::int AS n FROM outbox
      WHERE lower(trim(recipient)) = ANY (ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(recipients)}::jsonb))) AND ${lastHour}
      GROUP BY 1`);
    for (const row of rowsOf<{ recipient: string; n: number }>(result)) sentBefore.set(row.recipient, Number(row.n));
  }
  const kept: M[] = [];
  for (const message of messages) {
    if (!isStranger(message)) {
      kept.push(message);
      continue;
    }
    const recipient = recipientOf(message);
    const sent = sentBefore.get(recipient) ?? 0;
    if (sent >= limit) continue;
    sentBefore.set(recipient, sent + 1);
    kept.push(message);
  }
  return kept;
}
