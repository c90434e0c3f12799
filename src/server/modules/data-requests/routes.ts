// Correction and erasure requests (POPIA s24; issue 46 item 7; service.ts says what each does):
//   GET  /api/client/data-requests → {data: the signed-in client's own, newest first}
//   POST /api/client/data-requests {kind: 'correction', details, correction} | {kind: 'erasure', details?}
//        → 201 {data}; 409 naming the open one while one of that kind is open
//   GET  /api/admin/data-requests?status=open|all → {data, total}: the owner's queue, open first by due date
//   POST /api/admin/data-requests/:id/correct {changes, note} → the client edit, the request answered
//   POST /api/admin/data-requests/:id/refuse {reason}
//   POST /api/admin/data-requests/:id/erase {line: 'keep' | 'disable'}
// and the same under the names issue 46 gave them:
//   POST /api/client/erasure-request {details?} and /api/client/correction-request {details, correction}
//   POST /api/admin/data-requests/:id/complete: an erasure is erased ({line}, 'disable' unless
//        said: the person's line is switched off), a correction corrected ({changes, note})
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin, requireClient } from "@/server/auth/guards";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { loadOwnClient, parseBody } from "@/server/modules/client/service";
import {
  type DataRequestKind,
  dataRequestCorrectSchema,
  dataRequestEraseSchema,
  dataRequestRefuseSchema,
  dataRequestSchema,
} from "@/shared/data-request-schemas";
import { correctRequest, createRequest, eraseRequest, listForOwner, listOwn, refuseRequest, requestKind } from "./service";

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

const byId = { params: z.object({ id: z.uuid("No privacy request with that id.") }) };

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/client/data-requests", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const client = await loadOwnClient(app, request);
    return { data: await listOwn(app, client.id) };
  });

  /** A client's request, with `kind` from the route when the path names it. */
  const ask = (kind?: DataRequestKind) => async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "no-store");
    const client = await loadOwnClient(app, request);
    const limit = app.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    await enforce(app.db, [
      { key: `data-requests:acct:${client.id}`, limit, message: PUBLIC_WRITE_MESSAGE },
      { key: `data-requests:ip:${clientIp(request)}`, limit, message: PUBLIC_WRITE_MESSAGE },
    ]);
    const body = kind ? { ...(isRecord(request.body) ? request.body : {}), kind } : request.body;
    const data = await createRequest(app, client, parseBody(dataRequestSchema, body));
    return reply.status(201).send({ data });
  };
  app.post("/client/data-requests", { preHandler: requireClient }, ask());
  app.post("/client/erasure-request", { preHandler: requireClient }, ask("erasure"));
  app.post("/client/correction-request", { preHandler: requireClient }, ask("correction"));

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

  app.post("/admin/data-requests/:id/complete", { preHandler: requireAdmin, schema: byId }, async (request) => {
    const { id } = request.params;
    const body = isRecord(request.body) ? request.body : {};
    if ((await requestKind(app, id)) === "erasure") {
      return { data: await eraseRequest(app, request, id, parseBody(dataRequestEraseSchema, { line: "disable", ...body })) };
    }
    return { data: await correctRequest(app, request, id, parseBody(dataRequestCorrectSchema, body)) };
  });
};

export default routes;
