// A partner buys credits from the shop (issue 45 item 4), inside the partner session's scope:
//   GET  /api/partner/credits/offer → {pricing, methods}: the owner's price list and the ways to pay
//   POST /api/partner/credits/checkout {credits, method} → 201 {order, pay_url, bank}
//   GET  /api/partner/credits/orders → {data}: their own orders (a paid one not yet delivered is delivered first)
import { eq } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { resellers } from "@/server/db/schema";
import { parseBody } from "@/server/modules/client/service";
import { checkoutCredits, creditOffer, deliverPaidOrders, listOrders } from "@/server/modules/resellers/credit-orders";
import { auditAs } from "@/server/modules/resellers/service";
import { creditCheckoutSchema } from "@/shared/reseller-schemas";

const partnerId = (request: FastifyRequest) => request.partner?.id ?? "";

const routes: FastifyPluginAsync = async (app) => {
  app.get("/partner/credits/offer", async () => creditOffer(app));

  app.post("/partner/credits/checkout", async (request, reply) => {
    const input = parseBody(creditCheckoutSchema, request.body);
    const [partner] = await app.db
      .select()
      .from(resellers)
      .where(eq(resellers.id, partnerId(request)));
    const answer = await checkoutCredits(app, partner, input);
    await auditAs(
      app.db,
      { kind: "partner", id: partner.id, username: partner.username },
      {
        action: "credits-order",
        resource: "partner_credit_order",
        resourceId: answer.order.id,
        after: { credits: answer.order.credits, amount: answer.order.amount, method: answer.order.method },
      },
    );
    reply.code(201);
    return answer;
  });

  app.get("/partner/credits/orders", async (request, reply) => {
    reply.header("cache-control", "no-store");
    // A paid order whose change-feed notice was missed is delivered now, once (its ledger key).
    await deliverPaidOrders(app, partnerId(request)).catch((error) => request.log.warn({ err: error }, "partner credits delivery"));
    const data = (await listOrders(app, partnerId(request))).map(({ partner: _, ...order }) => order);
    return { data };
  });
};

export default routes;
