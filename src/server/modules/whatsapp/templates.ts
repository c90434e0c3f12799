// The shop's WhatsApp templates at Meta (docs/architecture.md, "Integrations"): "Submit templates
// to Meta" creates every template the shop uses (shared/whatsapp-templates.ts) in the WhatsApp
// Business Account, and Meta's review state is read back on demand and daily
// (jobs/whatsapp-templates.ts). Owns the submitted columns of whatsapp_templates; the outbox
// worker sends a kind's template when its row is `enabled`, and here `enabled` is exactly "Meta
// says APPROVED": an approval is used at once, anything else (pending, rejected, paused, a state
// we do not know) is not. A template the owner set by hand (the older per-kind form) is left alone.
// Submitting twice creates nothing twice: a submitted row is skipped, and Meta's "already exists"
// for our name counts as submitted (its state is then read from Meta's list).
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  createTemplateManager,
  type MetaTemplateDraft,
  WhatsAppTemplateError,
  type WhatsAppTemplateManager,
} from "@/server/adapters/whatsapp";
import type { Db } from "@/server/db/client";
import { whatsappTemplates } from "@/server/db/schema";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { messageKindLabel } from "@/shared/messaging";
import {
  metaTemplateName,
  positional,
  SHOP_TEMPLATES,
  type ShopTemplate,
  type ShopTemplatesView,
  templateState,
  templateVariables,
  wordsProblem,
} from "@/shared/whatsapp-templates";

type Row = typeof whatsappTemplates.$inferSelect;

const LANGUAGE = "en";
/** minutes a one-time code works (lib/verification.ts CODE_MINUTES), shown in the authentication template's footer */
const CODE_EXPIRY_MINUTES = 10;

/** Sample values Meta's review reads for each variable. */
const EXAMPLES: Record<string, string> = {
  name: "Thandi",
  business: "StreamDesk",
  body: "Your payment of R150.00 for Month to Month is received. Your line runs to 31 January 2027.",
  secret: "123456",
  package: "Month to Month",
  end_date: "31 January 2027",
  days: "7",
  renew_link: "https://streamdesk.example/client",
  amount: "R150.00",
  credit_note: "CN-000001",
};

export function templateManager(app: FastifyInstance): WhatsAppTemplateManager {
  const config = app.config;
  const missing = missingSettings(app);
  if (missing.length) throw conflict(`Set ${missing.join(" and ")} first: submitting templates to Meta needs it.`);
  return createTemplateManager(config.WHATSAPP_API_URL, config.WHATSAPP_BUSINESS_ACCOUNT_ID as string, config.WHATSAPP_TOKEN as string);
}

export function missingSettings(app: FastifyInstance): string[] {
  return [
    app.config.WHATSAPP_BUSINESS_ACCOUNT_ID ? null : "WHATSAPP_BUSINESS_ACCOUNT_ID",
    app.config.WHATSAPP_TOKEN ? null : "WHATSAPP_TOKEN",
  ].filter((s): s is string => s !== null);
}

/**
 * A row set by hand (the older per-kind setting, which knows no category): the owner's own
 * template, whatever its name, with parameters we must not rewrite. Not ours to submit.
 */
const setByHand = (row: Row | undefined): boolean => Boolean(row && !row.category);

const wordsOf = (template: ShopTemplate, row: Row | undefined): string =>
  template.category === "AUTHENTICATION" ? "" : row?.body_text || template.words;

async function rowsByKind(db: Pick<Db, "select">): Promise<Map<string, Row>> {
  const rows = await db.select().from(whatsappTemplates);
  return new Map(rows.map((r) => [r.kind, r]));
}

export async function shopTemplates(app: FastifyInstance): Promise<ShopTemplatesView> {
  const rows = await rowsByKind(app.db);
  return {
    missing: missingSettings(app),
    templates: SHOP_TEMPLATES.map((template) => {
      const row = rows.get(template.kind);
      const hand = setByHand(row);
      const state = hand ? "not_submitted" : templateState(row?.meta_status ?? null, row?.meta_error ?? null);
      return {
        kind: template.kind,
        label: messageKindLabel(template.kind),
        category: template.category,
        name: hand && row ? row.template_name : metaTemplateName(template.kind),
        language: row?.language_code ?? LANGUAGE,
        words: wordsOf(template, row),
        variables: templateVariables(template.kind),
        state,
        meta_status: hand ? null : (row?.meta_status ?? null),
        rejected_reason: hand ? null : (row?.rejected_reason ?? null),
        error: hand ? null : (row?.meta_error ?? null),
        editable: template.category === "UTILITY" && !hand && (state === "not_submitted" || state === "refused"),
        set_by_hand: hand,
        checked_at: row?.checked_at?.toISOString() ?? null,
      };
    }),
  };
}

/** The owner's words for a kind, kept until submitted (a 400 naming what Meta would refuse; 409 once Meta has it). */
export async function saveWords(db: Db, kind: string, words: string): Promise<{ before: Row | null; after: Row }> {
  const template = SHOP_TEMPLATES.find((t) => t.kind === kind);
  if (!template) throw notFound("No template is submitted for that kind.");
  if (template.category !== "UTILITY") throw conflict("The one-time code's template has Meta's fixed words: there is nothing to edit.");
  const problem = wordsProblem(kind, words);
  if (problem) throw badRequest(problem, { words: problem });
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, kind)).for("update");
    if (before && setByHand(before)) throw conflict(`A template named ${before.template_name} is set by hand for this kind.`);
    if (before?.meta_status) throw conflict("Meta has this template already: its words can no longer change here.");
    const values = draftRow(template, words.trim());
    const [after] = await tx
      .insert(whatsappTemplates)
      .values({ kind, ...values, enabled: false })
      .onConflictDoUpdate({ target: whatsappTemplates.kind, set: { ...values, meta_error: null, updated_at: sql`now()` } })
      .returning();
    return { before: before ?? null, after };
  });
}

function draftRow(template: ShopTemplate, words: string) {
  const params = template.category === "AUTHENTICATION" ? ["secret"] : positional(words).params;
  return { template_name: metaTemplateName(template.kind), language_code: LANGUAGE, category: template.category, body_text: words, params };
}

/** What Meta is sent for a template. */
export function metaDraft(template: ShopTemplate, words: string): MetaTemplateDraft {
  const name = metaTemplateName(template.kind);
  if (template.category === "AUTHENTICATION") {
    return {
      name,
      language: LANGUAGE,
      category: "AUTHENTICATION",
      components: [
        { type: "BODY", add_security_recommendation: true },
        { type: "FOOTER", code_expiration_minutes: CODE_EXPIRY_MINUTES },
        { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE", text: "Copy code" }] },
      ],
    };
  }
  const { text, params } = positional(words);
  return {
    name,
    language: LANGUAGE,
    category: "UTILITY",
    components: [{ type: "BODY", text, ...(params.length ? { example: { body_text: [params.map((p) => EXAMPLES[p] ?? p)] } } : {}) }],
  };
}

export interface SubmitResult {
  created: string[];
  /** Meta had them already under our name */
  existing: string[];
  /** kind → Meta's own message */
  refused: Record<string, string>;
}

/** Creates at Meta every shop template not yet there, then reads every state back. */
export async function submitTemplates(app: FastifyInstance): Promise<SubmitResult> {
  const manager = templateManager(app);
  const rows = await rowsByKind(app.db);
  const result: SubmitResult = { created: [], existing: [], refused: {} };
  for (const template of SHOP_TEMPLATES) {
    const row = rows.get(template.kind);
    if (setByHand(row) || row?.meta_status || row?.meta_id) continue;
    const words = wordsOf(template, row);
    const values = draftRow(template, words);
    try {
      const created = await manager.create(metaDraft(template, words));
      await record(app.db, template.kind, {
        ...values,
        meta_id: created.id,
        meta_status: created.status || "PENDING",
        meta_error: null,
        enabled: created.status === "APPROVED",
        submitted_at: new Date(),
      });
      result.created.push(template.kind);
    } catch (error) {
      if (!(error instanceof WhatsAppTemplateError)) throw error;
      if (error.exists) {
        // Ours already (a submit that timed out, or two at once): its state comes from Meta's list below.
        await record(app.db, template.kind, { ...values, meta_error: null, submitted_at: new Date() });
        result.existing.push(template.kind);
      } else {
        await record(app.db, template.kind, { ...values, meta_error: error.message, enabled: false });
        result.refused[template.kind] = error.message;
      }
    }
  }
  await refreshTemplates(app, manager);
  return result;
}

async function record(db: Db, kind: string, values: Partial<typeof whatsappTemplates.$inferInsert> & { template_name: string }) {
  await db
    .insert(whatsappTemplates)
    .values({ kind, ...values })
    .onConflictDoUpdate({ target: whatsappTemplates.kind, set: { ...values, updated_at: sql`now()` } });
}

/** Meta's list, or a 502 carrying Meta's own words when it refuses to give it. */
async function listAtMeta(manager: WhatsAppTemplateManager) {
  try {
    return await manager.list();
  } catch (error) {
    if (error instanceof WhatsAppTemplateError)
      throw new AppError(502, "unavailable", `Meta did not give the templates' states: ${error.message}`);
    throw error;
  }
}

/**
 * Reads Meta's list and records each of our templates' state; `enabled` follows APPROVED.
 * Returns how many rows changed state.
 */
export async function refreshTemplates(app: FastifyInstance, manager = templateManager(app)): Promise<number> {
  const atMeta = await listAtMeta(manager);
  const rows = await rowsByKind(app.db);
  let changed = 0;
  for (const template of SHOP_TEMPLATES) {
    const row = rows.get(template.kind);
    if (!row || setByHand(row) || (!row.submitted_at && !row.meta_id)) continue;
    const found = atMeta.find((t) => t.name === row.template_name && t.language === row.language_code);
    if (!found) continue;
    const status = found.status.toUpperCase();
    const updated = await app.db
      .update(whatsappTemplates)
      .set({
        meta_id: found.id || row.meta_id,
        meta_status: status,
        rejected_reason: status === "REJECTED" ? (found.rejected_reason ?? "not given") : null,
        category: found.category || row.category,
        enabled: status === "APPROVED",
        checked_at: new Date(),
        updated_at: sql`now()`,
      })
      .where(eq(whatsappTemplates.kind, template.kind))
      .returning({ kind: whatsappTemplates.kind });
    if (updated.length && row.meta_status !== status) changed++;
  }
  return changed;
}
