// The owner's message templates (dashboard › Message templates; shared/message-templates.ts):
//   GET    /api/admin/message-templates               → {data: MessageTemplateEntry[]} every kind, its variables, the text in use
//   PUT    /api/admin/message-templates/:kind         {subject, body} → {data} (400 naming the field: empty, unknown variable,
//                                                     a secret's variable missing; audited)
//   DELETE /api/admin/message-templates/:kind         → {data} back to the default (audited)
//   POST   /api/admin/message-templates/:kind/preview {client_id, subject?, body?} → {data: {subject, body, client_name}}
//                                                     the stored (or the draft's) text with that client's data; secrets never shown
// Only overrides are stored; the senders read them when they queue (lib/message-templates.ts).
import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { requireAdmin } from "@/server/auth/guards";
import { clients, messageTemplates } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { notFound } from "@/server/lib/errors";
import { loadTemplates, type OwnerTemplates } from "@/server/lib/message-templates";
import { invalid, parseBody } from "@/server/modules/admin-catalogue/validation";
import {
  isTemplateKind,
  type MessageTemplateEntry,
  type MessageTemplatePreview,
  messageTemplatePreviewSchema,
  messageTemplateSchemaFor,
  renderTemplate,
  SECRET_VARIABLES,
  TEMPLATE_DEFINITIONS,
  TEMPLATE_KINDS,
  TEMPLATE_VARIABLE_HELP,
  type TemplateKind,
} from "@/shared/message-templates";
import { previewVars } from "./preview";

type Row = typeof messageTemplates.$inferSelect;

function kindParam(params: unknown): TemplateKind {
  const kind = String((params as { kind?: unknown }).kind ?? "");
  if (!isTemplateKind(kind)) throw notFound("There is no message template of that kind.");
  return kind;
}

function entry(kind: TemplateKind, row: Row | undefined): MessageTemplateEntry {
  const definition = TEMPLATE_DEFINITIONS[kind];
  return {
    kind,
    label: definition.label,
    sent_when: definition.sentWhen,
    variables: definition.variables.map((name) => ({
      name,
      help: TEMPLATE_VARIABLE_HELP[name] ?? "",
      secret: (SECRET_VARIABLES as readonly string[]).includes(name),
    })),
    required: [...definition.required],
    subject: row?.subject ?? definition.subject,
    body: row?.body ?? definition.body,
    default_subject: definition.subject,
    default_body: definition.body,
    is_default: !row,
    updated_at: row ? row.updated_at.toISOString() : null,
    updated_by: row ? row.updated_by : null,
  };
}

const routes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(async (app) => {
    app.addHook("onRequest", requireAdmin);

    app.get("/admin/message-templates", async () => {
      const rows = await app.db.select().from(messageTemplates);
      const byKind = new Map(rows.map((r) => [r.kind, r]));
      return { data: TEMPLATE_KINDS.map((kind) => entry(kind, byKind.get(kind))) };
    });

    app.put("/admin/message-templates/:kind", async (request) => {
      const kind = kindParam(request.params);
      const input = parseBody(messageTemplateSchemaFor(kind), request.body);
      const updatedBy = request.admin?.email ?? "";
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(messageTemplates).where(eq(messageTemplates.kind, kind));
        const [after] = await tx
          .insert(messageTemplates)
          .values({ kind, ...input, updated_by: updatedBy })
          .onConflictDoUpdate({ target: messageTemplates.kind, set: { ...input, updated_by: updatedBy, updated_at: sql`now()` } })
          .returning();
        await audit(tx, request, {
          action: before ? "update" : "create",
          resource: "message_templates",
          resourceId: kind,
          before: before ?? null,
          after,
        });
        return after;
      });
      return { success: true, data: entry(kind, row) };
    });

    app.delete("/admin/message-templates/:kind", async (request) => {
      const kind = kindParam(request.params);
      await app.db.transaction(async (tx) => {
        const [before] = await tx.delete(messageTemplates).where(eq(messageTemplates.kind, kind)).returning();
        if (before) await audit(tx, request, { action: "delete", resource: "message_templates", resourceId: kind, before });
      });
      return { success: true, data: entry(kind, undefined) };
    });

    app.post("/admin/message-templates/:kind/preview", async (request): Promise<{ data: MessageTemplatePreview }> => {
      const kind = kindParam(request.params);
      const input = parseBody(messageTemplatePreviewSchema, request.body);
      // A draft is checked as a save would be, so the preview never shows what could not be saved.
      const draft =
        input.subject !== undefined || input.body !== undefined
          ? parseBody(messageTemplateSchemaFor(kind), { subject: input.subject ?? "", body: input.body ?? "" })
          : null;
      const [client] = await app.db.select().from(clients).where(eq(clients.id, input.client_id));
      if (!client) invalid({ client_id: "That client no longer exists: choose another" });
      const stored: OwnerTemplates = await loadTemplates(app.db);
      const text = draft ?? stored[kind] ?? TEMPLATE_DEFINITIONS[kind];
      const vars = await previewVars(app, await loadBusiness(app), kind, client);
      return {
        data: { subject: renderTemplate(text.subject, vars), body: renderTemplate(text.body, vars), client_name: client.full_name },
      };
    });
  });
};

export default routes;
