// A client's requests for a channel, film or series:
//   GET  /api/client/content-requests → {data: their own, newest first}
//   POST /api/client/content-requests {request_type, title, details} → 201 {data}
// Withheld while the account is suspended. The admin sees new requests through the change feed.
import { asc, desc, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireClient } from "@/server/auth/guards";
import { contentRequests } from "@/server/db/schema";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import type { ClientContentRequest } from "@/shared/client-schemas";
import { contentRequestSchema } from "@/shared/schemas";
import { loadOwnClient, parseBody } from "./service";

type Row = typeof contentRequests.$inferSelect;

function toView(row: Row): ClientContentRequest {
  return {
    id: row.id,
    request_type: row.request_type,
    title: row.title,
    details: row.details,
    status: row.status,
    reply: row.reply,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/client/content-requests", { preHandler: requireClient }, async (request): Promise<{ data: ClientContentRequest[] }> => {
    const client = await loadOwnClient(app, request);
    const rows = await app.db
      .select()
      .from(contentRequests)
      .where(eq(contentRequests.client_id, client.id))
      .orderBy(desc(contentRequests.created_at), asc(contentRequests.id));
    return { data: rows.map(toView) };
  });

  app.post("/client/content-requests", { preHandler: requireClient }, async (request, reply) => {
    const client = await loadOwnClient(app, request);
    const limit = app.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    await enforce(app.db, [
      { key: `content-requests:acct:${client.id}`, limit, message: PUBLIC_WRITE_MESSAGE },
      { key: `content-requests:ip:${clientIp(request)}`, limit, message: PUBLIC_WRITE_MESSAGE },
    ]);
    const input = parseBody(contentRequestSchema, request.body);
    const [row] = await app.db
      .insert(contentRequests)
      .values({ client_id: client.id, request_type: input.request_type, title: input.title, details: input.details })
      .returning();
    return reply.status(201).send({ data: toView(row) });
  });
};

export default routes;
