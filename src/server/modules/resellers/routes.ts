// The owner's sub-resellers (issue 45; docs/architecture.md, "Sub-resellers"), admins only:
//   GET  /api/admin/resellers → {data, total, owner_credits, panel_error}: each with credits read from the panel
//   POST /api/admin/resellers {name, email, whatsapp, username?} (Idempotency-Key) → 201 {id, username, panel_user_id}
//   POST /api/admin/resellers/:id/credits {credits, note} (Idempotency-Key) → 201 {data: the transfer} (a replay: 200)
//   GET  /api/admin/resellers/:id/ledger → {data}
//   POST /api/admin/resellers/:id/suspend | /restore → {data: {id, status}}
//   PUT  /api/admin/resellers/settings {member_group_id} → {member_group_id}
//   GET  /api/admin/resellers/settings → {member_group_id, pricing}
//   PUT  /api/admin/resellers/pricing {price_per_credit, tiers: [{min_credits, price_per_credit}]} → {pricing}
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { requireAdmin } from "@/server/auth/guards";
import { parseBody } from "@/server/modules/client/service";
import { idempotencyKeyOf } from "@/server/modules/panel/mac-change";
import { creditPricingSchema, creditTransferSchema, newResellerSchema } from "@/shared/reseller-schemas";
import { resellerSettings, savePricing } from "./pricing";
import { type Actor, addReseller, findReseller, ledgerOf, listResellers, saveMemberGroup, setResellerStatus } from "./service";
import { transferCredits } from "./transfers";

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

const routes: FastifyPluginAsync = async (app) => {
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
