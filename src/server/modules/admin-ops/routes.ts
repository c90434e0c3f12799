// The admin's view of what the server does on its own:
//   GET  /api/admin/outbox?status=&channel=&q=&page=&pageSize=  → {data, total}, newest first;
//        bodies with their secret masked; status=failed also lists messages retrying after an error;
//        status=owner (the owner's "To send on WhatsApp" queue) is one person after another: a
//        recipient's messages together, oldest first, the person waiting longest first
//   POST /api/admin/outbox/mark-sent {ids}  the owner sent a person's messages in one chat: each
//        marked sent and audited on its own; one already sent is left as it is
//   POST /api/admin/outbox/:id/retry       a failed or waiting message goes out again soon
//   POST /api/admin/outbox/:id/mark-sent   the owner sent it by hand (WhatsApp queue); 409 when already sent
//   POST /api/admin/outbox/:id/chat-link   → {url}: the wa.me link of a message whose body holds a
//        secret, filled in for the owner to send by hand (audited; never stored)
//   GET  /api/admin/audit?resource=&page=&pageSize=            → {data, total}, newest first; each
//        entry with `record_name`: the client or lead it is about, by name
//   POST /api/admin/status/check       runs the health monitor now (no 30 s wait)
import { and, desc, eq, ilike, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "@/server/auth/guards";
import type { Db } from "@/server/db/client";
import { auditLog, capturedPayments, clients, contentRequests, leads, outbox, provisioningJobs } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { AppError, conflict, notFound } from "@/server/lib/errors";
import { runIfDue } from "@/server/lib/health-monitor";
import { containsPattern, pageOf } from "@/server/lib/list-query";
import { maskedBody, withSecret } from "@/server/lib/outbox";
import { open } from "@/server/lib/secret-box";
import { rowId } from "@/server/modules/admin-catalogue/validation";
import { auditQuerySchema, outboxQuerySchema } from "@/shared/admin-schemas";
import { saDay } from "@/shared/dates";
import type { AdminOutboxEntry } from "@/shared/messaging";
import { buildWhatsAppLink } from "@/shared/whatsapp";

type OutboxRow = typeof outbox.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who an audit entry is about, by name: the client (or lead) of entries on clients, leads,
 * payments, content requests and panel jobs, whose own before/after often hold only ids and
 * dates. Keyed `resource:id`; one query per kind on the page, never per row.
 */
async function recordNames(db: Db, rows: { resource: string; resource_id: string | null }[]): Promise<Map<string, string>> {
  const idsOf = (resource: string) => [
    ...new Set(
      rows.filter((r) => r.resource === resource && r.resource_id && UUID.test(r.resource_id)).map((r) => r.resource_id as string),
    ),
  ];
  const names = new Map<string, string>();
  const put = (resource: string, found: { id: string; name: string | null }[]) => {
    for (const { id, name } of found) if (name?.trim()) names.set(`${resource}:${id}`, name);
  };
  const clientName = sql<string | null>`coalesce(nullif(${clients.full_name}, ''), ${clients.username})`;
  const lookups: Promise<void>[] = [];
  const clientIds = idsOf("clients");
  if (clientIds.length)
    lookups.push(
      db
        .select({ id: clients.id, name: clientName })
        .from(clients)
        .where(inArray(clients.id, clientIds))
        .then((r) => put("clients", r)),
    );
  const leadIds = idsOf("leads");
  if (leadIds.length)
    lookups.push(
      db
        .select({ id: leads.id, name: leads.name })
        .from(leads)
        .where(inArray(leads.id, leadIds))
        .then((r) => put("leads", r)),
    );
  const paymentIds = idsOf("captured_payments");
  if (paymentIds.length)
    lookups.push(
      db
        .select({
          id: capturedPayments.id,
          name: sql<string | null>`coalesce(${clientName}, ${leads.name}, nullif(${capturedPayments.client_email}, ''))`,
        })
        .from(capturedPayments)
        .leftJoin(clients, eq(clients.id, capturedPayments.client_id))
        .leftJoin(leads, eq(leads.id, capturedPayments.lead_id))
        .where(inArray(capturedPayments.id, paymentIds))
        .then((r) => put("captured_payments", r)),
    );
  // Rows that belong to a client: named by their client.
  for (const [resource, table] of [
    ["content_requests", contentRequests],
    ["provisioning_jobs", provisioningJobs],
  ] as const) {
    const ids = idsOf(resource);
    if (!ids.length) continue;
    lookups.push(
      db
        .select({ id: table.id, name: clientName })
        .from(table)
        .innerJoin(clients, eq(clients.id, table.client_id))
        .where(inArray(table.id, ids))
        .then((r) => put(resource, r)),
    );
  }
  await Promise.all(lookups);
  return names;
}

/** A row as the dashboard may see it: the secret masked, the sealed text and template values left out. */
export function adminView(row: OutboxRow): AdminOutboxEntry {
  const { secret_enc, template_vars: _vars, wamid: _wamid, dedupe_key: _key, ...rest } = row;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ...rest,
    body: maskedBody(row),
    has_secret: Boolean(secret_enc),
    sent_at: iso(row.sent_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    next_attempt_at: row.next_attempt_at.toISOString(),
    delivery_updated_at: iso(row.delivery_updated_at),
  };
}

export const CROSS_SITE_BACKUP_MESSAGE = "Download the backup from the dashboard (Admin › Backups): this request did not come from it.";

/**
 * GET /api/admin/backup hands over everything the shop holds, so it is not left to the session
 * cookie alone (a cross-site navigation carries a SameSite=Lax cookie; issue 30). The browser
 * says where a request came from: Sec-Fetch-Site must be same-origin (the dashboard's download
 * link) or none (the admin typed or bookmarked the address); a browser too old to send it must
 * send an Origin or Referer of ours. Anything else is a 403, and nothing is dumped.
 */
function requireSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "") {
    if (site === "same-origin" || site === "none") return;
    throw new AppError(403, "forbidden", CROSS_SITE_BACKUP_MESSAGE);
  }
  const source = request.headers.origin ?? request.headers.referer;
  let origin = "";
  try {
    origin = source ? new URL(source).origin : "";
  } catch {
    origin = "";
  }
  const ours = new Set([`${request.protocol}://${request.host}`]);
  if (publicUrl) ours.add(new URL(publicUrl).origin);
  if (!ours.has(origin)) throw new AppError(403, "forbidden", CROSS_SITE_BACKUP_MESSAGE);
}

export const POSTGRES_BACKUP_MESSAGE =
  "This shop runs on PostgreSQL: back it up with npm run backup -- <file> (pg_dump) on the server, or your database host's backups.";

/** The message, locked for the caller's transaction; refused when it was sent or is being sent right now. */
async function lockUnsent(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], id: string): Promise<OutboxRow> {
  const [row] = await tx.select().from(outbox).where(eq(outbox.id, id)).for("update");
  if (!row) throw notFound("Message not found.");
  if (row.status === "sent") throw conflict("This message was already sent.");
  if (row.status === "sending") throw conflict("This message is being sent right now.");
  return row;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Marks one message sent by the owner (locked, refused when sent or being sent), with its own audit entry. */
async function markSentByOwner(tx: Tx, request: FastifyRequest, id: string): Promise<OutboxRow> {
  const before = await lockUnsent(tx, id);
  const [after] = await tx
    .update(outbox)
    .set({ status: "sent", sent_at: sql`now()`, sent_via: "owner", last_error: null, updated_at: sql`now()` })
    .where(eq(outbox.id, id))
    .returning();
  await audit(tx, request, {
    action: "mark-sent",
    resource: "outbox",
    resourceId: id,
    before: { status: before.status, channel: before.channel, recipient: before.recipient, kind: before.kind },
    after: { status: after.status, sent_via: after.sent_via },
  });
  return after;
}

/** The most messages one "Mark all sent" takes: a person's waiting messages, never a whole queue. */
export const MARK_SENT_MAX = 50;
const markSentManySchema = z.object({
  ids: z
    .array(z.uuid({ error: "Not a valid message id" }), { error: "Name the messages to mark sent" })
    .min(1, "Name the messages to mark sent")
    .max(MARK_SENT_MAX, `At most ${MARK_SENT_MAX} messages at once`),
});

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireAdmin);

  app.get("/admin/outbox", { schema: { querystring: outboxQuerySchema } }, async (request) => {
    const { status, channel, q, page, pageSize } = request.query;
    const filters: SQL[] = [];
    // "Failed" is what needs a look: given up, or retrying after an error.
    if (status === "failed") {
      filters.push(or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.last_error))) as SQL);
    } else if (status) filters.push(eq(outbox.status, status));
    if (channel) filters.push(eq(outbox.channel, channel));
    if (q) {
      const pattern = containsPattern(q);
      filters.push(or(ilike(outbox.recipient, pattern), ilike(outbox.subject, pattern), ilike(outbox.kind, pattern)) as SQL);
    }
    const where = filters.length ? and(...filters) : undefined;
    // The owner's queue is one chat per person: a recipient's messages side by side, oldest first,
    // and the person who has waited longest first. Everything else: newest first.
    const order =
      status === "owner"
        ? [sql`min(${outbox.created_at}) over (partition by ${outbox.recipient})`, outbox.recipient, outbox.created_at, outbox.id].map(
            (o) => sql`${o} asc`,
          )
        : [desc(outbox.created_at), desc(outbox.id)];
    const { rows, total } = await pageOf(app.db, outbox, where, order, { page, pageSize });
    return { data: rows.map(adminView), total };
  });

  // A sent message is never sent twice from here, and one being sent right now is left alone.
  app.post("/admin/outbox/:id/retry", async (request) => {
    const id = rowId((request.params as { id: string }).id, "Message");
    const row = await app.db.transaction(async (tx) => {
      const before = await lockUnsent(tx, id);
      const [after] = await tx
        .update(outbox)
        .set({ status: "pending", attempts: 0, next_attempt_at: sql`now()`, updated_at: sql`now()` })
        .where(and(eq(outbox.id, id), inArray(outbox.status, ["pending", "failed", "owner", "rerouted"])))
        .returning();
      await audit(tx, request, {
        action: "retry",
        resource: "outbox",
        resourceId: id,
        before: { status: before.status, attempts: before.attempts, last_error: before.last_error },
        after: { status: after.status, attempts: after.attempts },
      });
      return after;
    });
    app.outbox.nudge();
    return { success: true, data: adminView(row) };
  });

  // The owner sent it themselves (the "To send on WhatsApp" queue): recorded once, audited.
  app.post("/admin/outbox/:id/mark-sent", async (request) => {
    const id = rowId((request.params as { id: string }).id, "Message");
    const row = await app.db.transaction((tx) => markSentByOwner(tx, request, id));
    return { success: true, data: adminView(row) };
  });

  // "Mark all sent": the person's messages went in one chat. One transaction, one audit entry per
  // message; a message already sent stays as it was (a second tap changes nothing), one being
  // sent right now refuses the lot (409), an unknown id too (404).
  app.post("/admin/outbox/mark-sent", { schema: { body: markSentManySchema } }, async (request) => {
    const ids = [...new Set(request.body.ids)];
    const rows = await app.db.transaction(async (tx) => {
      const found = await tx.select({ id: outbox.id, status: outbox.status }).from(outbox).where(inArray(outbox.id, ids));
      if (found.length !== ids.length) throw notFound("Message not found.");
      const marked: OutboxRow[] = [];
      // In the order given (the queue's, oldest first), so the audit reads as the chat did.
      for (const id of ids) {
        if (found.find((f) => f.id === id)?.status === "sent") continue;
        marked.push(await markSentByOwner(tx, request, id));
      }
      return marked;
    });
    return { success: true, data: rows.map(adminView) };
  });

  // A message with a secret keeps no link: the owner asks for it as they send it, and that is recorded.
  app.post("/admin/outbox/:id/chat-link", async (request) => {
    const id = rowId((request.params as { id: string }).id, "Message");
    const [row] = await app.db.select().from(outbox).where(eq(outbox.id, id));
    if (!row) throw notFound("Message not found.");
    if (row.channel !== "whatsapp") throw conflict("Only WhatsApp messages have a chat link.");
    if (row.status === "sent") throw conflict("This message was already sent.");
    const secret = row.secret_enc ? await open(app.db, row.secret_enc) : null;
    const url = buildWhatsAppLink(row.recipient, withSecret(row.body, secret));
    if (secret) {
      await audit(app.db, request, {
        action: "reveal-for-whatsapp",
        resource: "outbox",
        resourceId: id,
        after: { kind: row.kind, recipient: row.recipient },
      });
    }
    return { url };
  });

  app.get("/admin/audit", { schema: { querystring: auditQuerySchema } }, async (request) => {
    const { resource, page, pageSize } = request.query;
    const where = resource ? eq(auditLog.resource, resource) : undefined;
    const { rows, total } = await pageOf(app.db, auditLog, where, [desc(auditLog.created_at), desc(auditLog.id)], { page, pageSize });
    const names = await recordNames(app.db, rows);
    return { data: rows.map((row) => ({ ...row, record_name: names.get(`${row.resource}:${row.resource_id}`) ?? null })), total };
  });

  // A backup of the embedded database from the running server, as `npm run backup` makes it
  // (restore it with `npm run restore -- <file>` while the server is stopped). PostgreSQL is
  // backed up with pg_dump (`npm run backup`), not through the web.
  app.get("/admin/backup/info", async () => ({ data: { database: app.database.kind } }));
  app.get("/admin/backup", async (request, reply) => {
    requireSameOrigin(request, app.config.PUBLIC_URL);
    if (!app.database.backup) throw conflict(POSTGRES_BACKUP_MESSAGE);
    const dump = Buffer.from(await (await app.database.backup()).arrayBuffer());
    await audit(app.db, request, { action: "backup", resource: "database", after: { bytes: dump.length } });
    const day = saDay(new Date());
    return reply
      .header("content-type", "application/gzip")
      .header("content-disposition", `attachment; filename="streamdesk-backup-${day}.tar.gz"`)
      .header("cache-control", "no-store")
      .send(dump);
  });

  app.post("/admin/status/check", async (_request, reply) => {
    reply.header("cache-control", "no-store");
    const result = await runIfDue(app, { force: true });
    return { success: true, ran: result.ran, checked_at: result.checkedAt };
  });
};

export default routes;
