// Differences between a client and their line on the panel, as the sync found them
// (jobs/panel-sync.ts), and the owner's fix for each (issue 32 item 5):
//   push   — ours to the panel: a provisioning job (cause key drift:<id>:push:<action>), so the
//            worker does it once, whatever the replays
//   accept — the panel's taken as ours: a change of term or status goes through the lifecycle
//            (cause panel-accepted, key drift:<id>:accept), a line gone from the panel is unlinked
// Each fix happens once: the drift row is locked and moved open → fixed in the fix's transaction,
// with the audit entry; a replay of the same fix answers the row as it is, another is a 409.
import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { clients, panelDrift } from "@/server/db/schema";
import { type DriftKind, driftWords } from "@/server/jobs/panel-sync";
import { audit } from "@/server/lib/audit";
import { conflict, notFound } from "@/server/lib/errors";
import { adminActor, applyOrRefuse, loadRules } from "@/server/lib/lifecycle";
import { type PlannedJob, queuePanelWork } from "@/server/lib/provisioning";
import type { PanelDriftFix, PanelDriftView } from "@/shared/business-schemas";

type DriftRow = typeof panelDrift.$inferSelect;
type Tx = Parameters<Parameters<FastifyInstance["db"]["transaction"]>[0]>[0];

/** Why a side cannot be taken for this kind of difference ('' when it can), in the owner's words. */
function refusal(row: Pick<DriftRow, "kind" | "ours" | "panel">, direction: PanelDriftFix["direction"]): string {
  const kind = row.kind as DriftKind;
  if (direction === "push") {
    if (kind === "missing_here") return "No client of ours has this line: link it from the client's page, or remove it on the panel.";
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

/** GET /api/admin/panel/drift: newest first, open ones unless `status` says otherwise. */
export async function listDrift(app: FastifyInstance, status: "open" | "fixed" | "resolved" | "all"): Promise<PanelDriftView[]> {
  const rows = await app.db
    .select({ drift: panelDrift, client_full_name: clients.full_name, client_status: clients.status })
    .from(panelDrift)
    .leftJoin(clients, eq(clients.id, panelDrift.client_id))
    .where(status === "all" ? undefined : eq(panelDrift.status, status))
    .orderBy(desc(panelDrift.found_at), desc(panelDrift.id))
    .limit(500);
  return rows.map(({ drift, client_full_name, client_status }) => toView(drift, client_full_name, client_status));
}

function toView(drift: DriftRow, name: string | null, status: string | null): PanelDriftView {
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
      await tx
        .update(clients)
        .set({
          panel_line_id: null,
          line_username: "",
          line_password: "",
          line_expires_at: null,
          line_enabled: true,
          updated_at: new Date(),
        })
        .where(eq(clients.id, clientId));
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
    await tx
      .update(clients)
      .set({
        panel_line_id: null,
        line_username: "",
        line_password: "",
        line_expires_at: null,
        line_sync_issue: "",
        updated_at: new Date(),
      })
      .where(eq(clients.id, clientId));
  }
  // max_connections accepted: the panel's number stands; nothing of ours records it.
  return 0;
}
