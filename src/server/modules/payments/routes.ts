// Payments: card pay links (the card provider, or the local test checkout), the provider webhook,
// status for the result pages, EFT references, and the test checkout's own page; the hosted providers'
// checkouts (the hand-off page) and their notifications (docs/payment-providers.md).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { hostedProviderDefinitions } from "@/server/adapters/payments/registry";
import { renderTestCheckout, TEST_CHECKOUT_PATH } from "@/server/adapters/payments/select-provider";
import { CLIENT_COOKIE, createSession, deleteSession, readClientSession, secureCookies, setSessionCookie } from "@/server/auth/sessions";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { handoffPolicy, renderHandoff } from "./checkout-handoff";
import { createPaymentsService, type PayerSession, paymentNotificationsSettled } from "./service";

/** Our references and the test checkout's: letters, digits, '_' and '-'. */
const refParam = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "Not a payment reference");

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = createPaymentsService(app);
  const limit = (area: string, ip: string) =>
    enforce(app.db, [{ key: `${area}:ip:${ip}`, limit: app.config.PUBLIC_WRITE_LIMIT_PER_MIN, message: PUBLIC_WRITE_MESSAGE }]);

  // A notification answered at once but still being checked finishes before the app closes (shutdown).
  app.addHook("onClose", async () => {
    await paymentNotificationsSettled();
  });

  // Payment facts change from one second to the next; never cache them.
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  // The test checkout's buttons are plain HTML forms: accept their (empty) form bodies.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, _body, done) => done(null, {}));

  // Bodies are validated in the service with the shared schemas, so the spec's own words
  // reach the browser; an `amount` in the body is never read.
  // A signed-in client pays for their own account; anyone else names themselves in the body.
  // A payer who proves with a one-time code that they are a client is signed in as that client,
  // so trying again (another card, EFT instead) needs no second code.
  const payer = async (request: FastifyRequest, reply: FastifyReply): Promise<PayerSession> => ({
    clientId: (await readClientSession(app, request, reply))?.clientId ?? null,
    ip: clientIp(request),
    onProven: async (clientId) => {
      await deleteSession(app.db, request.cookies[CLIENT_COOKIE]);
      const { token, expiresAt } = await createSession(app.db, { kind: "client", clientId, ttlHours: app.config.SESSION_TTL_HOURS });
      setSessionCookie(reply, "client", token, expiresAt, secureCookies(app.config));
    },
  });

  app.post("/payments/paylink", async (request, reply) => {
    await limit("paylink", clientIp(request));
    const result = await service.createPaylink(request.body, await payer(request, reply));
    return reply.status(201).send(result);
  });

  app.post("/payments/eft", async (request, reply) => {
    await limit("eft", clientIp(request));
    const result = await service.createEft(request.body, await payer(request, reply));
    return reply.status(201).send(result);
  });

  // The failed card payment's "Pay by EFT instead": the same package and payer, by EFT.
  app.post("/payments/:ref/eft", { schema: { params: z.object({ ref: refParam }) } }, async (request, reply) => {
    await limit("eft", clientIp(request));
    return reply.status(201).send(await service.eftInstead(request.params.ref));
  });

  // What a coupon does to a package's price, for the review step (nothing is written).
  app.post("/payments/coupon", async (request, reply) => {
    await limit("coupon", clientIp(request));
    return { data: await service.checkCoupon(request.body, await payer(request, reply)) };
  });

  // Is this number or address a client's? If so the code goes to that client's own channels.
  app.post("/payments/identify", async (request, reply) => {
    await limit("identify", clientIp(request));
    return reply.status(200).send(await service.identify(request.body, await payer(request, reply)));
  });

  app.get("/payments/methods", async () => ({ data: await service.methods() }));

  const testCheckoutPath = TEST_CHECKOUT_PATH.replace(/^\/api/, "");
  app.get(`${testCheckoutPath}/:ref`, { schema: { params: z.object({ ref: refParam }) } }, async (request, reply) => {
    const view = await service.testCheckout(request.params.ref);
    if (view.kind === "redirect") return reply.redirect(view.location, 303);
    const html = renderTestCheckout({
      companyName: view.business.companyName,
      description: view.paylink.description,
      amountCents: view.paylink.amount_cents,
      reference: view.paylink.external_transaction_id,
    });
    // Under the app-wide 'no-referrer' policy a browser sends `Origin: null` with a form post,
    // which the CSRF guard refuses; 'same-origin' lets the buttons' posts carry our origin.
    reply.header("referrer-policy", "same-origin");
    return reply.type("text/html; charset=utf-8").send(html);
  });

  app.post(
    `${testCheckoutPath}/:ref/:action`,
    { schema: { params: z.object({ ref: refParam, action: z.enum(["pay", "decline", "cancel"]) }) } },
    async (request, reply) => reply.redirect(await service.testCheckoutAction(request.params.ref, request.params.action), 303),
  );

  // A form-post provider's signed form (capabilities.checkout "form"), posted on to the provider's page.
  app.get("/payments/checkout/:ref", { schema: { params: z.object({ ref: refParam }) } }, async (request, reply) => {
    const view = await service.checkoutPage(request.params.ref);
    if (view.kind === "redirect") return reply.redirect(view.location, 303);
    reply.header("content-security-policy", handoffPolicy(view.checkout.action));
    reply.header("referrer-policy", "no-referrer");
    return reply
      .type("text/html; charset=utf-8")
      .send(renderHandoff({ label: view.label, action: view.checkout.action, fields: view.checkout.fields, amount: view.amount }));
  });

  app.get("/payments/:ref", { schema: { params: z.object({ ref: refParam }) } }, (request) => service.publicStatus(request.params.ref));

  // The webhook verifies a signature over the exact bytes received, so in this scope bodies
  // arrive as text, whatever content type the provider declares.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    scope.post("/payments/webhook/:provider", { schema: { params: z.object({ provider: z.string().max(40) }) } }, async (request) => {
      const rawBody = typeof request.body === "string" ? request.body : "";
      return service.handleCallback(request.params.provider, {
        path: service.callbackPath(request.params.provider),
        rawBody,
        headers: request.headers,
      });
    });

    // Each hosted provider's notification, at the path its definition names (registry.ts).
    for (const definition of hostedProviderDefinitions()) {
      const name = definition.name;
      const path = definition.notificationPath.replace(/^\/api/, "");
      if (definition.answersNotificationAtOnce) {
        // Checked for shape (400), then answered 200 at once, as the provider asks; the source
        // address (request.ip under TRUST_PROXY), the signature, the provider's confirmation and
        // the capture run after the answer (their outcome noted on the payment).
        scope.post(path, async (request, reply) => {
          const rawBody = typeof request.body === "string" ? request.body : "";
          service.inBackground(
            await service.takeNotification(name, { rawBody, headers: request.headers }, { strict: false, source: request.ip }),
          );
          return reply.status(200).type("text/plain").send("OK");
        });
      } else {
        // Checked and captured before the answer, so a failure to confirm is a 502 and the
        // provider delivers the notification again.
        scope.post(path, async (request) => {
          const rawBody = typeof request.body === "string" ? request.body : "";
          await (await service.takeNotification(name, { rawBody, headers: request.headers }, { strict: true }))();
          return { received: true };
        });
      }
    }
  });
};

export default routes;
