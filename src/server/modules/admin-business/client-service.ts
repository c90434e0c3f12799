// Clients as the business manages them: the list (and its CSV), the detail page, create and
// edit, suspend / reactivate, complimentary time, password reset and delete. The password hash
// never leaves this file, and no password is ever answered: a new client (and a reset) gets a link
// to choose their own, queued on their channel in the same transaction. Every write is one
// transaction with its audit entry. Status and term change only through the lifecycle module
// (lib/lifecycle.ts): an edit cannot set them, and time comes from money or a reasoned grant.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, count, desc, eq, getTableColumns, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { generatePassword, hashPassword } from "@/server/auth/passwords";
import { deleteSessionsFor } from "@/server/auth/sessions";
import type { Db } from "@/server/db/client";
import { capturedPayments, clients, contentRequests, leads, outbox, packages, passwordResetTokens } from "@/server/db/schema";
import { appForDevice, maskedHint, setPasswordLink } from "@/server/lib/accounts";
import { audit } from "@/server/lib/audit";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { badRequest, conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { assertNumberFree, storedNumber } from "@/server/lib/identity";
import { adminActor, applyOrRefuse, lifecycleHistory, loadRules, queueLineNotice } from "@/server/lib/lifecycle";
import { ordering, pageWindow, searchCondition } from "@/server/lib/list-query";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueue, enqueueAll, MASKED_SECRET, SECRET_PLACEHOLDER, SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { baseUsername, nextFreeUsername } from "@/server/lib/usernames";
import { resetLinkMessage } from "@/server/modules/client/messages";
import {
  CHANNEL_CONTACT_MESSAGES,
  type CLIENT_SORTS,
  type ClientCreate,
  type ClientGrant,
  type ClientListQuery,
  type ClientPatch,
  type QueuedTo,
} from "@/shared/business-schemas";
import { RESET_TOKEN_TTL_MINUTES } from "@/shared/client-schemas";
import { channelsFor, leadWhatsAppUrl, welcomeMessages } from "./messages";
import { paymentRowColumns } from "./payment-service";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type ClientRow = typeof clients.$inferSelect;
export type PublicClient = Omit<ClientRow, "password_hash">;
type NewClient = typeof clients.$inferInsert;

const { password_hash: _never, ...publicColumns } = getTableColumns(clients);
/** Every client column but the password hash: select these, never `select()`. */
export const clientColumns = publicColumns;

export const USERNAME_TAKEN = "That username is taken. Choose another.";
export const PACKAGE_MISSING = "That package does not exist.";
const USERNAME_ATTEMPTS = 5;
const DAY_MS = 86_400_000;
const DETAIL_LIMIT = 200;

export function toPublicClient(row: ClientRow): PublicClient {
  const { password_hash: _hidden, ...rest } = row;
  return rest;
}

const SORT_COLUMNS = {
  created_at: clients.created_at,
  updated_at: clients.updated_at,
  username: clients.username,
  full_name: clients.full_name,
  status: clients.status,
  subscription_end: clients.subscription_end,
  package_name: clients.package_name,
} satisfies Record<(typeof CLIENT_SORTS)[number], unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function clientWhere(query: Omit<ClientListQuery, "page" | "pageSize" | "sort" | "dir">, now = new Date()): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    conditions.push(searchCondition(query.q, [clients.username, clients.full_name, clients.email, clients.package_name], clients.whatsapp));
  }
  if (query.status) conditions.push(eq(clients.status, query.status));
  if (query.expiring) {
    // Still running, and ending within N days: what the operator should chase for a renewal.
    // A trial is short by nature and shows as a trial, not as expiring.
    conditions.push(
      eq(clients.status, "active"),
      gt(clients.subscription_end, now),
      lte(clients.subscription_end, new Date(now.getTime() + query.expiring * DAY_MS)),
    );
  }
  if (query.package) {
    conditions.push(
      UUID.test(query.package) ? eq(clients.package_id, query.package) : sql`lower(${clients.package_name}) = lower(${query.package})`,
    );
  }
  return and(...conditions);
}

export async function listClients(
  app: FastifyInstance,
  query: ClientListQuery,
  all = false,
): Promise<{ data: PublicClient[]; total: number }> {
  const where = clientWhere(query);
  const { limit, offset } = pageWindow(query, all);
  const rows = app.db
    .select(clientColumns)
    .from(clients)
    .where(where)
    .orderBy(...ordering(SORT_COLUMNS[query.sort], query.dir, clients.id))
    .offset(offset)
    .$dynamic();
  const [data, [{ n }]] = await Promise.all([limit ? rows.limit(limit) : rows, app.db.select({ n: count() }).from(clients).where(where)]);
  return { data, total: n };
}

// ---- the detail page ------------------------------------------------------------------------------

export async function getClientDetail(app: FastifyInstance, id: string) {
  const { db } = app;
  const [client] = await db.select(clientColumns).from(clients).where(eq(clients.id, id));
  if (!client) throw notFound("No client with that id.");
  const [payments, clientLeads, requests, business] = await Promise.all([
    db
      .select(paymentRowColumns)
      .from(capturedPayments)
      .leftJoin(clients, eq(clients.id, capturedPayments.client_id))
      .where(eq(capturedPayments.client_id, id))
      .orderBy(desc(capturedPayments.created_at))
      .limit(DETAIL_LIMIT),
    db.select().from(leads).where(eq(leads.client_id, id)).orderBy(desc(leads.created_at)).limit(DETAIL_LIMIT),
    db
      .select({ ...getTableColumns(contentRequests), client_username: clients.username, client_full_name: clients.full_name })
      .from(contentRequests)
      .leftJoin(clients, eq(clients.id, contentRequests.client_id))
      .where(eq(contentRequests.client_id, id))
      .orderBy(desc(contentRequests.created_at))
      .limit(DETAIL_LIMIT),
    loadBusiness(app),
  ]);
  const lifecycle = await lifecycleHistory(db, id);
  const relatedColumns = {
    id: clients.id,
    username: clients.username,
    full_name: clients.full_name,
    whatsapp: clients.whatsapp,
    email: clients.email,
    status: clients.status,
    subscription_end: clients.subscription_end,
  };
  const relatedId = client.possible_duplicate_of ?? client.merged_into;
  const [related] = relatedId ? await db.select(relatedColumns).from(clients).where(eq(clients.id, relatedId)) : [];
  const flaggedDuplicates = await db
    .select(relatedColumns)
    .from(clients)
    .where(and(eq(clients.possible_duplicate_of, id), isNull(clients.merged_into)));
  // Messages to them as a client, and those sent while they were still a lead.
  const leadIds = clientLeads.map((l) => l.id);
  const messages = await db
    .select({
      id: outbox.id,
      channel: outbox.channel,
      recipient: outbox.recipient,
      subject: outbox.subject,
      // a secret (a reset or set-password link) masked, as in every admin view
      body: sql<string>`case when ${outbox.secret_enc} is null then ${outbox.body} else replace(replace(${outbox.body}, ${SECRET_PLACEHOLDER}, ${MASKED_SECRET}), ${SECRET_URL_PLACEHOLDER}, ${MASKED_SECRET}) end`,
      kind: outbox.kind,
      status: outbox.status,
      attempts: outbox.attempts,
      last_error: outbox.last_error,
      sent_at: outbox.sent_at,
      created_at: outbox.created_at,
    })
    .from(outbox)
    .where(or(eq(outbox.client_id, id), leadIds.length ? inArray(outbox.lead_id, leadIds) : undefined))
    .orderBy(desc(outbox.created_at))
    .limit(DETAIL_LIMIT);
  return {
    ...client,
    payments,
    leads: clientLeads.map(({ idempotency_key: _key, ...lead }) => ({ ...lead, whatsapp_url: leadWhatsAppUrl(lead, business) })),
    content_requests: requests,
    messages,
    lifecycle,
    related: related ?? null,
    flagged_duplicates: flaggedDuplicates,
  };
}

async function findClient(db: Db | Tx, id: string, lock = false): Promise<ClientRow> {
  const query = db.select().from(clients).where(eq(clients.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("No client with that id.");
  return row;
}

async function findPackage(db: Db, id: string) {
  const [pkg] = await db.select().from(packages).where(eq(packages.id, id));
  if (!pkg) throw badRequest(PACKAGE_MISSING, { package_id: PACKAGE_MISSING });
  return pkg;
}

/** The preferred channel needs an address on it, or no message could ever reach them. */
function checkChannelContact(client: { communication_method: string; email: string; whatsapp: string }): void {
  const method = client.communication_method === "email" ? "email" : "whatsapp";
  const address = method === "email" ? client.email : client.whatsapp;
  if (!address.trim()) {
    const message = CHANNEL_CONTACT_MESSAGES[method];
    throw badRequest(message, { [method]: message, communication_method: message });
  }
}

// ---- creating (also what a lead's conversion uses) -----------------------------------------------

/**
 * Inserts a client under a free username and runs `then` in the same transaction. An explicit
 * username that is taken is a 409; a derived one moves to the next free number, also when a
 * concurrent insert took it first (the whole transaction is retried).
 */
export async function insertClient<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  values: Omit<NewClient, "username">,
  username: { explicit?: string; from: string },
  then: (tx: Tx, client: ClientRow) => Promise<T>,
): Promise<{ client: ClientRow; result: T }> {
  const base = baseUsername(username.from);
  for (let attempt = 1; ; attempt++) {
    const candidate = username.explicit ?? (await nextFreeUsername(app.db, base));
    try {
      return await app.db.transaction(async (tx) => {
        const [client] = await tx
          .insert(clients)
          .values({ ...values, username: candidate })
          .returning();
        await audit(tx, request, { action: "create", resource: "clients", resourceId: client.id, after: client });
        return { client, result: await then(tx, client) };
      });
    } catch (error) {
      if (uniqueViolation(error) === "clients_whatsapp_unique") await assertNumberFree(app.db, values.whatsapp ?? "");
      if (uniqueViolation(error) !== "clients_username_unique") throw error;
      if (username.explicit || attempt >= USERNAME_ATTEMPTS) throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
    }
  }
}

/**
 * A new account's welcome, exactly as a paid new account gets it (payments/settle.ts): the portal,
 * a one-time link to choose a password, the app for their device; on their channel and by e-mail
 * when they have an address, once per channel (dedupe key welcome:<client>:<channel>). In the
 * caller's transaction. Answers where it went, masked.
 */
export async function queueWelcome(
  tx: Tx,
  business: BusinessProfile,
  client: ClientRow,
  now: Date,
  leadId: string | null = null,
): Promise<QueuedTo[]> {
  const link = await setPasswordLink(tx, business, client.id, now);
  const app = await appForDevice(tx, client.device);
  const welcome = welcomeMessages(business, { client, app, setPasswordLink: link }, await loadTemplates(tx));
  await enqueueAll(
    tx,
    welcome.map((m) => ({ ...m, lead_id: leadId })),
  );
  return welcome.map((m) => ({ channel: m.channel, hint: maskedHint(m.channel, m.recipient) }));
}

/**
 * A new client waits for their first payment (pending), or starts the free trial now with its
 * length from the settings. Either way the lifecycle module sets the status, never the form.
 * Nobody is handed a password: their welcome carries a link to choose one (queueWelcome).
 */
export async function createClient(app: FastifyInstance, request: FastifyRequest, input: ClientCreate) {
  const pkg = input.package_id ? await findPackage(app.db, input.package_id) : null;
  const whatsapp = storedNumber(input.whatsapp);
  checkChannelContact({ ...input, whatsapp });
  // A number is one client's: a second is a 409 naming who has it.
  await assertNumberFree(app.db, whatsapp);
  const now = new Date();
  const rules = await loadRules(app);
  const business = await loadBusiness(app);
  const { result } = await insertClient(
    app,
    request,
    {
      full_name: input.full_name,
      email: input.email,
      whatsapp,
      communication_method: input.communication_method,
      marketing_opt_in: input.marketing_opt_in,
      marketing_opt_in_at: input.marketing_opt_in ? now : null,
      package_id: pkg?.id ?? null,
      package_name: pkg?.name ?? "",
      status: "pending",
      device: input.device,
      internet_platform: input.internet_platform,
      line_username: input.line_username,
      line_password: input.line_password,
      line_portal_url: input.line_portal_url,
      notes: input.notes,
      // A random password nobody knows: the account is opened with the welcome's link.
      password_hash: await hashPassword(generatePassword()),
    },
    { explicit: input.username, from: input.full_name },
    async (tx, created) => {
      const client =
        input.start !== "trial"
          ? created
          : (
              await applyOrRefuse(tx, {
                clientId: created.id,
                cause: { kind: "trial-started", hours: rules.trialHours },
                causeKey: `trial:${created.id}`,
                actor: adminActor(request),
                rules,
                now,
              })
            ).client;
      return { client, queuedTo: await queueWelcome(tx, business, client, now) };
    },
  );
  app.outbox.nudge();
  return { client: toPublicClient(result.client), queued_to: result.queuedTo };
}

// ---- editing ---------------------------------------------------------------------------------------

export async function patchClient(app: FastifyInstance, request: FastifyRequest, id: string, patch: ClientPatch) {
  const before = await findClient(app.db, id);
  const now = new Date();
  const changes: Partial<NewClient> = { ...patch, updated_at: now } as Partial<NewClient>;
  if (patch.whatsapp !== undefined) {
    changes.whatsapp = storedNumber(patch.whatsapp);
    if (changes.whatsapp !== before.whatsapp && !before.merged_into && !before.possible_duplicate_of)
      await assertNumberFree(app.db, changes.whatsapp, id);
  }
  if (patch.package_id !== undefined) {
    const pkg = patch.package_id ? await findPackage(app.db, patch.package_id) : null;
    changes.package_id = pkg?.id ?? null;
    changes.package_name = pkg?.name ?? "";
  }
  if (patch.marketing_opt_in !== undefined && patch.marketing_opt_in !== before.marketing_opt_in) {
    changes.marketing_opt_in_at = patch.marketing_opt_in ? now : null;
  }
  checkChannelContact({ ...before, ...changes });
  try {
    const client = await app.db.transaction(async (tx) => {
      const [after] = await tx.update(clients).set(changes).where(eq(clients.id, id)).returning();
      if (!after) throw notFound("No client with that id.");
      await audit(tx, request, { action: "update", resource: "clients", resourceId: id, before, after });
      return after;
    });
    return toPublicClient(client);
  } catch (error) {
    if (uniqueViolation(error) === "clients_username_unique") throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
    if (uniqueViolation(error) === "clients_whatsapp_unique") await assertNumberFree(app.db, changes.whatsapp ?? "", id);
    throw error;
  }
}

/**
 * Suspension signs them out everywhere at once (same transaction). A second suspension is a 409.
 * The client is told on their channel ("Line suspended"), queued in the same transaction.
 */
export async function suspendClient(app: FastifyInstance, request: FastifyRequest, id: string) {
  const rules = await loadRules(app);
  const context = { business: await loadBusiness(app), templates: await loadTemplates(app.db) };
  const change = {
    clientId: id,
    cause: { kind: "admin-suspend" } as const,
    causeKey: `suspend:${id}:${randomUUID()}`,
    actor: adminActor(request),
    rules,
  };
  const { client, queued } = await app.db.transaction(async (tx) => {
    const result = await applyOrRefuse(tx, change);
    await deleteSessionsFor(tx, { clientId: id });
    return { client: result.client, queued: await queueLineNotice(tx, change, result, context) };
  });
  if (queued) app.outbox.nudge();
  return toPublicClient(client);
}

/**
 * Back to what the term says now: trial or active while it runs, grace or expired once it has ended.
 * The client is told on their channel ("Line restored"), queued in the same transaction; in manual
 * panel mode, once the owner has switched the line back on and marked the task done.
 */
export async function reactivateClient(app: FastifyInstance, request: FastifyRequest, id: string) {
  const rules = await loadRules(app);
  // In manual panel mode "Line restored" waits for the owner's enable task (lib/lifecycle.ts, queueLineNotice).
  const context = { business: await loadBusiness(app), templates: await loadTemplates(app.db) };
  const change = {
    clientId: id,
    cause: { kind: "admin-reactivate" } as const,
    causeKey: `reactivate:${id}:${randomUUID()}`,
    actor: adminActor(request),
    rules,
  };
  const { client, queued } = await app.db.transaction(async (tx) => {
    const result = await applyOrRefuse(tx, change);
    return { client: result.client, queued: await queueLineNotice(tx, change, result, context) };
  });
  if (queued) app.outbox.nudge();
  return toPublicClient(client);
}

/**
 * Complimentary time: days or months without payment, always with the reason (kept in the
 * history and the audit log). Added to a running term, else from now; a suspension stays.
 * An Idempotency-Key header makes a retried grant count once.
 */
export async function grantTime(app: FastifyInstance, request: FastifyRequest, id: string, input: ClientGrant) {
  const rules = await loadRules(app);
  const key = request.headers["idempotency-key"];
  const causeKey = `grant:${id}:${typeof key === "string" && key.trim() ? key.trim().slice(0, 200) : randomUUID()}`;
  return app.db.transaction(async (tx) => {
    const { client } = await applyOrRefuse(tx, {
      clientId: id,
      cause: { kind: "complimentary-grant", months: input.months, days: input.days },
      causeKey,
      actor: adminActor(request),
      reason: input.reason,
      rules,
    });
    return toPublicClient(client);
  });
}

/**
 * The admin's "Reset password": the old password stops working and every session ends, and a
 * link to choose a new one (the portal's own reset message, same expiry) is queued on their
 * channel and by e-mail when they have an address. No password is answered: where the link went, masked.
 */
export async function resetClientPassword(app: FastifyInstance, request: FastifyRequest, id: string): Promise<{ queued_to: QueuedTo[] }> {
  const client = await findClient(app.db, id);
  const targets = channelsFor(client, { alsoEmail: true });
  if (targets.length === 0) {
    throw badRequest("This client has no WhatsApp number or e-mail address to send the link to. Add one first.");
  }
  const passwordHash = await hashPassword(generatePassword());
  const business = await loadBusiness(app);
  const templates = await loadTemplates(app.db);
  const token = randomBytes(32).toString("base64url");
  const link = `${business.publicUrl}/client-password-reset?token=${token}`;
  const message = resetLinkMessage(business, { name: client.full_name, username: client.username }, templates);
  const now = new Date();
  await app.db.transaction(async (tx) => {
    const [after] = await tx
      .update(clients)
      .set({ password_hash: passwordHash, updated_at: now })
      .where(eq(clients.id, id))
      .returning({ id: clients.id });
    if (!after) throw notFound("No client with that id.");
    const sessionsEnded = await deleteSessionsFor(tx, { clientId: id });
    await tx.insert(passwordResetTokens).values({
      client_id: id,
      token_hash: createHash("sha256").update(token).digest("hex"),
      expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * 60_000),
    });
    for (const target of targets) {
      await enqueue(tx, {
        ...target,
        // the kind's own subject on a WhatsApp row too (the owner's queue reads it)
        subject: message.subject,
        body: message.body,
        // The link is a key to their account: stored encrypted, put into the text as it is sent.
        secret: link,
        kind: "password-reset",
        failure: message.error,
        client_id: id,
      });
    }
    await audit(tx, request, {
      action: "reset-password",
      resource: "clients",
      resourceId: id,
      after: { sessions_ended: sessionsEnded, link_queued_to: targets.map((t) => t.channel) },
    });
  });
  app.outbox.nudge();
  return { queued_to: targets.map((t) => ({ channel: t.channel, hint: maskedHint(t.channel, t.recipient) })) };
}

/** Removes the client and their sessions; their payments stay on the books without them. */
export async function deleteClient(app: FastifyInstance, request: FastifyRequest, id: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    const before = await findClient(tx, id, true);
    await deleteSessionsFor(tx, { clientId: id });
    await tx.delete(clients).where(eq(clients.id, id));
    await audit(tx, request, { action: "delete", resource: "clients", resourceId: id, before });
  });
}
