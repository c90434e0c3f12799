// Differences between a client and their line on the panel, as the sync found them
// (jobs/panel-sync.ts), and the owner's fix for each (issue 32 item 5):
//   push   — ours to the panel: a provisioning job (cause key drift:<id>:push:<action>), so the
//            worker does it once, whatever the replays
//   accept — the panel's taken as ours: a change of term or status goes through the lifecycle
//            (cause panel-accepted, key drift:<id>:accept), a line gone from the panel is unlinked
// Each fix happens once: the drift row is locked and moved open → fixed in the fix's transaction,
// with the audit entry; a replay of the same fix answers the row as it is, another is a 409.
import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { PanelError, type PanelPackage } from "@/server/adapters/panel/panel";
import { clients, packages, panelDrift, panelPackageMap } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { conflict, notFound } from "@/server/lib/errors";
import { adminActor, applyOrRefuse, loadRules } from "@/server/lib/lifecycle";
import { type PlannedJob, queuePanelWork } from "@/server/lib/provisioning";
import type { PanelDriftFix, PanelDriftList, PanelDriftView } from "@/shared/business-schemas";
import { addMonths, daysBetween, formatDate } from "@/shared/dates";
import { DRIFT_KINDS, type DriftKind, driftWords } from "./sync";

type DriftRow = typeof panelDrift.$inferSelect;
type Tx = Parameters<Parameters<FastifyInstance["db"]["transaction"]>[0]>[0];

/** Why a side cannot be taken for this kind of difference ('' when it can), in the owner's words. */
function refusal(row: Pick<DriftRow, "kind" | "ours" | "panel">, direction: PanelDriftFix["direction"]): string {
  const kind = row.kind as DriftKind;
  if (direction === "push") {
    if (kind === "missing_here")
      return "No client of ours has this line, so there is nothing of ours to push: mark it not ours, or remove it on the panel.";
    if (kind === "max_connections")
      return "The reseller API changes a line's connections only with its package: map another panel package, or change it on the panel.";
    if (kind === "expiry" && new Date(row.panel) > new Date(row.ours)) {
      return "The reseller API cannot shorten a line: accept the panel's date, or shorten the line on the panel.";
    }
    return "";
  }
  if (kind === "enabled" && row.ours === "false")
    return "Our client's line should be off: push to switch it off on the panel, or reactivate the client.";
  return "";
}

export interface DriftQuery {
  status: "open" | "fixed" | "resolved" | "all";
  /** one kind, or 'clients': every kind that names a client of ours (all but missing_here) */
  kind?: DriftKind | "clients";
  limit: number;
  offset: number;
}

/**
 * GET /api/admin/panel/drift: a page of differences, those of our clients first (a real panel
 * holds thousands of lines no client of ours has: they must not bury the few that matter),
 * newest first within each; with the total and each kind's count of open ones.
 */
export async function listDrift(app: FastifyInstance, query: DriftQuery): Promise<PanelDriftList> {
  const where = and(
    query.status === "all" ? undefined : eq(panelDrift.status, query.status),
    query.kind === "clients" ? ne(panelDrift.kind, "missing_here") : query.kind ? eq(panelDrift.kind, query.kind) : undefined,
  );
  const [rows, [{ total }], byKind] = await Promise.all([
    app.db
      .select({ drift: panelDrift, client_full_name: clients.full_name, client_status: clients.status, package_id: clients.package_id })
      .from(panelDrift)
      .leftJoin(clients, eq(clients.id, panelDrift.client_id))
      .where(where)
      .orderBy(sql`${panelDrift.client_id} is null`, desc(panelDrift.found_at), desc(panelDrift.id))
      .limit(query.limit)
      .offset(query.offset),
    app.db.select({ total: count() }).from(panelDrift).where(where),
    app.db.select({ kind: panelDrift.kind, n: count() }).from(panelDrift).where(eq(panelDrift.status, "open")).groupBy(panelDrift.kind),
  ]);
  const counts = Object.fromEntries(DRIFT_KINDS.map((k) => [k, 0])) as PanelDriftList["counts"];
  for (const { kind, n } of byKind) counts[kind as DriftKind] = Number(n);
  const prices = rows.some(({ drift }) => pushSpends(drift)) ? await pushPrices(app) : null;
  return {
    data: rows.map(({ drift, client_full_name, client_status, package_id }) =>
      toView(
        drift,
        client_full_name,
        client_status,
        prices && pushSpends(drift) ? pushCost(drift, prices.get(package_id ?? ""), prices.unread) : null,
      ),
    ),
    total: Number(total),
    counts,
  };
}

/** A push that buys a package: extending a line the panel ends too early, or making one it lost. */
const pushSpends = (drift: Pick<DriftRow, "status" | "kind" | "ours" | "panel">) =>
  drift.status === "open" && (drift.kind === "expiry" || drift.kind === "missing_on_panel") && refusal(drift, "push") === "";

type PanelPrice = Pick<PanelPackage, "name" | "official_credits" | "official_duration" | "official_duration_in">;

/** Our package id → the panel package a push would buy (the mapping; the sandbox's by length); `unread` when the panel's list could not be read. */
async function pushPrices(app: FastifyInstance): Promise<Map<string, PanelPrice> & { unread?: string }> {
  const prices: Map<string, PanelPrice> & { unread?: string } = new Map();
  let listed: PanelPackage[];
  try {
    listed = await app.provisioning.panel.packages();
  } catch (failure) {
    prices.unread = failure instanceof PanelError ? failure.message : "The panel could not be read.";
    return prices;
  }
  const byId = new Map(listed.map((p) => [p.id, p]));
  for (const m of await app.db.select().from(panelPackageMap)) {
    const found = byId.get(m.panel_package_id);
    if (found) prices.set(m.package_id, found);
  }
  if (app.provisioning.panel.mode === "sandbox") {
    for (const p of await app.db.select({ id: packages.id, months: packages.duration_months }).from(packages)) {
      const found = listed.find((s) => !s.is_trial && s.official_duration_in === "months" && s.official_duration === p.months);
      if (!prices.has(p.id) && found) prices.set(p.id, found);
    }
  }
  return prices;
}

/** What pushing this difference spends, in the owner's words. */
export function pushCost(
  drift: Pick<DriftRow, "kind" | "ours" | "panel">,
  price: PanelPrice | undefined,
  unread?: string,
  now = new Date(),
): PanelDriftView["push_cost"] {
  if (unread) return { credits: null, words: `What this costs can't be read from the panel now (${unread}).` };
  if (!price) return { credits: null, words: "The client's package is not mapped to a panel package: map it before pushing." };
  const credits = `${price.official_credits} ${price.official_credits === 1 ? "credit" : "credits"}`;
  if (drift.kind === "missing_on_panel")
    return { credits: price.official_credits, words: `Makes a new line on ${price.name}: ${credits}.` };
  // The panel adds the package's length to the line's end (or to now, once lapsed).
  const from = new Date(Math.max(new Date(drift.panel).getTime(), now.getTime()));
  const months = price.official_duration_in === "months" ? price.official_duration : null;
  const ends = months ? addMonths(from, months) : null;
  const ours = new Date(drift.ours);
  const tail = !ends
    ? ""
    : ends < ours
      ? ` The panel will end it on ${formatDate(ends)}, still before our ${formatDate(ours)}: push again after.`
      : ` The panel will end it on ${formatDate(ends)}${daysBetween(ours, ends) >= 1 ? `, ${daysBetween(ours, ends)} days after our ${formatDate(ours)}` : ""}.`;
  return { credits: price.official_credits, words: `Extends the line by one ${price.name} package: ${credits}.${tail}` };
}

function toView(drift: DriftRow, name: string | null, status: string | null, cost: PanelDriftView["push_cost"] = null): PanelDriftView {
  const open = drift.status === "open";
  return {
    id: drift.id,
    kind: drift.kind as DriftKind,
    client_id: drift.client_id,
    client_full_name: name,
    panel_line_id: drift.panel_line_id,
    ours: drift.ours,
    panel: drift.panel,
    description: driftWords({ kind: drift.kind as DriftKind, ours: drift.ours, panel: drift.panel }, status ?? ""),
    status: drift.status as PanelDriftView["status"],
    direction: (drift.direction || null) as PanelDriftView["direction"],
    can_push: open && refusal(drift, "push") === "",
    push_cost: cost,
    can_accept: open && refusal(drift, "accept") === "",
    found_at: drift.found_at.toISOString(),
    fixed_at: drift.fixed_at?.toISOString() ?? null,
    fixed_by: drift.fixed_by,
  };
}

/** POST /api/admin/panel/drift/:id/fix {direction}: once, audited, through the lifecycle. */
export async function fixDrift(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  { direction }: PanelDriftFix,
): Promise<{ drift: PanelDriftView; panelJobs: number }> {
  const rules = await loadRules(app);
  const actor = adminActor(request);
  const result = await app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(panelDrift).where(eq(panelDrift.id, id)).for("update");
    if (!before) throw notFound("No such difference.");
    if (before.status === "fixed") {
      // A replay of the same fix: done already, nothing more happens.
      if (before.direction === direction) return { drift: before, panelJobs: 0 };
      throw conflict(
        `This difference was already fixed (${before.direction === "push" ? "ours pushed to the panel" : "the panel's accepted"}).`,
      );
    }
    if (before.status !== "open") throw conflict("This difference is gone: the panel and we agree now.");
    const refused = refusal(before, direction);
    if (refused) throw conflict(refused);
    const panelJobs = before.client_id ? await applyFix(tx, before, before.client_id, direction, { actor, rules }) : 0;
    const [after] = await tx
      .update(panelDrift)
      .set({ status: "fixed", direction, fixed_at: new Date(), fixed_by: actor.label })
      .where(and(eq(panelDrift.id, id), eq(panelDrift.status, "open")))
      .returning();
    await audit(tx, request, {
      action: `drift-${direction}`,
      resource: "panel_drift",
      resourceId: id,
      before,
      after: { ...after, panelJobs },
    });
    return { drift: after, panelJobs };
  });
  if (result.panelJobs > 0) app.provisioning.nudge();
  const [client] = result.drift.client_id
    ? await app.db.select({ name: clients.full_name, status: clients.status }).from(clients).where(eq(clients.id, result.drift.client_id))
    : [];
  return { drift: toView(result.drift, client?.name ?? null, client?.status ?? null), panelJobs: result.panelJobs };
}

/** Forgets the client's line on the panel (its id, login and end), with what else the case sets. */
function forgetPanelLine(tx: Tx, clientId: string, also: Pick<typeof clients.$inferInsert, "line_enabled" | "line_sync_issue">) {
  return tx
    .update(clients)
    .set({ panel_line_id: null, line_username: "", line_password: "", line_expires_at: null, ...also, updated_at: new Date() })
    .where(eq(clients.id, clientId));
}

/** The fix itself, in the fix's transaction; returns how many panel jobs it queued. */
async function applyFix(
  tx: Tx,
  drift: DriftRow,
  clientId: string,
  direction: PanelDriftFix["direction"],
  { actor, rules }: { actor: ReturnType<typeof adminActor>; rules: Awaited<ReturnType<typeof loadRules>> },
): Promise<number> {
  const kind = drift.kind as DriftKind;
  const causeKey = `drift:${drift.id}:${direction}`;
  const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("no key update");
  if (!client) throw notFound("The client of this difference no longer exists.");
  const reason = `Panel difference: ${driftWords({ kind, ours: drift.ours, panel: drift.panel }, client.status)}`;
  if (direction === "push") {
    const pkg = { id: client.package_id, name: client.package_name };
    let jobs: PlannedJob[] = [];
    if (kind === "enabled") jobs = [{ action: drift.ours === "true" ? "enable_line" : "disable_line" }];
    // The panel sells whole packages: the line is extended by the client's package.
    else if (kind === "expiry") jobs = [{ action: "extend_line", package: pkg }];
    else if (kind === "missing_on_panel") {
      // A new line in place of the one the panel lost: its login goes to the client when it is made.
      await forgetPanelLine(tx, clientId, { line_enabled: true });
      jobs = [{ action: "create_line", trial: client.status === "trial", package: pkg }];
    }
    return queuePanelWork(tx, clientId, causeKey, jobs);
  }
  if (kind === "expiry" || kind === "enabled") {
    const cause =
      kind === "expiry"
        ? { kind: "panel-accepted" as const, end: new Date(drift.panel) }
        : { kind: "panel-accepted" as const, enabled: false as const };
    const result = await applyOrRefuse(tx, { clientId, cause, causeKey, actor, rules, reason });
    return result.applied ? result.panelJobs : 0;
  }
  if (kind === "missing_on_panel") {
    // The panel has no line: neither have we now. The term is left as it is (the owner sees it on the client's page).
    await forgetPanelLine(tx, clientId, { line_sync_issue: "" });
  }
  // max_connections accepted: the panel's number stands; nothing of ours records it.
  return 0;
}
