// WhatsApp Cloud API webhooks, and the dashboard's per-kind template settings:
//   GET    /api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=&hub.challenge=  → the challenge (text), 403 on a wrong token
//   POST   /api/whatsapp/webhook   X-Hub-Signature-256 over the raw body (401 when wrong or missing);
//                                  not JSON, or not Meta's shape → 400; inbound messages and statuses applied → 200;
//                                  a reply code in a message proves the number that wrote it (reply-proof.ts)
//   GET    /api/admin/whatsapp/templates          → {data, kinds, variables, cloud_api, shop} (shop: the templates at Meta, templates.ts)
//   POST   /api/admin/whatsapp/templates/submit   → {data: {created, existing, refused}, shop}; 409 naming a missing setting (audited)
//   POST   /api/admin/whatsapp/templates/refresh  → {data: {changed}, shop}; Meta's review states read again; 409 as above
//   PUT    /api/admin/whatsapp/templates/:kind/words {words} → {shop}; the owner's words before submitting (audited)
//   PUT    /api/admin/whatsapp/templates/:kind    {template_name, language_code, params, enabled} → {data} (audited)
//   DELETE /api/admin/whatsapp/templates/:kind    → 204 (audited)
// The inbox (issue 26, inbox.ts):
//   GET    /api/admin/inbox                       → {data: [{number, name, client_id, lead_id, last_message_at, last_text, unread}]}, newest first
//   GET    /api/admin/inbox/unread                → {data: {unread}}
//   GET    /api/admin/inbox/:number               → {data: thread} (inbox + outbox messages, customer facts); marks it read
//   POST   /api/admin/inbox/:number/reply {text}  → {data: {message, waLink}}; 409 outside the 24-hour window (audited)
//   POST   /api/admin/inbox/:number/resend-line-details  Idempotency-Key → 201 {data: {queued, replayed, cloud_api}}
//          (200 for a key already used: nothing queued again); 409 not a client, no line, line off (line-details.ts; audited)
// A :number that is not international digits (27821234567) is a 404.
// Nothing from a webhook's body, headers or query is logged except the shape problems found.
import { asc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { requireAdmin } from "@/server/auth/guards";
import { whatsappTemplates } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { AppError, notFound } from "@/server/lib/errors";
import { invalid, parseBody } from "@/server/modules/admin-catalogue/validation";
import { inboxReplySchema } from "@/shared/inbox-schemas";
import { KIND_VARIABLES, MESSAGE_KINDS, TEMPLATE_BUILT_IN_VARIABLES, whatsappTemplateInputSchema } from "@/shared/messaging";
import { templateWordsSchema, type WhatsAppTemplatesWithShop } from "@/shared/whatsapp-templates";
import { flushOwnerQueue, inboxNumber, listConversations, readThread, sendReply, unreadTotal } from "./inbox";
import { resendLineDetails } from "./line-details";
import { proveByReply } from "./reply-proof";
import { applyWebhook, signatureValid, tokenMatches, webhookSchema } from "./service";
import { refreshTemplates, saveWords, shopTemplates, submitTemplates } from "./templates";

const KIND_PATTERN = /^[a-z0-9][a-z0-9-]{0,59}$/;

const routes: FastifyPluginAsync = async (app) => {
  // Meta's verification handshake, when the webhook is added in the app's settings.
  app.get("/whatsapp/webhook", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const expected = app.config.WHATSAPP_VERIFY_TOKEN;
    const challenge = typeof query["hub.challenge"] === "string" ? query["hub.challenge"] : "";
    const token = typeof query["hub.verify_token"] === "string" ? query["hub.verify_token"] : undefined;
    if (!expected || query["hub.mode"] !== "subscribe" || !tokenMatches(token, expected) || !/^[A-Za-z0-9_-]{1,200}$/.test(challenge)) {
      request.log.warn({ configured: Boolean(expected), mode: String(query["hub.mode"] ?? "") }, "WhatsApp webhook verification refused");
      throw new AppError(403, "forbidden", "Verification failed.");
    }
    reply.header("cache-control", "no-store");
    return reply.type("text/plain; charset=utf-8").send(challenge);
  });

  // The signature covers the exact bytes received: in this scope bodies arrive as a Buffer.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.post("/whatsapp/webhook", async (request) => {
      const secret = app.config.WHATSAPP_APP_SECRET;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers["x-hub-signature-256"];
      if (!secret || !signatureValid(raw, typeof header === "string" ? header : undefined, secret)) {
        request.log.warn({ configured: Boolean(secret), signed: Boolean(header), bytes: raw.length }, "WhatsApp webhook signature refused");
        throw new AppError(401, "unauthorized", "The webhook signature is missing or wrong.");
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch {
        request.log.warn({ bytes: raw.length }, "WhatsApp webhook body is not JSON");
        throw new AppError(400, "bad_request", "The webhook body is not JSON.");
      }
      const parsed = webhookSchema.safeParse(json);
      if (!parsed.success) {
        const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
        request.log.warn({ problems, bytes: raw.length }, "WhatsApp webhook body does not match Meta's shape");
        throw new AppError(400, "bad_request", "The webhook body does not match the WhatsApp Business Account shape.");
      }
      const alerts = { publicUrl: (await loadBusiness(app)).publicUrl, cloudApi: app.outbox.cloudApi };
      const { opened, ...result } = await applyWebhook(app.db, parsed.data, new Date(), alerts);
      // A code written to us proves the number that wrote it (reply-proof.ts).
      await proveByReply(app, parsed.data);
      // A number that writes opens its window: what waited for the owner to send by hand goes now.
      if (app.outbox.cloudApi && opened.length) {
        let flushed = 0;
        for (const number of opened) flushed += (await flushOwnerQueue(app.db, number)).length;
        if (flushed) app.outbox.nudge();
      }
      return { success: true, ...result };
    });
  });

  // ---- the dashboard's template settings ----
  await app.register(async (admin) => {
    admin.addHook("onRequest", requireAdmin);
    const kindParam = (params: unknown): string => {
      const kind = String((params as { kind?: unknown }).kind ?? "");
      if (!KIND_PATTERN.test(kind)) invalid({ kind: "Kind is lower-case letters, digits and -" });
      return kind;
    };

    admin.get("/admin/whatsapp/templates", async (): Promise<WhatsAppTemplatesWithShop> => {
      const rows = await app.db.select().from(whatsappTemplates).orderBy(asc(whatsappTemplates.kind));
      return {
        data: rows.map((r) => ({ ...r, updated_at: r.updated_at.toISOString() })),
        kinds: Object.entries(MESSAGE_KINDS).map(([kind, label]) => ({ kind, label, variables: KIND_VARIABLES[kind] ?? [] })),
        variables: TEMPLATE_BUILT_IN_VARIABLES,
        cloud_api: app.outbox.cloudApi,
        shop: await shopTemplates(app),
      };
    });

    // ---- templates at Meta (templates.ts) ----
    admin.post("/admin/whatsapp/templates/submit", async (request) => {
      const result = await submitTemplates(app);
      await audit(app.db, request, { action: "submit", resource: "whatsapp_templates", resourceId: "meta", after: result });
      return { success: true, data: result, shop: await shopTemplates(app) };
    });

    admin.post("/admin/whatsapp/templates/refresh", async () => {
      const changed = await refreshTemplates(app);
      return { success: true, data: { changed }, shop: await shopTemplates(app) };
    });

    admin.put("/admin/whatsapp/templates/:kind/words", async (request) => {
      const kind = kindParam(request.params);
      const { words } = parseBody(templateWordsSchema(kind), request.body);
      const { before, after } = await saveWords(app.db, kind, words);
      await audit(app.db, request, {
        action: before ? "update" : "create",
        resource: "whatsapp_templates",
        resourceId: kind,
        before,
        after,
      });
      return { success: true, shop: await shopTemplates(app) };
    });

    admin.put("/admin/whatsapp/templates/:kind", async (request) => {
      const kind = kindParam(request.params);
      const input = parseBody(whatsappTemplateInputSchema, request.body);
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, kind));
        const [after] = await tx
          .insert(whatsappTemplates)
          .values({ kind, ...input })
          .onConflictDoUpdate({ target: whatsappTemplates.kind, set: { ...input, updated_at: sql`now()` } })
          .returning();
        await audit(tx, request, {
          action: before ? "update" : "create",
          resource: "whatsapp_templates",
          resourceId: kind,
          before: before ?? null,
          after,
        });
        return after;
      });
      return { success: true, data: { ...row, updated_at: row.updated_at.toISOString() } };
    });

    // ---- the inbox ----
    admin.get("/admin/inbox", async () => ({ data: await listConversations(app.db) }));

    admin.get("/admin/inbox/unread", async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { data: { unread: await unreadTotal(app.db) } };
    });

    admin.get("/admin/inbox/:number", async (request) => {
      const number = inboxNumber((request.params as { number?: unknown }).number);
      return { data: await readThread(app.db, number, app.outbox.cloudApi) };
    });

    admin.post("/admin/inbox/:number/reply", async (request) => {
      const number = inboxNumber((request.params as { number?: unknown }).number);
      const { text } = parseBody(inboxReplySchema, request.body);
      return { success: true, data: await sendReply(app, request, number, text) };
    });

    admin.post("/admin/inbox/:number/resend-line-details", async (request, reply) => {
      const number = inboxNumber((request.params as { number?: unknown }).number);
      const result = await resendLineDetails(app, request, number);
      return reply.status(result.replayed ? 200 : 201).send({ success: true, data: result });
    });

    admin.delete("/admin/whatsapp/templates/:kind", async (request, reply) => {
      const kind = kindParam(request.params);
      await app.db.transaction(async (tx) => {
        const [before] = await tx.delete(whatsappTemplates).where(eq(whatsappTemplates.kind, kind)).returning();
        if (!before) throw notFound("No template is set for that kind.");
        await audit(tx, request, { action: "delete", resource: "whatsapp_templates", resourceId: kind, before });
      });
      return reply.status(204).send();
    });
  });
};

export default routes;
