// Automatic renewals (issue 44):
//   GET    /api/client/auto-renew             → {data: AutoRenewView | null} (never the token)
//   PUT    /api/client/auto-renew {enabled}   → false turns it off; true is chosen only at checkout (409)
//   DELETE /api/client/auto-renew             → off, and the provider told
//   POST   /api/client/auto-renew/card        → 201 {data: {url, reference}}: "Use another card", a card-saving checkout (card-change.ts)
//   GET    /api/admin/renewals                → {data: RenewalsOverview}
//   GET    /api/admin/clients/:id/auto-renew  → {data: AutoRenewView | null} (the client page's line; never the token)
//   POST   /api/admin/renewals/run            → the hourly job's pass, now (audited; safe to repeat)
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin, requireClient } from "@/server/auth/guards";
import { audit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { parseBody, signedInId } from "@/server/modules/client/service";
import { cancelReplacedCards, startCardChange, watchCardChanges } from "./card-change";
import { runAutoRenewals } from "./renewals";
import { autoRenewView, cancelPending, renewalsOverview, stopAutoRenew } from "./service";

export const AUTO_RENEW_ON_AT_CHECKOUT =
  "Automatic renewal is chosen when you pay by card: tick 'Renew automatically with this card' at your next payment";
const putSchema = z.object({ enabled: z.boolean({ error: "Say whether to renew automatically (true or false)" }) });

async function client(app: FastifyInstance) {
  app.addHook("onRequest", requireClient);
  app.get("/client/auto-renew", async (request) => ({ data: await autoRenewView(app, signedInId(request)) }));
  app.put("/client/auto-renew", async (request) => {
    const { enabled } = parseBody(putSchema, request.body);
    if (enabled) throw new AppError(409, "auto_renew_at_checkout", AUTO_RENEW_ON_AT_CHECKOUT);
    return { data: await stopAutoRenew(app, signedInId(request), "turned off in the portal") };
  });
  app.post("/client/auto-renew/card", async (request, reply) => {
    const started = await startCardChange(app, signedInId(request));
    reply.code(201);
    return { data: started };
  });
  app.delete("/client/auto-renew", async (request) => ({
    data: await stopAutoRenew(app, signedInId(request), "turned off in the portal"),
  }));
}

async function admin(app: FastifyInstance) {
  app.addHook("onRequest", requireAdmin);
  app.get("/admin/renewals", async () => ({ data: await renewalsOverview(app) }));
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      "/admin/clients/:id/auto-renew",
      { schema: { params: z.object({ id: z.uuid({ error: "Not a valid id" }) }) } },
      async (request) => ({
        data: await autoRenewView(app, request.params.id),
      }),
    );
  app.post("/admin/renewals/run", async (request) => {
    const result = { ...(await runAutoRenewals(app)), cancelled: (await cancelPending(app)) + (await cancelReplacedCards(app)) };
    await audit(app.db, request, { action: "run", resource: "renewals", after: result });
    return { data: result };
  });
}

const routes: FastifyPluginAsync = async (app) => {
  // A replaced card is cancelled at the provider once its card-saving checkout is paid (card-change.ts).
  const stopWatching = watchCardChanges(app);
  app.addHook("onClose", async () => stopWatching());
  await app.register(client);
  await app.register(admin);
};

export default routes;
