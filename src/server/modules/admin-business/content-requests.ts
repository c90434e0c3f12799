// Content requests from clients (a channel, film or series): the admin's list, and the status
// and reply; a reply that is new goes to the client on their channel, queued in the same
// transaction as the change.
import { createHash } from "node:crypto";
import { and, count, eq, getTableColumns, ilike, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { clients, contentRequests } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { notFound } from "@/server/lib/errors";
import { containsPattern, ordering, pageWindow } from "@/server/lib/list-query";
import { enqueueAll } from "@/server/lib/outbox";
import type { CONTENT_REQUEST_SORTS, ContentRequestListQuery, ContentRequestPatch } from "@/shared/business-schemas";
import { contentReplyMessages } from "./messages";

const withClient = { ...getTableColumns(contentRequests), client_username: clients.username, client_full_name: clients.full_name };

const SORT_COLUMNS = {
  created_at: contentRequests.created_at,
  updated_at: contentRequests.updated_at,
  status: contentRequests.status,
  title: contentRequests.title,
} satisfies Record<(typeof CONTENT_REQUEST_SORTS)[number], unknown>;

function where(query: ContentRequestListQuery): SQL | undefined {
  return and(
    query.q ? ilike(contentRequests.title, containsPattern(query.q)) : undefined,
    query.status ? eq(contentRequests.status, query.status) : undefined,
  );
}

export async function listContentRequests(app: FastifyInstance, query: ContentRequestListQuery) {
  const condition = where(query);
  const { limit, offset } = pageWindow(query);
  const [data, [{ n }]] = await Promise.all([
    app.db
      .select(withClient)
      .from(contentRequests)
      .leftJoin(clients, eq(clients.id, contentRequests.client_id))
      .where(condition)
      .orderBy(...ordering(SORT_COLUMNS[query.sort], query.dir, contentRequests.id))
      .limit(limit ?? 25)
      .offset(offset),
    app.db.select({ n: count() }).from(contentRequests).where(condition),
  ]);
  return { data, total: n };
}

export async function patchContentRequest(app: FastifyInstance, request: FastifyRequest, id: string, patch: ContentRequestPatch) {
  const [before] = await app.db.select().from(contentRequests).where(eq(contentRequests.id, id));
  if (!before) throw notFound("No content request with that id.");
  const [client] = before.client_id
    ? await app.db
        .select({
          id: clients.id,
          full_name: clients.full_name,
          email: clients.email,
          whatsapp: clients.whatsapp,
          communication_method: clients.communication_method,
        })
        .from(clients)
        .where(eq(clients.id, before.client_id))
    : [];
  const business = await loadBusiness(app);
  const replyChanged = patch.reply !== undefined && patch.reply.trim() !== "" && patch.reply.trim() !== before.reply.trim();
  let queued = false;
  await app.db.transaction(async (tx) => {
    const [after] = await tx
      .update(contentRequests)
      .set({ ...patch, updated_at: new Date() })
      .where(eq(contentRequests.id, id))
      .returning();
    if (!after) throw notFound("No content request with that id.");
    if (replyChanged && client) {
      // The same reply saved twice is sent once.
      const digest = createHash("sha256").update(after.reply).digest("hex").slice(0, 16);
      const messages = contentReplyMessages(business, client, after, `content-reply:${id}:${digest}`);
      await enqueueAll(tx, messages);
      queued = messages.length > 0;
    }
    await audit(tx, request, { action: "update", resource: "content_requests", resourceId: id, before, after });
  });
  if (queued) app.outbox.nudge();
  const [row] = await app.db
    .select(withClient)
    .from(contentRequests)
    .leftJoin(clients, eq(clients.id, contentRequests.client_id))
    .where(eq(contentRequests.id, id));
  return row;
}
