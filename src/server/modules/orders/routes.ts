// Public writes where a visitor becomes a lead:
//   POST /api/orders    (the spec's send-new-client-email): 201 {success, id, whatsappUrl};
//                       a free trial in instant mode (modules/trials): 202 {success, id, trialId, sentTo, waLink}
//   POST /api/interest  (the spec's process-client-interest): 201 {success, id}
// and the one read the free-trial buttons need before anyone fills in the form:
//   GET /api/trial-availability: {data: {available, reason, day}}
// Both are rate-limited per IP, validated with the shared form schemas in the handler (so the
// raw body can be kept with the lead and the spec's own words used for errors), and accept an
// Idempotency-Key header: a retry answers the saved lead with 200 instead of saving another.
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type ZodType, z } from "zod";
import { knownFields, storablePayload } from "@/server/lib/clean-input";
import { badRequest } from "@/server/lib/errors";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { claimTrialViewer, TRIAL_COOKIE, trialCookieOptions } from "@/server/modules/trials/service";
import { saDay } from "@/shared/dates";
import { INTEREST_REQUIRED_MESSAGE, interestFormSchema, isFreeTrialOrder, type OrderForm, orderFormSchema } from "@/shared/schemas";
import { trialStartedSchema } from "@/shared/trial-schemas";
import { type Submission, submitInterest, submitOrder, submitPaidOrder, trialAvailability } from "./service";

const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

// The answers (also the shapes the web reads; see the report about src/shared/api.ts).
/** notice: a free trial no code could reach, which the shop confirms instead (modules/trials) */
const orderSubmitted = z.object({ success: z.literal(true), id: z.string(), whatsappUrl: z.string(), notice: z.string().optional() });
/** A free trial in instant mode (issue 27): the trial waiting for its code, and where the code went. */
const trialOpened = z.object({ success: z.literal(true), id: z.string() }).extend(trialStartedSchema.shape);
const interestSubmitted = z.object({ success: z.literal(true), id: z.string() });
const trialAvailable = z.object({ data: z.object({ available: z.boolean(), reason: z.string(), day: z.string() }) });
export type OrderSubmitted = z.infer<typeof orderSubmitted>;
export type InterestSubmitted = z.infer<typeof interestSubmitted>;

/** {field: first message} from zod issues; '_' for a problem with the body as a whole. */
function fieldMessages(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The form's values, or the 400 with every problem by field. `summary` picks the headline. */
function parseForm<T>(schema: ZodType<T>, body: Record<string, unknown>, summary: (fields: Record<string, string>) => string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fields = fieldMessages(result.error.issues);
  throw badRequest(summary(fields), fields);
}

function submissionOf(request: FastifyRequest, keys: readonly string[]): Submission & { body: Record<string, unknown> } {
  const header = request.headers["idempotency-key"];
  const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? "";
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    const message = `The Idempotency-Key header must be ${MAX_IDEMPOTENCY_KEY_LENGTH} characters or fewer.`;
    throw badRequest(message, { "Idempotency-Key": message });
  }
  // A body that is not an object (a string, a list) is a form with nothing filled in.
  const body =
    request.body !== null && typeof request.body === "object" && !Array.isArray(request.body) ? storablePayload(request.body) : {};
  return { ip: clientIp(request), idempotencyKey: key || null, payload: knownFields(body, keys), body };
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = () => app.config.PUBLIC_WRITE_LIMIT_PER_MIN;

  // Cached per South African day until a blackout day is added, changed or removed.
  app.get("/trial-availability", { schema: { querystring: z.object({}), response: { 200: trialAvailable } } }, async (_request, reply) => {
    const now = new Date();
    const data = await app.cache.get(`orders:trial-availability:${saDay(now)}`, ["trial_blackout_days"], () => trialAvailability(app, now));
    reply.header("cache-control", "no-cache");
    return { data };
  });

  app.post("/orders", { schema: { response: { 200: orderSubmitted, 201: orderSubmitted, 202: trialOpened } } }, async (request, reply) => {
    const rateLimit = { key: `orders:ip:${clientIp(request)}`, perMinute: limit() };
    const count = () => enforce(app.db, [{ key: rateLimit.key, limit: rateLimit.perMinute, message: PUBLIC_WRITE_MESSAGE }]);
    let submission: ReturnType<typeof submissionOf>;
    let form: OrderForm;
    try {
      submission = submissionOf(request, Object.keys(orderFormSchema.shape));
      // The schema's own messages are the spec's; the first problem is the headline.
      form = parseForm(orderFormSchema, submission.body, (fields) => Object.values(fields)[0]);
    } catch (problem) {
      // Counted like any submission: past the limit the answer is 429, whatever the form held.
      await count();
      throw problem;
    }
    // A paid order is counted and saved in one go with any arriving beside it; a free trial alone.
    const saved = isFreeTrialOrder(form)
      ? await count().then(() => submitOrder(app, form, submission))
      : await submitPaidOrder(app, form, submission, rateLimit);
    reply.header("cache-control", "no-store");
    if (saved.trial) {
      // this browser sees the line once the number is proved, by the code typed here or written to us
      const viewer = await claimTrialViewer(app, saved.trial.trialId);
      if (viewer) reply.setCookie(TRIAL_COOKIE, `${saved.trial.trialId}.${viewer.token}`, trialCookieOptions(app.config, viewer.hours));
      return reply.status(202).send({ success: true, id: saved.id, ...saved.trial });
    }
    return reply
      .status(saved.replayed ? 200 : 201)
      .send({ success: true, id: saved.id, whatsappUrl: saved.whatsappUrl, ...(saved.notice ? { notice: saved.notice } : {}) });
  });

  app.post("/interest", { schema: { response: { 200: interestSubmitted, 201: interestSubmitted } } }, async (request, reply) => {
    await enforce(app.db, [{ key: `interest:ip:${clientIp(request)}`, limit: limit(), message: PUBLIC_WRITE_MESSAGE }]);
    const submission = submissionOf(request, Object.keys(interestFormSchema.shape));
    // Spec §5: any required field missing → 'Please fill in all required fields.' (the web
    // shows it under 'Missing Information'); otherwise the first problem, e.g. a bad e-mail.
    const form = parseForm(interestFormSchema, submission.body, (fields) =>
      Object.values(fields).includes(INTEREST_REQUIRED_MESSAGE) ? INTEREST_REQUIRED_MESSAGE : Object.values(fields)[0],
    );
    const saved = await submitInterest(app, form, submission);
    reply.header("cache-control", "no-store");
    return reply.status(saved.replayed ? 200 : 201).send({ success: true, id: saved.id });
  });
};

export default routes;
