// Billing routes (docs/architecture.md, "Billing"):
//   GET  /api/admin/invoices?month=YYYY-MM          invoices and credit notes (newest first)
//   GET  /api/admin/invoices/:number.pdf            an invoice as PDF
//   GET  /api/admin/credit-notes/:number.pdf        a credit note as PDF
//   GET  /api/admin/billing/export.csv?month=YYYY-MM  the month for the bookkeeper
//   GET|PUT /api/admin/billing/numbering            the next number of each series
//   POST /api/admin/payments/:id/refund             {amount?, reason, term?, days?} → credit note
//   GET|POST /api/admin/coupons, PUT|DELETE /api/admin/coupons/:id
//   GET  /api/client/invoices                        the signed-in client's documents
//   GET  /api/client/invoices/:number.pdf, /api/client/credit-notes/:number.pdf (another's: 404)
//   GET|PUT /api/client/billing-details             company, address and VAT number for invoices
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin, requireClient } from "@/server/auth/guards";
import { clients } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { parseBody } from "@/server/modules/admin-catalogue/validation";
import { buyerDetailsSchema, couponInputSchema, MONTH_PATTERN, numberingSchema, refundRequestSchema } from "@/shared/billing";
import { saDay } from "@/shared/dates";
import { listDocuments } from "./documents";
import {
  createCoupon,
  creditNotePdfFor,
  deleteCoupon,
  documentNumberOf,
  getNumbering,
  invoicePdfFor,
  listCoupons,
  monthCsv,
  refundPayment,
  setNumbering,
  updateCoupon,
} from "./service";

const byId = { params: z.object({ id: z.uuid({ error: "Not a valid id" }) }) };
const byFile = { params: z.object({ file: z.string().max(60) }) };
const monthQuery = {
  querystring: z.object({ month: z.string().regex(MONTH_PATTERN, "Choose a month as YYYY-MM").optional() }),
};

function sendPdf(reply: FastifyReply, file: { filename: string; content: Buffer }) {
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `inline; filename="${file.filename}"`)
    .header("cache-control", "private, no-store")
    .send(file.content);
}

async function admin(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireAdmin);

  app.get("/admin/invoices", { schema: monthQuery }, async (request) => ({
    data: await listDocuments(app.db, { month: request.query.month }),
  }));
  app.get("/admin/invoices/:file", { schema: byFile }, async (request, reply) =>
    sendPdf(reply, await invoicePdfFor(app.db, documentNumberOf(request.params.file))),
  );
  app.get("/admin/credit-notes/:file", { schema: byFile }, async (request, reply) =>
    sendPdf(reply, await creditNotePdfFor(app.db, documentNumberOf(request.params.file))),
  );
  app.get("/admin/billing/export.csv", { schema: monthQuery }, async (request, reply) => {
    const month = request.query.month ?? saDay(new Date()).slice(0, 7);
    const file = await monthCsv(app.db, month);
    return reply.headers(file.headers).send(file.body);
  });
  app.get("/admin/billing/numbering", async () => ({ data: await getNumbering(app) }));
  app.put("/admin/billing/numbering", async (request) => ({
    data: await setNumbering(app, request, parseBody(numberingSchema, request.body)),
  }));

  app.post("/admin/payments/:id/refund", { schema: byId }, async (request) => ({
    data: await refundPayment(app, request, request.params.id, parseBody(refundRequestSchema, request.body)),
  }));

  app.get("/admin/coupons", async () => ({ data: await listCoupons(app.db) }));
  app.post("/admin/coupons", async (request, reply) =>
    reply.status(201).send({ data: await createCoupon(app, request, parseBody(couponInputSchema, request.body)) }),
  );
  app.put("/admin/coupons/:id", { schema: byId }, async (request) => ({
    data: await updateCoupon(app, request, request.params.id, parseBody(couponInputSchema, request.body)),
  }));
  app.delete("/admin/coupons/:id", { schema: byId }, async (request) => ({
    data: await deleteCoupon(app, request, request.params.id),
  }));
}

async function client(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  app.addHook("onRequest", requireClient);
  const me = (request: { client?: { id: string } }) => request.client?.id as string;

  app.get("/client/invoices", async (request) => ({ data: await listDocuments(app.db, { clientId: me(request), limit: 200 }) }));
  app.get("/client/invoices/:file", { schema: byFile }, async (request, reply) =>
    sendPdf(reply, await invoicePdfFor(app.db, documentNumberOf(request.params.file), me(request))),
  );
  app.get("/client/credit-notes/:file", { schema: byFile }, async (request, reply) =>
    sendPdf(reply, await creditNotePdfFor(app.db, documentNumberOf(request.params.file), me(request))),
  );

  const details = async (id: string) => {
    const [row] = await app.db
      .select({ company: clients.billing_company, address: clients.billing_address, vatNumber: clients.billing_vat_number })
      .from(clients)
      .where(eq(clients.id, id));
    return row;
  };
  app.get("/client/billing-details", async (request) => ({ data: await details(me(request)) }));
  app.put("/client/billing-details", async (request) => {
    const input = parseBody(buyerDetailsSchema, request.body);
    const id = me(request);
    await app.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ company: clients.billing_company, address: clients.billing_address, vatNumber: clients.billing_vat_number })
        .from(clients)
        .where(eq(clients.id, id));
      await tx
        .update(clients)
        .set({
          billing_company: input.company ?? "",
          billing_address: input.address ?? "",
          billing_vat_number: input.vatNumber ?? "",
          updated_at: new Date(),
        })
        .where(eq(clients.id, id));
      await audit(tx, request, { action: "update", resource: "clients.billing", resourceId: id, before, after: input });
    });
    return { data: await details(id) };
  });
}

const routes: FastifyPluginAsync = async (app) => {
  await app.register(admin);
  await app.register(client);
};

export default routes;
