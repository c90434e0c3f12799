// Nightly: read the lines from the panel and compare each client's line with ours — missing on
// the panel, switched off while they should watch (or on while they should not), ending on
// another day, allowing another number of connections than their package — and the panel's
// lines no client of ours has. Each difference is kept in panel_drift with both sides' values
// (one open row per line and kind; one that went away by itself is 'resolved'), and in words
// on the client (line_sync_issue). Nothing is overwritten: the owner pushes ours to the panel or
// accepts the panel's, per difference (modules/panel/drift.ts). One process runs it per night
// (a claim on a private setting). The same pass checks the credits' runway (modules/panel/runway.ts).
// Run hourly by jobs/panel-sync.ts (it syncs when due) and by the owner's "check now" (routes.ts).
import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import { PanelError, type PanelLine, type PanelPackage } from "@/server/adapters/panel/panel";
import { clients, panelDrift, panelPackageMap, siteSettings } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { alertOwner } from "@/server/lib/owner-alerts";
import type { PanelCheckView } from "@/shared/admin-panel-schemas";
import { formatDate, formatDateTime } from "@/shared/dates";
import { runwayAlert } from "./runway";

/** At most one sync in this many hours, whatever the number of processes. */
const MIN_GAP_HOURS = 20;
const LAST_SYNC_SETTING = "private_panel_last_sync";
const DAY_MS = 86_400_000;
const SERVING = ["active", "trial", "grace"];
/** differences written in one statement */
const DRIFT_BATCH = 500;

export const DRIFT_KINDS = ["expiry", "enabled", "max_connections", "missing_on_panel", "missing_here"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One difference: both sides as text (an ISO date, 'true'/'false', a number, '' for none). */
export interface Drift {
  kind: DriftKind;
  ours: string;
  panel: string;
}

type Client = Pick<typeof clients.$inferSelect, "status" | "subscription_end" | "line_enabled">;

/** What differs between our client and their line on the panel (pure). `maxConnections`: what their package allows, when known. */
export function driftOf(client: Client, line: PanelLine | undefined, maxConnections?: number | null): Drift[] {
  if (!line) return [{ kind: "missing_on_panel", ours: "true", panel: "false" }];
  const found: Drift[] = [];
  const shouldWatch = SERVING.includes(client.status);
  if (shouldWatch && !line.enabled) found.push({ kind: "enabled", ours: "true", panel: "false" });
  if (!shouldWatch && line.enabled && (client.status === "suspended" || client.status === "expired")) {
    found.push({ kind: "enabled", ours: "false", panel: "true" });
  }
  // A trial or paid term and the panel's expiry may differ by the hours of the day; a day or more is a difference.
  if (
    shouldWatch &&
    line.expires_at &&
    client.subscription_end &&
    Math.abs(line.expires_at.getTime() - client.subscription_end.getTime()) >= DAY_MS
  ) {
    found.push({ kind: "expiry", ours: client.subscription_end.toISOString(), panel: line.expires_at.toISOString() });
  }
  if (maxConnections && line.max_connections !== maxConnections) {
    found.push({ kind: "max_connections", ours: String(maxConnections), panel: String(line.max_connections) });
  }
  return found;
}

/** A difference in the owner's words (the client page's line_sync_issue). */
export function driftWords(drift: Drift, status: string): string {
  switch (drift.kind) {
    case "missing_on_panel":
      return "The line is not on the panel any more.";
    case "missing_here":
      return "No client of ours has this line.";
    case "enabled":
      return drift.ours === "true"
        ? "The panel has the line switched off, but the client should be watching."
        : `The panel has the line on, but the client is ${status}.`;
    case "expiry":
      return `The panel's line ends on ${formatDate(new Date(drift.panel))}, our term on ${formatDate(new Date(drift.ours))}.`;
    case "max_connections":
      return `The panel allows ${drift.panel} connection(s), the package ${drift.ours}.`;
  }
}

/** Claims tonight's sync for this process; false when another ran it within MIN_GAP_HOURS. */
async function claim(app: FastifyInstance, now: Date): Promise<boolean> {
  await app.db
    .insert(siteSettings)
    .values({ key: LAST_SYNC_SETTING, value: "", description: "When the panel lines were last compared with ours.", is_active: false })
    .onConflictDoNothing({ target: siteSettings.key });
  const cutoff = new Date(now.getTime() - MIN_GAP_HOURS * 3_600_000).toISOString();
  const claimed = await app.db
    .update(siteSettings)
    .set({ value: now.toISOString(), updated_at: now })
    .where(and(eq(siteSettings.key, LAST_SYNC_SETTING), or(eq(siteSettings.value, ""), lt(siteSettings.value, cutoff))))
    .returning({ id: siteSettings.id });
  return claimed.length > 0;
}

/** The connections each of our packages allows: its mapped panel package's max_connections. */
async function allowedConnections(app: FastifyInstance, panelPackages: PanelPackage[]): Promise<Map<string, number>> {
  const byPanel = new Map(panelPackages.map((p) => [p.id, p.max_connections]));
  const mapping = await app.db.select().from(panelPackageMap);
  return new Map(
    mapping.flatMap((m) => (byPanel.has(m.panel_package_id) ? [[m.package_id, byPanel.get(m.panel_package_id) as number]] : [])),
  );
}

/** What the last check found, or why it failed (kept in a private setting, shown on the panel page as it is). */
export type PanelCheck = PanelCheckView;

export const LAST_CHECK_SETTING = "private_panel_last_check";
/** The owner is alerted when this many checks in a row could not read the panel. */
export const CHECK_FAILURES_BEFORE_ALERT = 3;

/** The last check, or null when none has run. */
export async function lastPanelCheck(app: FastifyInstance): Promise<PanelCheck | null> {
  const [row] = await app.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, LAST_CHECK_SETTING));
  if (!row?.value) return null;
  try {
    return JSON.parse(row.value) as PanelCheck;
  } catch {
    return null;
  }
}

async function keepCheck(app: FastifyInstance, check: PanelCheck) {
  const value = JSON.stringify(check);
  await app.db
    .insert(siteSettings)
    .values({ key: LAST_CHECK_SETTING, value, description: "What the last comparison with the panel found.", is_active: false })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
}

/**
 * One sync. `force` skips the once-a-night claim (the dashboard's "Check now", tests). A panel
 * that cannot be read is a failed check, never "all agree": it is recorded (the panel page says
 * so), the night's claim is let go so the next hour tries again, the owner is alerted once
 * after CHECK_FAILURES_BEFORE_ALERT failures in a row, and the error is thrown to the caller.
 */
export async function runPanelSync(
  app: FastifyInstance,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ checked: number; flagged: number; lines_read: number } | null> {
  const panel = app.provisioning.panel;
  if (panel.mode === "manual") return null;
  const now = options.now ?? new Date();
  if (!options.force && !(await claim(app, now))) return null;
  const started = performance.now();
  const previous = await lastPanelCheck(app);
  try {
    const result = await compare(app, now, options.force === true);
    await keepCheck(app, {
      at: now.toISOString(),
      ok: true,
      error: "",
      ...result,
      failures_in_row: 0,
      took_ms: Math.round(performance.now() - started),
    });
    return result;
  } catch (failure) {
    const error = failure instanceof PanelError ? failure.message : "The panel could not be read.";
    const failures = (previous && !previous.ok ? previous.failures_in_row : 0) + 1;
    await keepCheck(app, {
      at: now.toISOString(),
      ok: false,
      error,
      checked: 0,
      flagged: 0,
      lines_read: 0,
      failures_in_row: failures,
      took_ms: Math.round(performance.now() - started),
    });
    // The night's claim is let go: the hourly job tries again instead of waiting a day.
    if (!options.force) await app.db.update(siteSettings).set({ value: "" }).where(eq(siteSettings.key, LAST_SYNC_SETTING));
    if (failures === CHECK_FAILURES_BEFORE_ALERT) await alertCheckFailing(app, now, failures, error);
    app.log.warn({ status: failure instanceof PanelError ? failure.status : "ERROR", failures }, "panel check failed");
    throw failure;
  }
}

async function alertCheckFailing(app: FastifyInstance, now: Date, failures: number, error: string) {
  const business = await loadBusiness(app);
  const queued = await alertOwner(app, app.db, {
    cause: "panel-failed",
    dedupeKey: `panel-check-failed:${now.toISOString().slice(0, 13)}`,
    subject: "The panel could not be read",
    body: [
      `The last ${failures} checks of your IPTV panel failed. The last one, at ${formatDateTime(now)}, said: ${error}`,
      "",
      "Until a check works, differences between the panel and your clients are not found, and new lines and renewals may wait.",
      `Check the panel's address and API key, then press "Check now": ${business.publicUrl}/admin/panel`,
    ].join("\n"),
  });
  if (queued) app.outbox.nudge();
}

/** Reads every line on the panel and compares each of our clients' with it. */
async function compare(app: FastifyInstance, now: Date, force: boolean) {
  const panel = app.provisioning.panel;
  // "Check now" reads the panel afresh; the nightly run may use a read kept minutes ago
  if (force && isCachedPanel(panel)) panel.refresh();
  // Logins and boxes have ids of their own: keyed by type and id.
  const keyOf = (type: string | undefined, id: string) => `${type ?? "m3u"}:${id}`;
  const listed = await panel.lines();
  const lines = new Map(listed.map((line) => [keyOf(line.type, line.id), line]));
  const connections = await allowedConnections(app, await panel.packages());
  const linked = await app.db
    .select({
      id: clients.id,
      status: clients.status,
      subscription_end: clients.subscription_end,
      line_enabled: clients.line_enabled,
      panel_line_id: clients.panel_line_id,
      line_type: clients.line_type,
      package_id: clients.package_id,
      line_sync_issue: clients.line_sync_issue,
    })
    .from(clients)
    .where(and(isNotNull(clients.panel_line_id), sql`${clients.panel_line_id} not like 'manual:%'`));
  let flagged = 0;
  const found: (Drift & { client_id: string | null; panel_line_id: string })[] = [];
  for (const client of linked) {
    const lineId = client.panel_line_id as string;
    const line = lines.get(keyOf(client.line_type, lineId));
    const drifts = driftOf(client, line, client.package_id ? connections.get(client.package_id) : null);
    const issue = drifts.map((d) => driftWords(d, client.status)).join(" ");
    if (issue) flagged++;
    found.push(...drifts.map((d) => ({ ...d, client_id: client.id, panel_line_id: lineId })));
    const changes: Partial<typeof clients.$inferInsert> = {};
    if (issue !== client.line_sync_issue) changes.line_sync_issue = issue;
    // What the panel reports is recorded as the panel's; our term is left as it is.
    if (line) {
      changes.line_expires_at = line.expires_at;
      changes.line_enabled = line.enabled;
    }
    if (Object.keys(changes).length) await app.db.update(clients).set(changes).where(eq(clients.id, client.id));
  }
  // The panel's lines that no client of ours has (linked ids of every client, merged or not).
  const ours = new Set(
    (await app.db.select({ id: clients.panel_line_id, type: clients.line_type }).from(clients).where(isNotNull(clients.panel_line_id))).map(
      (r) => keyOf(r.type, r.id as string),
    ),
  );
  for (const [key, line] of lines) {
    // A box's line is named by its type too ('mag:5001'): its id is the device's.
    const named = line.type && line.type !== "m3u" ? key : line.id;
    if (!ours.has(key)) found.push({ kind: "missing_here", ours: "false", panel: "true", client_id: null, panel_line_id: named });
  }
  await recordDrift(app, found, now);
  if (flagged) app.log.info({ checked: linked.length, flagged }, "panel lines differ from ours");
  await runwayAlert(app, now).catch((error) => app.log.warn({ err: error }, "credit runway check failed"));
  return { checked: linked.length, flagged, lines_read: listed.length };
}

/**
 * Keeps panel_drift as the sync found it: each difference open once (its values refreshed), an
 * open one no longer found 'resolved'. A line the owner accepted as not ours (missing_here,
 * accepted) stays accepted: it is not opened again.
 */
async function recordDrift(app: FastifyInstance, found: (Drift & { client_id: string | null; panel_line_id: string })[], now: Date) {
  const accepted = new Set(
    (
      await app.db
        .select({ id: panelDrift.panel_line_id })
        .from(panelDrift)
        .where(and(eq(panelDrift.kind, "missing_here"), eq(panelDrift.status, "fixed")))
    ).map((r) => r.id),
  );
  // One open row per line and kind (a line two clients point at is listed once).
  const keep = [
    ...new Map(
      found.filter((d) => d.kind !== "missing_here" || !accepted.has(d.panel_line_id)).map((d) => [`${d.panel_line_id}\u0000${d.kind}`, d]),
    ).values(),
  ];
  const openIds: string[] = [];
  // A real panel has thousands of lines: written a batch at a time, not a statement a line.
  for (let i = 0; i < keep.length; i += DRIFT_BATCH) {
    const rows = await app.db
      .insert(panelDrift)
      .values(
        keep.slice(i, i + DRIFT_BATCH).map((d) => ({
          client_id: d.client_id,
          panel_line_id: d.panel_line_id,
          kind: d.kind,
          ours: d.ours,
          panel: d.panel,
          found_at: now,
          seen_at: now,
        })),
      )
      .onConflictDoUpdate({
        target: [panelDrift.panel_line_id, panelDrift.kind],
        targetWhere: sql`status = 'open'`,
        set: { ours: sql`excluded.ours`, panel: sql`excluded.panel`, client_id: sql`excluded.client_id`, seen_at: now },
      })
      .returning({ id: panelDrift.id });
    openIds.push(...rows.map((r) => r.id));
  }
  // Open rows not found this time went away by themselves.
  const stillOpen = new Set(openIds);
  const gone = (await app.db.select({ id: panelDrift.id }).from(panelDrift).where(eq(panelDrift.status, "open")))
    .map((r) => r.id)
    .filter((id) => !stillOpen.has(id));
  for (let i = 0; i < gone.length; i += DRIFT_BATCH) {
    await app.db
      .update(panelDrift)
      .set({ status: "resolved", seen_at: now })
      .where(and(eq(panelDrift.status, "open"), inArray(panelDrift.id, gone.slice(i, i + DRIFT_BATCH))));
  }
}
