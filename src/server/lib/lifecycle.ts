// The one module that changes a client's status or term (docs/architecture.md, "Subscriptions").
// The rules are pure, in src/shared/lifecycle.ts; this file applies them inside the caller's
// transaction: it locks the client row, refuses a cause that was already applied (the unique
// cause_key of client_lifecycle_events), writes the new status and term, and records the change
// in the lifecycle history and the audit log, all in that one transaction. So a replayed
// payment callback, a retried job or two processes at once change a client exactly once.
import { and, desc, eq, gt } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { auditLog, autoRenewals, clientLifecycleEvents, clients, provisioningJobs } from "@/server/db/schema";
import { formatDate, formatDateTime } from "@/shared/dates";
import {
  applyCause,
  CAUSE_LABELS,
  type Cause,
  type ClientStatus,
  graceEnd,
  isClientStatus,
  type LifecycleRules,
  lifecycleRules,
  type Term,
} from "@/shared/lifecycle";
import { type BusinessProfile, loadBusiness } from "./business";
import { preferredContact } from "./contact";
import { conflict, notFound } from "./errors";
import { commonVars, type OwnerTemplates, renderMessage } from "./message-templates";
import { enqueue } from "./outbox";
import { planPanelWork, queuePanelWork, SERVING_STATUSES } from "./provisioning";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type ClientRow = typeof clients.$inferSelect;

/** Who or what caused a change, for the history and the audit log. */
export interface Actor {
  adminId: string | null;
  label: string;
}

export const JOB_ACTOR: Actor = { adminId: null, label: "scheduled job" };
export const adminActor = (request: FastifyRequest): Actor => ({
  adminId: request.admin?.id ?? null,
  label: request.admin?.email ?? "admin",
});
export const paymentActor = (reference: string): Actor => ({ adminId: null, label: `payment ${reference}` });

export interface Change {
  clientId: string;
  cause: Cause;
  /** what makes this cause one cause: 'payment:<id>', 'term-ended:<client>:<end>', ... */
  causeKey: string;
  actor: Actor;
  rules: LifecycleRules;
  reason?: string;
  now?: Date;
  /** the package a payment bought, kept on the client */
  package?: { id: string | null; name: string };
}

export type ChangeResult =
  /** `panelJobs`: how many provisioning jobs the change queued (nudge the worker when > 0) */
  | { applied: true; before: ClientRow; client: ClientRow; panelJobs: number }
  /** already applied (replay), or refused by the rules (`refused` says why); the client as it is */
  | { applied: false; client: ClientRow; refused: string | null };

function termOf(row: ClientRow): Term {
  const status: ClientStatus = isClientStatus(row.status) ? row.status : "pending";
  const from = row.suspended_from && isClientStatus(row.suspended_from) ? row.suspended_from : null;
  return { status, start: row.subscription_start, end: row.subscription_end, suspendedFrom: from };
}

/** The rules as the site settings set them now (trial length, grace days). Read outside a transaction. */
export async function loadRules(app: FastifyInstance): Promise<LifecycleRules> {
  return lifecycleRules((await loadBusiness(app)).settings);
}

/** Applies one cause to one client inside `tx`. A missing client is a 404. */
export async function applyChange(tx: Tx, change: Change): Promise<ChangeResult> {
  const now = change.now ?? new Date();
  // NO KEY UPDATE, as every lock on a client's row: changes to one client still queue one after
  // another, but a row written elsewhere that points at the client (a message queued for them,
  // whose foreign key takes KEY SHARE) does not wait for the change. With FOR UPDATE it did, and
  // the owner-queue worker, holding those messages' rows, deadlocked with a merge moving them.
  const [before] = await tx.select().from(clients).where(eq(clients.id, change.clientId)).for("no key update");
  if (!before) throw notFound("No client with that id.");
  // Read after the lock: a concurrent application of the same cause has committed by now.
  const [done] = await tx
    .select({ id: clientLifecycleEvents.id })
    .from(clientLifecycleEvents)
    .where(eq(clientLifecycleEvents.cause_key, change.causeKey))
    .limit(1);
  if (done) return { applied: false, client: before, refused: null };

  const outcome = applyCause(termOf(before), change.cause, now, change.rules);
  if (!outcome.ok) return { applied: false, client: before, refused: outcome.reason };
  const { term } = outcome;

  const [client] = await tx
    .update(clients)
    .set({
      status: term.status,
      suspended_from: term.suspendedFrom,
      subscription_start: term.start,
      subscription_end: term.end,
      ...(change.package
        ? { package_id: change.package.id ?? before.package_id, package_name: change.package.name || before.package_name }
        : {}),
      updated_at: now,
    })
    .where(eq(clients.id, before.id))
    .returning();
  const reason = (change.reason ?? "").trim();
  await tx.insert(clientLifecycleEvents).values({
    client_id: before.id,
    cause: change.cause.kind,
    cause_key: change.causeKey,
    reason,
    actor: change.actor.label,
    admin_id: change.actor.adminId,
    status_before: before.status,
    status_after: client.status,
    end_before: before.subscription_end,
    end_after: client.subscription_end,
    created_at: now,
  });
  // A suspension stops the card being charged for renewals (issue 44); the provider is told by the job.
  if (change.cause.kind === "admin-suspend") {
    await tx
      .update(autoRenewals)
      .set({ enabled: false, disabled_reason: "the line was suspended", updated_at: now })
      .where(and(eq(autoRenewals.client_id, before.id), eq(autoRenewals.enabled, true)));
  }
  await tx.insert(auditLog).values({
    admin_id: change.actor.adminId,
    admin_email: change.actor.adminId ? change.actor.label : "",
    action: change.cause.kind,
    resource: "clients",
    resource_id: before.id,
    before: { status: before.status, subscription_start: before.subscription_start, subscription_end: before.subscription_end },
    after: {
      status: client.status,
      subscription_start: client.subscription_start,
      subscription_end: client.subscription_end,
      cause_key: change.causeKey,
      actor: change.actor.label,
      ...(reason ? { reason } : {}),
    },
  });
  // The panel follows the same change, in the same transaction, once per cause.
  const panelJobs = await queuePanelWork(tx, client.id, change.causeKey, planPanelWork(before, client, change.cause, change.package));
  return { applied: true, before, client, panelJobs };
}

/** applyChange for an admin's request: a cause the rules refuse is a 409 in the rules' words. */
export async function applyOrRefuse(tx: Tx, change: Change): Promise<ChangeResult> {
  const result = await applyChange(tx, change);
  if (!result.applied && result.refused) throw conflict(result.refused);
  return result;
}

// ---- the client's message about an admin's suspend / reactivate (issue 13 item 3) --------------

/**
 * The variables of the "Line suspended" and "Line restored" templates, for the client as the
 * change left them. The restored note states the real status and end: active until the term's
 * end, a trial until its end, a term that ended and is in its grace days until the grace's last
 * moment (with `rules`; without them, that the grace is short), or off until they renew. A client
 * with no line yet (`panel_line_id` null: they paid while suspended, before one was made) is told
 * it is being made, not that it is "switched back on", and the hold note speaks of the portal only.
 */
export function lineNoticeVars(
  business: BusinessProfile,
  client: Pick<ClientRow, "full_name" | "package_name" | "status" | "subscription_end"> & Partial<Pick<ClientRow, "panel_line_id">>,
  options: { rules?: Pick<LifecycleRules, "graceDays"> } = {},
) {
  const end = client.subscription_end ? formatDate(client.subscription_end) : "";
  const renewLink = `${business.publicUrl}/client?renew=1`;
  const same = "Your line is switched back on with the same login details";
  // Unknown (a caller without the column) reads as having one, as every paid client has.
  const noLine = client.panel_line_id === null;
  let restoredNote: string;
  if (client.status === "active" && noLine) {
    // The reactivation queues the create_line (lib/provisioning.ts); the credentials message follows it.
    restoredNote = `Your line is being made now: its login details follow in a separate message as soon as it is ready.${end ? ` Your subscription is active until ${end}.` : ""}`;
  } else if (client.status === "active") {
    restoredNote = `${same}${end ? `, active until ${end}` : ""}.`;
  } else if (client.status === "trial") {
    restoredNote = `${same}: your free trial runs until ${client.subscription_end ? `${formatDateTime(client.subscription_end)} (SAST)` : "its end"}.`;
  } else if (client.status === "grace") {
    const until = client.subscription_end && options.rules ? formatDateTime(graceEnd(client.subscription_end, options.rules)) : "";
    restoredNote = `Your subscription ended${end ? ` on ${end}` : ""}. ${same} for the grace period${until ? `, until ${until} (SAST)` : ", which lasts only a few days"}. Renew to keep watching: ${renewLink}`;
  } else if (end) {
    restoredNote = `Your subscription ended on ${end}, so your line stays off until you renew: ${renewLink}`;
  } else {
    restoredNote = `Your line switches on as soon as your payment is confirmed. Choose a package here: ${renewLink}`;
  }
  return {
    ...commonVars(business, client.full_name),
    package: client.package_name || "subscription",
    end_date: end,
    renew_link: renewLink,
    restored_note: restoredNote,
    hold_note: noLine ? "your client portal is paused for now" : "your line is switched off for now and your client portal is paused",
  };
}

/** What the line notices need, read before the transaction (PGlite has one connection). */
export interface LineNoticeContext {
  business: BusinessProfile;
  templates: OwnerTemplates;
}

/**
 * Queues the client's message about an admin's suspend or reactivate in the change's own
 * transaction: "Line suspended" / "Line restored" in the owner's words, on the client's channel,
 * once per cause (dedupe key `<cause key>:notice`). Nothing for other causes, for a change not
 * applied (a replay or a refusal), or for a client with no usable contact. `business` and
 * `templates` are read before the transaction (PGlite has one connection). Returns whether one was queued.
 *
 * A reactivation that switches a line back on queues its enable_line job; until that is done the
 * line is still off, so "Line restored" waits and goes when it is (queueRestoredWhenEnabled): when
 * the worker's panel call succeeded (API and sandbox panels), or when the owner marks the task
 * done (manual mode). A panel that refuses leaves a failed job for the owner and tells the client
 * nothing untrue; a Retry that succeeds sends it then.
 */
export async function queueLineNotice(
  tx: Tx,
  change: Pick<Change, "cause" | "causeKey"> & Partial<Pick<Change, "rules">>,
  result: ChangeResult,
  context: LineNoticeContext,
): Promise<boolean> {
  const kind = change.cause.kind === "admin-suspend" ? "line-suspended" : change.cause.kind === "admin-reactivate" ? "line-restored" : null;
  if (!kind || !result.applied) return false;
  if (kind === "line-restored") {
    const [task] = await tx
      .select({ id: provisioningJobs.id })
      .from(provisioningJobs)
      .where(eq(provisioningJobs.cause_key, `${change.causeKey}:enable_line`));
    if (task) return false;
  }
  return enqueueLineNotice(tx, kind, result.client, change.causeKey, context, change.rules);
}

/**
 * An enable_line job done (the worker's panel call succeeded, or the owner marked a manual task
 * done): when it switched a reactivated client's line back on, the "Line restored" message queueLineNotice held goes now, once (the reactivation's
 * dedupe key, `<cause key>:notice`), worded for the client as they are now. Nothing for other
 * tasks, for a client no longer served (suspended or expired since), or when a later switch-off
 * of the line was asked for (the client hears of that instead). Returns whether one was queued.
 */
export async function queueRestoredWhenEnabled(
  tx: Tx,
  job: Pick<typeof provisioningJobs.$inferSelect, "action" | "cause_key" | "client_id" | "created_at">,
  context: LineNoticeContext & { rules?: Pick<LifecycleRules, "graceDays"> },
): Promise<boolean> {
  const suffix = ":enable_line";
  if (job.action !== "enable_line" || !job.cause_key.startsWith("reactivate:") || !job.cause_key.endsWith(suffix)) return false;
  const [client] = await tx.select().from(clients).where(eq(clients.id, job.client_id));
  if (!client || !SERVING_STATUSES.includes(client.status)) return false;
  const [laterOff] = await tx
    .select({ id: provisioningJobs.id })
    .from(provisioningJobs)
    .where(
      and(
        eq(provisioningJobs.client_id, client.id),
        eq(provisioningJobs.action, "disable_line"),
        gt(provisioningJobs.created_at, job.created_at),
      ),
    )
    .limit(1);
  if (laterOff) return false;
  return enqueueLineNotice(tx, "line-restored", client, job.cause_key.slice(0, -suffix.length), context, context.rules);
}

async function enqueueLineNotice(
  tx: Tx,
  kind: "line-suspended" | "line-restored",
  client: ClientRow,
  causeKey: string,
  context: LineNoticeContext,
  rules?: Pick<LifecycleRules, "graceDays">,
): Promise<boolean> {
  const contact = preferredContact(client);
  if (!contact) return false;
  const message = renderMessage(context.templates, kind, lineNoticeVars(context.business, client, { rules }));
  await enqueue(tx, {
    ...contact,
    // kept on a WhatsApp row too: the e-mail copy the outbox may make, and the owner's queue, read it
    subject: message.subject,
    body: message.body,
    kind,
    client_id: client.id,
    failure: message.error,
    vars: { package: client.package_name || "subscription" },
    dedupe_key: `${causeKey}:notice`,
  });
  return true;
}

/** A client's lifecycle history, newest first (the admin's client page). */
export async function lifecycleHistory(db: Db, clientId: string, limit = 200) {
  const rows = await db
    .select()
    .from(clientLifecycleEvents)
    .where(eq(clientLifecycleEvents.client_id, clientId))
    .orderBy(desc(clientLifecycleEvents.created_at), desc(clientLifecycleEvents.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    cause: row.cause,
    label: CAUSE_LABELS[row.cause as Cause["kind"]] ?? row.cause,
    reason: row.reason,
    actor: row.actor,
    status_before: row.status_before,
    status_after: row.status_after,
    end_before: row.end_before?.toISOString() ?? null,
    end_after: row.end_after?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }));
}
