// The health monitor: checks each component of the status page, records one status_checks
// row per component and updates system_components. Run every 60 s by its job
// (jobs/health-monitor.ts) and on POST /api/status/check and the admin's "check now", at most
// once per 30 s across all server processes (an admin may force a run). A component an admin
// put under maintenance keeps its status and message. It lives in lib/ because routes and the
// job both run it (a module may not import a job), and its payments probe names the card
// provider, which modules/ may not.
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import nodemailer from "nodemailer";
import { statusChecks, systemComponents } from "@/server/db/schema";
import type { ComponentStatus } from "@/shared/api";

/** runs closer together than this are skipped (unless forced) */
export const MIN_INTERVAL_S = 30;
/** status history older than this is deleted */
export const RETENTION_DAYS = 120;
/** outbox messages waiting longer than this (on a channel that can send) mean trouble */
export const STALE_OUTBOX_MIN = 15;
const DB_TIMEOUT_MS = 2_000;
const DB_SLOW_MS = 1_000;
const SMTP_TIMEOUT_MS = 5_000;

export const MESSAGES = Object.freeze({
  sandbox: "Sandbox payments (test mode)",
  ikhokha: "Card payments via iKhokha",
  paymentsIncomplete: "Card payment setup is incomplete",
  noTransport: "Messages are queued for the admin; no transport configured",
  sending: "Messages are being sent normally",
  failed: "Some messages could not be delivered; our team is following up",
  delayed: "Some messages are delayed",
  dbUp: "Responding normally",
  dbSlow: "Responding slowly",
  dbDown: "Not responding",
  website: "Responding",
  maintenance: "Scheduled maintenance",
});

export interface CheckResult {
  status: ComponentStatus;
  latencyMs: number | null;
  /** shown on the public status page: plain words, nothing internal */
  message: string;
  /** kept in status_checks for the admin (counts, errors); defaults to `message` */
  detail?: string;
}

type Probe = (app: FastifyInstance) => Promise<CheckResult>;

/**
 * Probes by component key. A component without a probe (the streaming service, which sits
 * with the upstream provider we cannot reach, or any an admin adds) keeps the status and
 * message an admin gave it; the monitor only records it in the history.
 */
const PROBES: Record<string, Probe> = {
  database: checkDatabase,
  messaging: checkMessaging,
  payments: async (app) => checkPayments(app.config),
  website: async () => ({ status: "operational", latencyMs: null, message: MESSAGES.website }),
};

export interface RunResult {
  ran: boolean;
  /** when the latest recorded run finished (ISO), or null if none ever did */
  checkedAt: string | null;
}

/** Run the checks unless a run finished (or started elsewhere) in the last 30 s. */
export async function runIfDue(app: FastifyInstance, options: { force?: boolean } = {}): Promise<RunResult> {
  if (!options.force) {
    const latest = await latestRun(app);
    if (latest.fresh) return { ran: false, checkedAt: latest.at };
    // Several processes may get here at once; one claim wins, the others skip.
    if (!(await claimRun(app, MIN_INTERVAL_S))) return { ran: false, checkedAt: latest.at };
  } else {
    await claimRun(app, 0);
  }
  return { ran: true, checkedAt: await runChecks(app) };
}

/** Check every component now and record the results; returns the time recorded (ISO). */
export async function runChecks(app: FastifyInstance): Promise<string> {
  const components = await app.db.select().from(systemComponents);
  const results = await Promise.all(
    components.map(async (component) => {
      const probe = PROBES[component.key];
      const result: CheckResult = probe
        ? await probe(app).catch((error: unknown) => ({
            status: "degraded" as const,
            latencyMs: null,
            message: "Could not be checked",
            detail: errorText(error),
          }))
        : { status: validStatus(component.status), latencyMs: null, message: component.message };
      return { component, result };
    }),
  );

  return app.db.transaction(async (tx) => {
    let checkedAt: Date | null = null;
    for (const { component, result } of results) {
      const underMaintenance = component.maintenance;
      const [row] = await tx
        .insert(statusChecks)
        .values({
          component_id: component.id,
          status: underMaintenance ? "maintenance" : result.status,
          latency_ms: result.latencyMs,
          message: underMaintenance ? component.message || MESSAGES.maintenance : (result.detail ?? result.message),
        })
        .returning({ created_at: statusChecks.created_at });
      if (row && (!checkedAt || row.created_at > checkedAt)) checkedAt = row.created_at;
      // The maintenance guard is in the statement, so an admin's switch made during the run wins.
      await tx.execute(sql`
        UPDATE system_components SET
          status = CASE WHEN maintenance THEN status ELSE ${result.status} END,
          message = CASE WHEN maintenance THEN message ELSE ${result.message} END,
          last_checked_at = now(),
          updated_at = now()
        WHERE id = ${component.id}`);
    }
    return (checkedAt ?? new Date()).toISOString();
  });
}

/** History older than the retention period; index-friendly (component, time). */
export async function purgeOldChecks(app: FastifyInstance): Promise<void> {
  await app.db.execute(sql`
    DELETE FROM status_checks
    WHERE component_id IN (SELECT id FROM system_components)
      AND created_at < now() - make_interval(days => ${RETENTION_DAYS})`);
}

// ---- run bookkeeping ----------------------------------------------------------------------

/** The latest recorded check (one index lookup per component) and whether it is under 30 s old, by the database's clock. */
async function latestRun(app: FastifyInstance): Promise<{ at: string | null; fresh: boolean }> {
  const result = await app.db.execute(sql`
    SELECT max(latest.created_at) AS at,
           coalesce(max(latest.created_at) > now() - make_interval(secs => ${MIN_INTERVAL_S}), false) AS fresh
    FROM system_components c
    CROSS JOIN LATERAL (
      SELECT s.created_at FROM status_checks s WHERE s.component_id = c.id ORDER BY s.created_at DESC LIMIT 1
    ) latest`);
  const row = rowsOf<{ at: Date | string | null; fresh: boolean }>(result)[0];
  return { at: row?.at ? new Date(row.at).toISOString() : null, fresh: row?.fresh === true };
}

/**
 * Claim the next run: one row in the shared rate_limits table whose time moves only when the
 * previous claim is at least `minGapSeconds` old. The upsert locks that row, so of several
 * processes claiming at once exactly one succeeds.
 */
async function claimRun(app: FastifyInstance, minGapSeconds: number): Promise<boolean> {
  const result = await app.db.execute(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES ('health-monitor:run', 1, now())
    ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + 1, window_start = now()
    WHERE rate_limits.window_start <= now() - make_interval(secs => ${minGapSeconds})
    RETURNING key`);
  return rowsOf(result).length > 0;
}

// ---- probes -------------------------------------------------------------------------------

async function checkDatabase(app: FastifyInstance): Promise<CheckResult> {
  const started = performance.now();
  try {
    await withTimeout(app.database.ping(), DB_TIMEOUT_MS, "database ping");
  } catch (error) {
    return { status: "down", latencyMs: null, message: MESSAGES.dbDown, detail: errorText(error) };
  }
  const latencyMs = Math.round(performance.now() - started);
  const slow = latencyMs > DB_SLOW_MS;
  return {
    status: slow ? "degraded" : "operational",
    latencyMs,
    message: slow ? MESSAGES.dbSlow : MESSAGES.dbUp,
    detail: `round trip ${latencyMs} ms`,
  };
}

/**
 * Messaging: final failures in the last 24 h, messages stuck on a channel that has a
 * transport, and (when SMTP_URL is set) whether the mail server accepts a connection.
 * Without any transport, messages waiting is the designed behaviour, not a fault.
 */
async function checkMessaging(app: FastifyInstance): Promise<CheckResult> {
  const channels = app.outbox.channels;
  const sendable = channels.length
    ? sql`channel IN (${sql.join(
        channels.map((c) => sql`${c}`),
        sql`, `,
      )})`
    : sql`false`;
  const counts = rowsOf<{ failed: number | string; stale: number | string }>(
    await app.db.execute(sql`
      SELECT
        count(*) FILTER (WHERE status = 'failed' AND updated_at > now() - interval '24 hours') AS failed,
        count(*) FILTER (WHERE status IN ('pending', 'sending') AND ${sendable}
                           AND created_at < now() - make_interval(mins => ${STALE_OUTBOX_MIN})) AS stale
      FROM outbox
      WHERE status IN ('pending', 'sending', 'failed')`),
  )[0];
  const failed = Number(counts?.failed ?? 0);
  const stale = Number(counts?.stale ?? 0);

  let latencyMs: number | null = null;
  let smtpError: string | null = null;
  if (app.config.SMTP_URL) {
    const started = performance.now();
    try {
      await verifySmtp(app.config.SMTP_URL);
      latencyMs = Math.round(performance.now() - started);
    } catch (error) {
      smtpError = errorText(error);
    }
  }

  const details = [
    failed ? `${failed} failed in the last 24 h` : "",
    stale ? `${stale} waiting longer than ${STALE_OUTBOX_MIN} min` : "",
    smtpError ? `SMTP: ${smtpError}` : "",
  ].filter(Boolean);
  const detail = details.join("; ") || undefined;
  if (failed) return { status: "degraded", latencyMs, message: MESSAGES.failed, detail };
  if (channels.length === 0) return { status: "operational", latencyMs, message: MESSAGES.noTransport };
  if (stale || smtpError) return { status: "degraded", latencyMs, message: MESSAGES.delayed, detail };
  return { status: "operational", latencyMs, message: MESSAGES.sending, detail: `channels: ${channels.join(", ")}` };
}

/** Connect, greet and (when the URL has credentials) log in; short timeouts so a dead server can't stall a run. */
async function verifySmtp(smtpUrl: string): Promise<void> {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    await withTimeout(transporter.verify(), SMTP_TIMEOUT_MS + 1_000, "SMTP verify");
  } finally {
    transporter.close();
  }
}

/** Payments: the sandbox is a working (test) provider; iKhokha needs its app id, secret and entity id. */
export function checkPayments(config: FastifyInstance["config"]): CheckResult {
  if (!config.IKHOKHA_APP_ID || !config.IKHOKHA_APP_SECRET) {
    return { status: "operational", latencyMs: null, message: MESSAGES.sandbox };
  }
  if (!config.IKHOKHA_ENTITY_ID) {
    return {
      status: "degraded",
      latencyMs: null,
      message: MESSAGES.paymentsIncomplete,
      detail: "IKHOKHA_APP_ID and IKHOKHA_APP_SECRET are set but IKHOKHA_ENTITY_ID is not",
    };
  }
  return { status: "operational", latencyMs: null, message: MESSAGES.ikhokha };
}

// ---- helpers ------------------------------------------------------------------------------

const STATUSES: readonly string[] = ["operational", "degraded", "maintenance", "down"];
const validStatus = (value: string): ComponentStatus => (STATUSES.includes(value) ? (value as ComponentStatus) : "degraded");

const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? [];

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
