// The admin's business routes (issue 5): leads, clients, payments, the overview figures, CSV
// exports and content requests, all under /api/admin and all for signed-in admins only.
// Lists answer {data, total}; single rows {data}; a new password is answered once.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "@/server/auth/guards";
import { audit } from "@/server/lib/audit";
import { changeView, idempotencyKeyOf, requestMacChange } from "@/server/modules/panel/mac-change";
import { cardModeFor } from "@/server/modules/payments/service";
import {
  clientCreateSchema,
  clientGrantSchema,
  clientListQuerySchema,
  clientPatchSchema,
  contentRequestListQuerySchema,
  contentRequestPatchSchema,
  leadConvertSchema,
  leadListQuerySchema,
  leadPatchSchema,
  paymentCreateSchema,
  paymentListQuerySchema,
  paymentNoteSchema,
  paymentPatchSchema,
} from "@/shared/business-schemas";
import { adminMacSchema } from "@/shared/device-line-schemas";
import {
  createClient,
  deleteClient,
  getClientDetail,
  grantTime,
  listClients,
  patchClient,
  reactivateClient,
  resetClientPassword,
  suspendClient,
} from "./client-service";
import { listContentRequests, patchContentRequest } from "./content-requests";
import { dismissDuplicate, mergeDuplicate } from "./duplicates";
import { clientColumnsCsv, csvDownload, leadColumns, paymentColumnsCsv } from "./export";
import { loadLaunchChecklist } from "./launch-checklist";
import { convertLead, getLead, listLeads, patchLead } from "./lead-service";
import { getPayment, listPayments, markPaid, patchPayment, recordPayment } from "./payment-service";
import { loadStats } from "./stats";

const byId = { params: z.object({ id: z.uuid({ error: "Not a valid id" }) }) };
/** Action routes take an optional body: none at all counts as {}. */
const optionalBody = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? {}, schema);

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Checked first (before the body is parsed or validated): a stranger learns nothing, not even validation messages.
  app.addHook("onRequest", requireAdmin);
  // Customer data: never stored by a browser or proxy cache.
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  // ---- leads ----
  app.get("/admin/leads", { schema: { querystring: leadListQuerySchema } }, (request) => listLeads(app, request.query));
  app.get("/admin/leads/:id", { schema: byId }, async (request) => ({ data: await getLead(app, request.params.id) }));
  app.patch("/admin/leads/:id", { schema: { ...byId, body: leadPatchSchema } }, async (request) => ({
    data: await patchLead(app, request, request.params.id, request.body),
  }));
  app.post("/admin/leads/:id/convert", { schema: { ...byId, body: optionalBody(leadConvertSchema) } }, async (request, reply) =>
    reply.status(201).send(await convertLead(app, request, request.params.id, request.body)),
  );

  // ---- clients ----
  app.get("/admin/clients", { schema: { querystring: clientListQuerySchema } }, (request) => listClients(app, request.query));
  app.post("/admin/clients", { schema: { body: clientCreateSchema } }, async (request, reply) =>
    reply.status(201).send(await createClient(app, request, request.body)),
  );
  app.get("/admin/clients/:id", { schema: byId }, async (request) => ({ data: await getClientDetail(app, request.params.id) }));
  app.patch("/admin/clients/:id", { schema: { ...byId, body: clientPatchSchema } }, async (request) => ({
    data: await patchClient(app, request, request.params.id, request.body),
  }));
  app.delete("/admin/clients/:id", { schema: byId }, async (request, reply) => {
    await deleteClient(app, request, request.params.id);
    return reply.status(204).send();
  });
  app.post("/admin/clients/:id/suspend", { schema: byId }, async (request) => ({
    data: await suspendClient(app, request, request.params.id),
  }));
  app.post("/admin/clients/:id/reactivate", { schema: byId }, async (request) => ({
    data: await reactivateClient(app, request, request.params.id),
  }));
  app.post("/admin/clients/:id/grant", { schema: { ...byId, body: clientGrantSchema } }, async (request) => ({
    data: await grantTime(app, request, request.params.id, request.body),
  }));
  app.post("/admin/clients/:id/merge", { schema: byId }, async (request) => ({
    data: await mergeDuplicate(app, request, request.params.id),
  }));
  app.post("/admin/clients/:id/dismiss-duplicate", { schema: byId }, async (request) => ({
    data: await dismissDuplicate(app, request, request.params.id),
  }));
  // The owner sets or changes a box's MAC: the portal's change without its cooldown (modules/panel/mac-change.ts).
  app.post("/admin/clients/:id/line-mac", { schema: { ...byId, body: adminMacSchema } }, async (request, reply) => {
    const { change, client } = await requestMacChange(app, {
      clientId: request.params.id,
      mac: request.body.mac,
      lineType: request.body.lineType,
      key: idempotencyKeyOf(request.headers["idempotency-key"]),
      by: "owner",
      audit: (tx, before, after) =>
        audit(tx, request, {
          action: "mac-change",
          resource: "clients",
          resourceId: before.id,
          before: { line_type: before.line_type, line_mac: before.line_mac },
          after,
        }),
    });
    reply.code(change ? 202 : 200);
    return { data: { line_type: client.line_type, line_mac: client.line_mac, change: change ? changeView(change) : null } };
  });
  app.post("/admin/clients/:id/reset-password", { schema: byId }, (request) => resetClientPassword(app, request, request.params.id));

  // ---- payments ----
  app.get("/admin/payments", { schema: { querystring: paymentListQuerySchema } }, (request) => listPayments(app, request.query));
  app.post("/admin/payments", { schema: { body: paymentCreateSchema } }, async (request, reply) =>
    reply.status(201).send({ data: await recordPayment(app, request, request.body) }),
  );
  app.get("/admin/payments/:id", { schema: byId }, async (request) => ({ data: await getPayment(app, request.params.id) }));
  app.patch("/admin/payments/:id", { schema: { ...byId, body: paymentPatchSchema } }, async (request) => ({
    data: await patchPayment(app, request, request.params.id, request.body),
  }));
  app.post("/admin/payments/:id/mark-paid", { schema: { ...byId, body: optionalBody(paymentNoteSchema) } }, async (request) => ({
    data: await markPaid(app, request, request.params.id, request.body.note),
  }));
  // Refunds issue credit notes: modules/billing/routes.ts.

  // ---- overview ----
  app.get("/admin/stats", { schema: { querystring: z.object({}) } }, () => loadStats(app));
  // What a new shop still has to set before real customers (the overview's launch checklist).
  app.get("/admin/launch-checklist", { schema: { querystring: z.object({}) } }, async () =>
    loadLaunchChecklist(app, cardModeFor(app.config)),
  );

  // ---- CSV: the lists' own filters and sort, every page ----
  app.get("/admin/export/leads.csv", { schema: { querystring: leadListQuerySchema } }, async (request, reply) => {
    const { data } = await listLeads(app, request.query, true);
    const file = csvDownload("leads", leadColumns, data);
    return reply.headers(file.headers).send(file.body);
  });
  app.get("/admin/export/clients.csv", { schema: { querystring: clientListQuerySchema } }, async (request, reply) => {
    const { data } = await listClients(app, request.query, true);
    const file = csvDownload("clients", clientColumnsCsv, data);
    return reply.headers(file.headers).send(file.body);
  });
  app.get("/admin/export/payments.csv", { schema: { querystring: paymentListQuerySchema } }, async (request, reply) => {
    const { data } = await listPayments(app, request.query, true);
    const file = csvDownload("payments", paymentColumnsCsv, data);
    return reply.headers(file.headers).send(file.body);
  });

  // ---- content requests ----
  app.get("/admin/content-requests", { schema: { querystring: contentRequestListQuerySchema } }, (request) =>
    listContentRequests(app, request.query),
  );
  app.patch("/admin/content-requests/:id", { schema: { ...byId, body: contentRequestPatchSchema } }, async (request) => ({
    data: await patchContentRequest(app, request, request.params.id, request.body),
  }));
};

export default routes;
