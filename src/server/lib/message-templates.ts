// The owner's message templates at send time: the stored overrides (table message_templates)
// over the defaults in shared/message-templates.ts, rendered with the sender's variables.
// A stored template that no longer renders (a variable this version does not know, a secret's
// variable missing) never stops its cause: the message is queued with the default text as
// `failed`, its error naming the template, so the owner sees it in the outbox and can retry.
import type { Db } from "@/server/db/client";
import { messageTemplates } from "@/server/db/schema";
import { isTemplateKind, renderTemplate, TEMPLATE_DEFINITIONS, type TemplateKind, templateFieldErrors } from "@/shared/message-templates";
import { type BusinessProfile, signOff } from "./business";

/** The owner's overrides by kind (kinds left at their default are absent). */
export type OwnerTemplates = Partial<Record<TemplateKind, { subject: string; body: string }>>;

export interface RenderedMessage {
  subject: string;
  body: string;
  /** set when the owner's template could not be used: subject and body are then the default's */
  error: string | null;
}

/** All overrides, read once (a job reads them once per run). */
export async function loadTemplates(executor: Pick<Db, "select">): Promise<OwnerTemplates> {
  const rows = await executor
    .select({ kind: messageTemplates.kind, subject: messageTemplates.subject, body: messageTemplates.body })
    .from(messageTemplates);
  const templates: OwnerTemplates = {};
  for (const row of rows) if (isTemplateKind(row.kind)) templates[row.kind] = { subject: row.subject, body: row.body };
  return templates;
}

/** The kind's text (the owner's, else the default) with the variables filled in. */
export function renderMessage(templates: OwnerTemplates, kind: TemplateKind, vars: Readonly<Record<string, string>>): RenderedMessage {
  const definition = TEMPLATE_DEFINITIONS[kind];
  const own = templates[kind];
  if (own) {
    const problems = templateFieldErrors(kind, own);
    const problem = problems.body ?? problems.subject;
    if (!problem) return { subject: renderTemplate(own.subject, vars), body: renderTemplate(own.body, vars), error: null };
    return {
      subject: renderTemplate(definition.subject, vars),
      body: renderTemplate(definition.body, vars),
      error: `Not sent: your "${definition.label}" template cannot be used (${problem}). Fix it in Message templates; a retry sends the default text shown here.`,
    };
  }
  return { subject: renderTemplate(definition.subject, vars), body: renderTemplate(definition.body, vars), error: null };
}

/** The variables every template offers: name (first name, else "there"), business, sign_off, portal_link. */
export function commonVars(business: BusinessProfile, fullName: string) {
  return {
    name: fullName.trim().split(/\s+/)[0] || "there",
    business: business.companyName,
    sign_off: signOff(business),
    portal_link: `${business.publicUrl}/client`,
  };
}
