// The one-tap pay link (issue 27 item 4), public: whoever holds the signed token may see what it
// is for and pay it, for that client only (token.ts, service.ts).
//   GET  /api/pay-links/:token             → {data: PayLinkView}: the business, the client's first
//        name, the package and its price today, the ways to pay; nothing written (link previews)
//   POST /api/pay-links/:token/pay {method} → 201 a card/provider pay link or an EFT reference, the
//        portal renewal's answer; a double tap or a retry answers the same pending payment
// A link that is not ours (made up, altered) is 400; an expired one, one whose client is gone
// (deleted or merged away) or whose package is no longer on sale is 410; a suspended client 409.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { createPaymentsService } from "@/server/modules/payments/service";
import { type PayLinkView, payLinkPaySchema, payLinkTokenParams } from "@/shared/pay-link-schemas";
import { payByLink, viewPayLink } from "./service";

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const payments = createPaymentsService(app);
  const limit = (area: string, ip: string) =>
    enforce(app.db, [{ key: `${area}:ip:${ip}`, limit: app.config.PUBLIC_WRITE_LIMIT_PER_MIN, message: PUBLIC_WRITE_MESSAGE }]);

  app.get("/pay-links/:token", { schema: { params: payLinkTokenParams } }, async (request, reply): Promise<{ data: PayLinkView }> => {
    // a guessed token is counted like any public read that names a secret
    await limit("pay-link-read", clientIp(request));
    reply.header("cache-control", "no-store");
    return { data: await viewPayLink(app, payments, request.params.token) };
  });

  app.post("/pay-links/:token/pay", { schema: { params: payLinkTokenParams, body: payLinkPaySchema } }, async (request, reply) => {
    await limit("pay-link", clientIp(request));
    reply.header("cache-control", "no-store");
    const answer = await payByLink(app, payments, request.params.token, request.body, clientIp(request));
    return reply.status(201).send(answer);
  });
};

export default routes;
