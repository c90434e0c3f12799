// Instant free trials (issue 27). Public, each write rate-limited per connection:
//   POST /api/trials/:id/verify {code} → 201 the trial (client in 'trial', its line queued);
//        400 a wrong or expired code (nothing created), 404 no such trial, 409 already started or a limit
//        reached since the request (per network, per shop; 400 on email for a throwaway address), counted
//   POST /api/trials/:id/resend        → 202 {trialId, sentTo}: a new code (3 an hour to one address)
//   GET  /api/trials/:id               → the result screen: awaiting-code | provisioning | ready | failed;
//        the line's login only to the browser that entered the code (its httpOnly cookie)
// The order itself (POST /api/orders, free trial, instant mode) answers 202 {trialId, sentTo}.
// The owner's count: GET /api/admin/trials/summary → trials asked for, started, converted (paid since
// the trial began; with the rate) and refused (by reason), today and 7 days (shared TrialSummary).
import { and, count, countDistinct, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "@/server/auth/guards";
import { capturedPayments, trialRefusals, trials } from "@/server/db/schema";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { type TrialSummary, type TrialWindowSummary, trialStartedSchema, trialVerifySchema, trialViewSchema } from "@/shared/trial-schemas";
import { loadTrialLimits, startOfSaDay } from "./limits";
import { trialMode } from "./mode";
import { getTrial, resendCode, TRIAL_COOKIE, TRIAL_MESSAGES, trialCookieOptions, verifyTrial, viewerTokenFor } from "./service";

const byId = { params: z.object({ id: z.uuid({ error: TRIAL_MESSAGES.notFound }) }) };

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = () => app.config.PUBLIC_WRITE_LIMIT_PER_MIN;

  app.get("/trials/:id", { schema: { ...byId, response: { 200: trialViewSchema } } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return getTrial(app, request.params.id, viewerTokenFor(request.cookies?.[TRIAL_COOKIE], request.params.id));
  });

  app.post(
    "/trials/:id/verify",
    { schema: { ...byId, body: trialVerifySchema, response: { 201: trialViewSchema } } },
    async (request, reply) => {
      await enforce(app.db, [{ key: `trials:ip:${clientIp(request)}`, limit: limit(), message: PUBLIC_WRITE_MESSAGE }]);
      const verified = await verifyTrial(app, request.params.id, request.body.code);
      reply.setCookie(TRIAL_COOKIE, `${request.params.id}.${verified.viewerToken}`, trialCookieOptions(app.config, verified.hours));
      reply.header("cache-control", "no-store");
      return reply.status(201).send(verified.view);
    },
  );

  app.post("/trials/:id/resend", { schema: { ...byId, response: { 202: trialStartedSchema } } }, async (request, reply) => {
    await enforce(app.db, [{ key: `trials:ip:${clientIp(request)}`, limit: limit(), message: PUBLIC_WRITE_MESSAGE }]);
    const sent = await resendCode(app, request.params.id, clientIp(request));
    reply.header("cache-control", "no-store");
    return reply.status(202).send(sent);
  });

  app.get("/admin/trials/summary", { onRequest: requireAdmin, schema: { querystring: z.object({}) } }, async (_request, reply) => {
    reply.header("cache-control", "no-store");
    const now = new Date();
    const since = { today: startOfSaDay(now), week: new Date(startOfSaDay(now).getTime() - 6 * 86_400_000) };
    const window = async (from: Date): Promise<TrialWindowSummary> => {
      const [[asked], [started], [converted], refused] = await Promise.all([
        app.db.select({ n: count() }).from(trials).where(gte(trials.created_at, from)),
        app.db
          .select({ n: count() })
          .from(trials)
          .where(and(isNotNull(trials.started_at), gte(trials.started_at, from))),
        // started in the stretch, and their client paid since the trial began (not refunded in full)
        app.db
          .select({ n: countDistinct(trials.id) })
          .from(trials)
          .innerJoin(capturedPayments, eq(capturedPayments.client_id, trials.client_id))
          .where(
            and(
              gte(trials.started_at, from),
              eq(capturedPayments.status, "paid"),
              sql`${capturedPayments.paid_at} >= ${trials.started_at}`,
            ),
          ),
        app.db
          .select({ reason: trialRefusals.reason, n: count() })
          .from(trialRefusals)
          .where(gte(trialRefusals.created_at, from))
          .groupBy(trialRefusals.reason),
      ]);
      return {
        asked: asked.n,
        started: started.n,
        converted: converted.n,
        conversionRate: started.n ? converted.n / started.n : null,
        refused: Object.fromEntries(refused.map((r) => [r.reason, r.n])),
      };
    };
    const summary: TrialSummary = {
      mode: await trialMode(app),
      limits: await loadTrialLimits(app),
      today: await window(since.today),
      last7Days: await window(since.week),
    };
    return summary;
  });
};

export default routes;
