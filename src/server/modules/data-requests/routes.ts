// Correction and erasure requests (POPIA s24; issue 46 item 7; service.ts says what each does):
//   GET  /api/client/data-requests → {data: the signed-in client's own, newest first}
//   POST /api/client/data-requests {kind: 'correction', details, correction} | {kind: 'erasure', details?}
//        → 201 {data}; 409 naming the open one while one of that kind is open
//   GET  /api/admin/data-requests?status=open|all → {data, total}: the owner's queue, open first by due date
//   POST /api/admin/data-requests/:id/correct {changes, note} → the client edit, the request answered
//   POST /api/admin/data-requests/:id/refuse {reason}
//   POST /api/admin/data-requests/:id/erase {line: 'keep' | 'disable'}
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin, requireClient } from "@/server/auth/guards";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { loadOwnClient, parseBody } from "@/server/modules/client/service";
import {
  dataRequestCorrectSchema,
  dataRequestEraseSchema,
  dataRequestRefuseSchema,
  dataRequestSchema,
} from "@/shared/data-request-schemas";
import { correctRequest, createRequest, eraseRequest, listForOwner, listOwn, refuseRequest } from "./service";

const byId = { params: z.object({ id: z.uuid("No privacy request with that id.") }) };

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/client/data-requests", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const client = await loadOwnClient(app, request);
    return { data: await listOwn(app, client.id) };
  });

  app.post("/client/data-requests", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const client = await loadOwnClient(app, request);
    const limit = app.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    await enforce(app.db, [
      { key: `data-requests:acct:${client.id}`, limit, message: PUBLIC_WRITE_MESSAGE },
      { key: `data-requests:ip:${clientIp(request)}`, limit, message: PUBLIC_WRITE_MESSAGE },
    ]);
    const input = parseBody(dataRequestSchema, request.body);
    const data = await createRequest(app, client, input);
    return reply.status(201).send({ data });
  });

  app.get(
    "/admin/data-requests",
    { preHandler: requireAdmin, schema: { querystring: z.object({ status: z.enum(["open", "all"]).default("all") }) } },
    async (request) => listForOwner(app, request.query.status),
  );

  app.post("/admin/data-requests/:id/correct", { preHandler: requireAdmin, schema: byId }, async (request) => ({
    data: await correctRequest(app, request, request.params.id, parseBody(dataRequestCorrectSchema, request.body)),
  }));

  app.post("/admin/data-requests/:id/refuse", { preHandler: requireAdmin, schema: byId }, async (request) => ({
    data: await refuseRequest(app, request, request.params.id, parseBody(dataRequestRefuseSchema, request.body).reason),
  }));

  app.post("/admin/data-requests/:id/erase", { preHandler: requireAdmin, schema: byId }, async (request) => ({
    data: await eraseRequest(app, request, request.params.id, parseBody(dataRequestEraseSchema, request.body)),
  }));
};

export default routes;
