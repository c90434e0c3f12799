// The owner's sub-resellers (issue 45; docs/architecture.md, "Sub-resellers"), admins only:
//   GET  /api/admin/resellers → {data, total, owner_credits, panel_error}: each with credits read from the panel
//   POST /api/admin/resellers {name, email, whatsapp, username?} (Idempotency-Key) → 201 {id, username, panel_user_id}
//   POST /api/admin/resellers/:id/credits {credits, note} (Idempotency-Key) → 201 {data: the transfer} (a replay: 200)
//   GET  /api/admin/resellers/:id/ledger → {data}
//   POST /api/admin/resellers/:id/suspend | /restore → {data: {id, status}}
//   PUT  /api/admin/resellers/settings {member_group_id} → {member_group_id}
//   GET  /api/admin/resellers/settings → {member_group_id, pricing}
//   GET  /api/admin/resellers/orders → {data}: partners' credit orders, newest first
//   POST /api/admin/resellers/orders/:id/retry → {data}: a refused order sent again (a new ledger key)
//   GET  /api/admin/resellers/network?to=YYYY-MM&months=6 → per partner per month, lines, the runway
//   PUT  /api/admin/resellers/pricing {price_per_credit, tiers: [{min_credits, price_per_credit}]} → {pricing}
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { requireAdmin } from "@/server/auth/guards";
import { notFound } from "@/server/lib/errors";
import { parseBody } from "@/server/modules/client/service";
import { idempotencyKeyOf } from "@/server/modules/panel/mac-change";
import { creditPricingSchema, creditTransferSchema, newResellerSchema } from "@/shared/reseller-schemas";
import { deliverPaidOrders, listOrders, retryOrder, watchPaidOrders } from "./credit-orders";
import { currentMonth, networkView } from "./network";
import { resellerSettings, savePricing } from "./pricing";
import { type Actor, addReseller, auditAs, findReseller, ledgerOf, listResellers, saveMemberGroup, setResellerStatus } from "./service";
import { transferCredits } from "./transfers";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const adminOf = (request: FastifyRequest): Actor => ({ kind: "admin", id: request.admin?.id ?? "", email: request.admin?.email ?? "" });
const keyOf = (request: FastifyRequest) => {
  const header = request.headers["idempotency-key"];
  return typeof header === "string" && header.trim() ? header.trim().slice(0, 200) : null;
};
const memberGroupSchema = z.object({
  member_group_id: z
    .string({ error: "Enter the member group's id" })
    .trim()
    .regex(/^\d{1,9}$/, "Enter the member group's id (a number)"),
});

const networkQuerySchema = z.object({
  to: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Give the last month as YYYY-MM, e.g. 2026-03")
    .optional(),
  months: z.coerce
    .number({ error: "Give the number of months, 1 to 24" })
    .int("Give the number of months, 1 to 24")
    .min(1, "Give the number of months, 1 to 24")
    .max(24, "Give the number of months, 1 to 24")
    .optional()
    .default(6),
});

const routes: FastifyPluginAsync = async (app) => {
  // Paid credit orders are delivered from the change feed in every process (credit-orders.ts).
  const stopWatching = watchPaidOrders(app);
  app.addHook("onClose", async () => stopWatching());
  app.addHook("onRequest", requireAdmin);

  app.get("/admin/resellers", async () => listResellers(app));

  app.post("/admin/resellers", async (request, reply) => {
    const input = parseBody(newResellerSchema, request.body);
    const { reseller, created } = await addReseller(app, adminOf(request), input, keyOf(request));
    reply.code(created ? 201 : 200);
    return { id: reseller.id, username: reseller.username, panel_user_id: reseller.panel_user_id };
  });

  app.put("/admin/resellers/settings", async (request) => {
    const { member_group_id } = parseBody(memberGroupSchema, request.body);
    await saveMemberGroup(app, adminOf(request), member_group_id);
    return { member_group_id };
  });

  app.get("/admin/resellers/settings", async () => resellerSettings(app));

  app.put("/admin/resellers/pricing", async (request) => {
    const pricing = parseBody(creditPricingSchema, request.body);
    return { pricing: await savePricing(app, adminOf(request), pricing) };
  });

  app.get("/admin/resellers/orders", async () => {
    await deliverPaidOrders(app).catch((error) => app.log.warn({ err: error }, "partner credits delivery"));
    return { data: await listOrders(app, null, 100) };
  });

  app.post<{ Params: { id: string } }>("/admin/resellers/orders/:id/retry", async (request) => {
    if (!UUID_RE.test(request.params.id)) throw notFound("No such order.");
    await retryOrder(app, request.params.id);
    const [order] = (await listOrders(app, null, 1000)).filter((o) => o.id === request.params.id);
    await auditAs(app.db, adminOf(request), {
      action: "credits-order-retry",
      resource: "partner_credit_order",
      resourceId: request.params.id,
    });
    return { data: order };
  });

  app.get("/admin/resellers/network", async (request) => {
    const query = parseBody(networkQuerySchema, request.query ?? {});
    return networkView(app, { to: query.to ?? currentMonth(), months: query.months });
  });

  app.post<{ Params: { id: string } }>("/admin/resellers/:id/credits", async (request, reply) => {
    const reseller = await findReseller(app, request.params.id);
    const { credits, note } = parseBody(creditTransferSchema, request.body);
    const { transfer, replayed } = await transferCredits(app, adminOf(request), reseller, {
      credits,
      note,
      key: idempotencyKeyOf(request.headers["idempotency-key"]),
    });
    reply.code(replayed ? 200 : 201);
    return { data: transfer };
  });

  app.get<{ Params: { id: string } }>("/admin/resellers/:id/ledger", async (request) => {
    const reseller = await findReseller(app, request.params.id);
    return { data: await ledgerOf(app, reseller.id) };
  });

  app.post<{ Params: { id: string } }>("/admin/resellers/:id/suspend", async (request) => ({
    data: await setResellerStatus(app, adminOf(request), request.params.id, "suspended"),
  }));
  app.post<{ Params: { id: string } }>("/admin/resellers/:id/restore", async (request) => ({
    data: await setResellerStatus(app, adminOf(request), request.params.id, "active"),
  }));
};

export default routes;
