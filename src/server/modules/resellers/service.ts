// Sub-resellers (issue 45; docs/architecture.md, "Sub-resellers"): the owner's partners, each a
// reseller on the panel owned by the owner's (create_user), buying credits from the owner
// (adjust_credits). This module owns the `resellers` rows and their credit ledger.
//  - One panel account per row: the row is written first under its unique username (and the
//    request's Idempotency-Key), then create_user is sent with our row id in the notes. A create
//    whose answer was lost, or that the panel says exists, is looked up in get_users before
//    anything is sent again, and adopted when it is ours.
//  - One transfer per request: the ledger row is claimed by its unique request_key (reseller +
//    Idempotency-Key) before adjust_credits is sent, so a replay or a second request at the same
//    moment, on any process, answers the first one's outcome and never moves credits twice.
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import {
  MAYBE_DONE_STATUSES,
  type PanelAdapter,
  PanelError,
  type PanelReseller,
  SUB_RESELLERS_NEED_API,
} from "@/server/adapters/panel/panel";
import { deletePartnerSessionsFor } from "@/server/auth/partner-sessions";
import type { Db } from "@/server/db/client";
import { auditLog, resellerCreditTransfers, resellerLines, resellerPasswordTokens, resellers, siteSettings } from "@/server/db/schema";
import { loadBusiness, signOff } from "@/server/lib/business";
import { AppError, notFound } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import {
  type CreditTransfer,
  PARTNER_LINK_TTL_HOURS,
  RESELLER_USERNAME_RE,
  type ResellerRow,
  type ResellersList,
} from "@/shared/reseller-schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { hashToken } from "./tokens";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Reseller = typeof resellers.$inferSelect;
type TransferRow = typeof resellerCreditTransfers.$inferSelect;

/** Who acted, for the ledger and the audit log: an admin, or a partner in their portal. */
export type Actor = { kind: "admin"; id: string; email: string } | { kind: "partner"; id: string; username: string };
const actorName = (actor: Actor) => (actor.kind === "admin" ? actor.email : `partner:${actor.username}`);

/** The site setting naming the panel's member group for sub-resellers (the panel decides which the owner may use). */
export const MEMBER_GROUP_SETTING = "reseller_member_group_id";

/** Every audit row of this area, an admin's or a partner's (a partner has no admin id: their name stands in its place). */
export async function auditAs(
  tx: Pick<Db, "insert">,
  actor: Actor,
  entry: { action: string; resource: string; resourceId: string; after?: unknown },
): Promise<void> {
  await tx.insert(auditLog).values({
    admin_id: actor.kind === "admin" ? actor.id : null,
    admin_email: actorName(actor),
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    after: (entry.after ?? null) as never,
  });
}

/** The panel, with the three sub-reseller calls; a 409 in the owner's words when it has none (manual mode). */
export function resellerPanel(app: FastifyInstance): Required<Pick<PanelAdapter, "createUser" | "adjustCredits" | "users">> & PanelAdapter {
  const panel = app.provisioning.panel;
  if (panel.mode === "manual" || !panel.createUser || !panel.adjustCredits || !panel.users) {
    throw new AppError(409, "no_panel_api", SUB_RESELLERS_NEED_API);
  }
  return panel as Required<Pick<PanelAdapter, "createUser" | "adjustCredits" | "users">> & PanelAdapter;
}

/** Balances read now from the panel, never from a cache: the ledger's before and after. */
export function fresh(app: FastifyInstance): PanelAdapter {
  const panel = app.provisioning.panel;
  return isCachedPanel(panel) ? panel.uncached() : panel;
}

export async function panelUser(app: FastifyInstance, panelUserId: string): Promise<PanelReseller | null> {
  const users = (await fresh(app).users?.()) ?? [];
  return users.find((u) => u.id === panelUserId) ?? null;
}

/** A panel failure as the API's answer: a refusal is a 409 in its words, a panel out of reach a 502. */
export function panelFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof PanelError) {
    if (error.status === "NO_API") return new AppError(409, "no_panel_api", error.message);
    if (error.retryable || MAYBE_DONE_STATUSES.has(error.status)) {
      return new AppError(502, "panel_unavailable", `The panel could not be reached (${error.message}) Please try again in a moment.`);
    }
    return new AppError(409, "panel_refused", error.message);
  }
  throw error;
}

// ---- adding a partner ---------------------------------------------------------------------------

/** A username from a name: its letters and digits, lower case ('Thabo Mokoena' → 'thabomokoena'). */
export function usernameFrom(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase()
    .slice(0, 20);
  return base.length >= 3 ? base : `partner${base}`;
}

const usernameTaken = (username: string) =>
  new AppError(409, "username_taken", `The username "${username}" is taken on the panel. Please choose another username.`, {
    username: "That username is taken. Please choose another.",
  });

async function memberGroup(app: FastifyInstance, panel: PanelAdapter): Promise<string> {
  const [row] = await app.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, MEMBER_GROUP_SETTING));
  const value = row?.value.trim() ?? "";
  if (value) return value;
  // The sandbox panel has no groups; a real one needs to be told which.
  if (panel.mode === "sandbox") return "sandbox";
  throw new AppError(
    409,
    "member_group_missing",
    "Set the panel's member group for sub-resellers first (the group your panel lets you give resellers you make).",
  );
}

export async function saveMemberGroup(app: FastifyInstance, actor: Actor, value: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx
      .insert(siteSettings)
      .values({ key: MEMBER_GROUP_SETTING, value, description: "The panel's member group for sub-resellers", is_active: false })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
    await auditAs(tx, actor, { action: "update", resource: "setting", resourceId: MEMBER_GROUP_SETTING, after: { value } });
  });
}

export interface NewResellerInput {
  name: string;
  email: string;
  whatsapp: string;
  username: string;
}

/**
 * Adds a partner: their row, their account on the panel (once), and a link to choose their
 * password by e-mail and WhatsApp. `key` is the request's Idempotency-Key (null: none sent).
 * Answers the row and whether this request made it (false: a replay answered).
 */
export async function addReseller(
  app: FastifyInstance,
  actor: Actor,
  input: NewResellerInput,
  key: string | null,
): Promise<{ reseller: Reseller; created: boolean }> {
  const panel = resellerPanel(app);
  const group = await memberGroup(app, panel);
  const createKey = key ? `admin:${key}` : null;
  if (createKey) {
    const [replayed] = await app.db.select().from(resellers).where(eq(resellers.create_key, createKey));
    if (replayed) return { reseller: await ensureOnPanel(app, actor, replayed, group, false), created: false };
  }
  const username = input.username || usernameFrom(input.name);
  if (!RESELLER_USERNAME_RE.test(username)) throw usernameTaken(username);
  const [row] = await app.db
    .insert(resellers)
    .values({
      name: input.name,
      email: input.email.toLowerCase(),
      whatsapp: toStoredWhatsApp(input.whatsapp) ?? "",
      username,
      create_key: createKey,
    })
    .onConflictDoNothing()
    .returning();
  if (row) return { reseller: await ensureOnPanel(app, actor, row, group, true), created: true };
  if (createKey) {
    // The same request at the same moment: it holds the row.
    const [same] = await app.db.select().from(resellers).where(eq(resellers.create_key, createKey));
    if (same) return { reseller: await ensureOnPanel(app, actor, same, group, false), created: false };
  }
  // A row under this username: an earlier attempt for the same person whose panel account is not
  // confirmed yet is finished; anyone else's is a username to change.
  const [existing] = await app.db.select().from(resellers).where(sql`lower(${resellers.username}) = lower(${username})`);
  if (existing && !existing.panel_user_id && existing.email === input.email.toLowerCase()) {
    return { reseller: await ensureOnPanel(app, actor, existing, group, false), created: false };
  }
  throw usernameTaken(username);
}

/**
 * The row's account on the panel, made once. `fresh`: the row was written by this request, so
 * nothing can have been sent for it yet; otherwise get_users is asked first. After an answer that
 * was lost, or a panel that says the username exists, get_users is asked before anything is sent
 * again, and an account carrying our row id (or this username and e-mail) is adopted.
 */
async function ensureOnPanel(app: FastifyInstance, actor: Actor, row: Reseller, group: string, fresh: boolean): Promise<Reseller> {
  if (row.panel_user_id) return row;
  const panel = resellerPanel(app);
  const marker = `StreamDesk partner ${row.id}`;
  const ours = (u: PanelReseller) =>
    u.username.toLowerCase() === row.username.toLowerCase() && (u.notes.includes(marker) || u.email.toLowerCase() === row.email);
  const lookUp = async () => (await panel.users()).find(ours) ?? null;
  const send = () =>
    panel.createUser({
      username: row.username,
      // Their panel password is never used by us: they sign in to our portal with their own.
      password: randomBytes(18).toString("base64url"),
      email: row.email,
      member_group_id: group,
      notes: marker,
    });

  let made: PanelReseller | null = fresh ? null : await lookUp().catch((error) => Promise.reject(panelFailure(error)));
  for (let attempt = 0; !made; attempt++) {
    try {
      made = await send();
    } catch (error) {
      const ambiguous = error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status);
      const exists = error instanceof PanelError && error.status === "STATUS_EXISTS_USERNAME";
      if (!ambiguous && !exists) {
        // Refused outright (a bad username, say): nothing was made; the row goes so the owner can try again.
        if (error instanceof PanelError && !error.retryable) await forgetUnmade(app, row.id);
        throw panelFailure(error);
      }
      made = await lookUp().catch((lookupError) => Promise.reject(panelFailure(lookupError)));
      if (made) break;
      if (exists) {
        await forgetUnmade(app, row.id);
        throw usernameTaken(row.username);
      }
      // The lost create is not on the panel: sent once more, then left for a retry of the request.
      if (attempt >= 1) throw panelFailure(error);
    }
  }
  return recordMade(app, actor, row, made);
}

async function forgetUnmade(app: FastifyInstance, id: string): Promise<void> {
  await app.db.delete(resellers).where(and(eq(resellers.id, id), isNull(resellers.panel_user_id)));
}

/** The panel id onto the row, the set-password link queued and the audit row, in one transaction, once. */
async function recordMade(app: FastifyInstance, actor: Actor, row: Reseller, made: PanelReseller): Promise<Reseller> {
  const business = await loadBusiness(app);
  const token = randomBytes(32).toString("base64url");
  const link = `${business.publicUrl}/partner/set-password?token=${token}`;
  const result = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(resellers)
      .set({ panel_user_id: made.id, updated_at: new Date() })
      .where(and(eq(resellers.id, row.id), isNull(resellers.panel_user_id)))
      .returning();
    // Another request recorded it first: it sent the link.
    if (!updated) return null;
    await tx.insert(resellerPasswordTokens).values({
      reseller_id: row.id,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + PARTNER_LINK_TTL_HOURS * 3_600_000),
    });
    await queueInvite(tx, business, updated, link);
    await auditAs(tx, actor, {
      action: "create",
      resource: "reseller",
      resourceId: row.id,
      after: { username: updated.username, name: updated.name, email: updated.email, panel_user_id: made.id },
    });
    return updated;
  });
  if (result) {
    app.outbox.nudge();
    return result;
  }
  const [now] = await app.db.select().from(resellers).where(eq(resellers.id, row.id));
  return now;
}

/** The set-password link by e-mail, and on WhatsApp too when they have a number; the link sealed in the outbox. */
async function queueInvite(tx: Tx, business: Awaited<ReturnType<typeof loadBusiness>>, reseller: Reseller, link: string): Promise<void> {
  const subject = `Your partner account with ${business.companyName}`;
  const body = [
    `Hi ${reseller.name.split(" ")[0]},`,
    "",
    `${business.companyName} has made you a partner account, so you can sell lines to your own customers with credits you buy from us.`,
    `Your username: ${reseller.username}`,
    `Choose your password here (the link works for ${PARTNER_LINK_TTL_HOURS} hours): {{secret}}`,
    `Then sign in at ${business.publicUrl}/partner.`,
    "",
    signOff(business),
  ].join("\n");
  const common = { subject, body, secret: link, kind: "partner-invite" } as const;
  await enqueue(tx, { ...common, channel: "email", recipient: reseller.email, dedupe_key: `partner-invite:${reseller.id}` });
  if (reseller.whatsapp) {
    await enqueue(tx, {
      ...common,
      channel: "whatsapp",
      recipient: reseller.whatsapp,
      dedupe_key: `partner-invite:${reseller.id}:whatsapp`,
    });
  }
}

// ---- the list, suspend and restore ---------------------------------------------------------------

export async function listResellers(app: FastifyInstance): Promise<ResellersList> {
  const rows = await app.db.select().from(resellers).orderBy(desc(resellers.created_at));
  let users: PanelReseller[] = [];
  let ownerCredits: number | null = null;
  let panelError = "";
  try {
    const panel = resellerPanel(app);
    users = (await fresh(app).users?.()) ?? [];
    ownerCredits = (await panel.userInfo()).credits;
  } catch (error) {
    panelError = error instanceof Error ? error.message : "The panel could not be read.";
  }
  const byPanelId = new Map(users.map((u) => [u.id, u]));
  const lineCounts = await app.db
    .select({
      reseller_id: resellerLines.reseller_id,
      lines: sql<number>`count(*)::int`,
      customers: sql<number>`count(distinct lower(coalesce(nullif(${resellerLines.whatsapp}, ''), nullif(${resellerLines.email}, ''), ${resellerLines.name})))::int`,
    })
    .from(resellerLines)
    .where(eq(resellerLines.status, "done"))
    .groupBy(resellerLines.reseller_id);
  const purchases = await app.db
    .select({ reseller_id: resellerCreditTransfers.reseller_id, at: sql<Date>`max(${resellerCreditTransfers.done_at})` })
    .from(resellerCreditTransfers)
    .where(and(eq(resellerCreditTransfers.status, "done"), eq(resellerCreditTransfers.cause, "owner-give")))
    .groupBy(resellerCreditTransfers.reseller_id);
  const countsOf = new Map(lineCounts.map((c) => [c.reseller_id, c]));
  const purchaseOf = new Map(purchases.map((p) => [p.reseller_id, p.at]));
  const data: ResellerRow[] = rows.map((r) => {
    const at = purchaseOf.get(r.id);
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      whatsapp: r.whatsapp,
      username: r.username,
      panel_user_id: r.panel_user_id,
      status: r.status === "suspended" ? "suspended" : "active",
      credits: r.panel_user_id && !panelError ? (byPanelId.get(r.panel_user_id)?.credits ?? null) : null,
      lines: countsOf.get(r.id)?.lines ?? 0,
      customers: countsOf.get(r.id)?.customers ?? 0,
      last_purchase_at: at ? new Date(at).toISOString() : null,
      password_set: r.password_hash !== null,
      created_at: r.created_at.toISOString(),
    };
  });
  return { data, total: data.length, owner_credits: ownerCredits, panel_error: panelError };
}

export async function findReseller(app: FastifyInstance, id: string): Promise<Reseller> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound("No such partner.");
  const [row] = await app.db.select().from(resellers).where(eq(resellers.id, id));
  if (!row) throw notFound("No such partner.");
  return row;
}

/**
 * Suspend or restore a partner's sign-in. Their lines on the panel keep running either way: the
 * customers they sold to did nothing wrong. A suspension ends every session they have.
 */
export async function setResellerStatus(app: FastifyInstance, actor: Actor, id: string, status: "active" | "suspended") {
  const row = await findReseller(app, id);
  if (row.status === status) return { id: row.id, status };
  await app.db.transaction(async (tx) => {
    await tx.update(resellers).set({ status, updated_at: new Date() }).where(eq(resellers.id, row.id));
    if (status === "suspended") await deletePartnerSessionsFor(tx, row.id);
    await auditAs(tx, actor, {
      action: status === "suspended" ? "suspend" : "restore",
      resource: "reseller",
      resourceId: row.id,
      after: { status },
    });
  });
  return { id: row.id, status };
}

export function toTransfer(row: TransferRow): CreditTransfer {
  return {
    id: row.id,
    reseller_id: row.reseller_id,
    credits: row.credits,
    note: row.note,
    cause: row.cause,
    actor: row.actor,
    status: row.status as CreditTransfer["status"],
    partner_before: row.partner_before,
    partner_after: row.partner_after,
    owner_before: row.owner_before,
    owner_after: row.owner_after,
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}

export async function ledgerOf(app: FastifyInstance, resellerId: string): Promise<CreditTransfer[]> {
  const rows = await app.db
    .select()
    .from(resellerCreditTransfers)
    .where(eq(resellerCreditTransfers.reseller_id, resellerId))
    .orderBy(desc(resellerCreditTransfers.created_at))
    .limit(500);
  return rows.map(toTransfer);
}
