// The admin's view of what the server does on its own:
//   GET  /api/admin/outbox?status=&channel=&q=&page=&pageSize=  → {data, total}, newest first
//   POST /api/admin/outbox/:id/retry   a failed or waiting message goes out again soon
//   GET  /api/admin/audit?resource=&page=&pageSize=            → {data, total}, newest first
//   POST /api/admin/status/check       runs the health monitor now (no 30 s wait)
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { auditQuerySchema, outboxQuerySchema } from "../../../shared/admin-schemas";
import { requireAdmin } from "../../auth/guards";
import { auditLog, outbox } from "../../db/schema";
import { runIfDue } from "../../jobs/health-monitor";
import { audit } from "../../lib/audit";
import { conflict, notFound } from "../../lib/errors";
import { rowId } from "../admin-catalogue/validation";

/** '%', '_' and '\' typed into a search box are searched for, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireAdmin);

  app.get("/admin/outbox", { schema: { querystring: outboxQuerySchema } }, async (request) => {
    const { status, channel, q, page, pageSize } = request.query;
    const filters: SQL[] = [];
    if (status) filters.push(eq(outbox.status, status));
    if (channel) filters.push(eq(outbox.channel, channel));
    if (q) {
      const pattern = likePattern(q);
      filters.push(or(ilike(outbox.recipient, pattern), ilike(outbox.subject, pattern), ilike(outbox.kind, pattern)) as SQL);
    }
    const where = filters.length ? and(...filters) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      app.db
        .select()
        .from(outbox)
        .where(where)
        .orderBy(desc(outbox.created_at), desc(outbox.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      app.db.select({ total: count() }).from(outbox).where(where),
    ]);
    return { data: rows, total };
  });

  // A sent message is never sent twice from here, and one being sent right now is left alone.
  app.post("/admin/outbox/:id/retry", async (request) => {
    const id = rowId((request.params as { id: string }).id, "Message");
    const row = await app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(outbox).where(eq(outbox.id, id)).for("update");
      if (!before) throw notFound("Message not found.");
      if (before.status === "sent") throw conflict("This message was already sent.");
      if (before.status === "sending") throw conflict("This message is being sent right now.");
      const [after] = await tx
        .update(outbox)
        .set({ status: "pending", attempts: 0, next_attempt_at: sql`now()`, updated_at: sql`now()` })
        .where(and(eq(outbox.id, id), inArray(outbox.status, ["pending", "failed"])))
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
    return { success: true, data: row };
  });

  app.get("/admin/audit", { schema: { querystring: auditQuerySchema } }, async (request) => {
    const { resource, page, pageSize } = request.query;
    const where = resource ? eq(auditLog.resource, resource) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      app.db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(desc(auditLog.created_at), desc(auditLog.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      app.db.select({ total: count() }).from(auditLog).where(where),
    ]);
    return { data: rows, total };
  });

  app.post("/admin/status/check", async (_request, reply) => {
    reply.header("cache-control", "no-store");
    const result = await runIfDue(app, { force: true });
    return { success: true, ran: result.ran, checked_at: result.checkedAt };
  });
};

export default routes;
