// The WhatsApp templates the shop submits to Meta from the dashboard (modules/whatsapp/templates.ts):
// one per kind of message the outbox sends outside a number's 24-hour window. The owner's words
// name variables ({{name}}, {{business}}, {{body}}, ...: what the outbox worker fills in for the
// kind); they become Meta's positional {{1}}, {{2}} when submitted. The one-time code's template is
// an AUTHENTICATION one: Meta's fixed words and its copy-code button, not editable.
import { z } from "zod";
import { KIND_VARIABLES, TEMPLATE_BUILT_IN_VARIABLES, type WhatsAppTemplatesResponse } from "./messaging";

export type MetaCategory = "AUTHENTICATION" | "UTILITY";

export interface ShopTemplate {
  kind: string;
  category: MetaCategory;
  /** the owner's words by default ('' for authentication) */
  words: string;
}

const ENDING = "Reply to this message if you need us.";

/** Every template the shop uses, in the order the dashboard lists them. */
export const SHOP_TEMPLATES: readonly ShopTemplate[] = [
  { kind: "verification-code", category: "AUTHENTICATION", words: "" },
  { kind: "welcome", category: "UTILITY", words: `Hello {{name}}, welcome to {{business}}. {{body}} ${ENDING}` },
  { kind: "credentials", category: "UTILITY", words: `Hello {{name}}, your {{business}} line login details: {{body}} ${ENDING}` },
  { kind: "receipt", category: "UTILITY", words: `Hello {{name}}, thank you for your payment to {{business}}. {{body}} ${ENDING}` },
  ...(["7d", "3d", "1d"] as const).map((d) => ({
    kind: `reminder-${d}`,
    category: "UTILITY" as const,
    words: `Hello {{name}}, your {{business}} {{package}} subscription ends on {{end_date}}. Renew here: {{renew_link}} ${ENDING}`,
  })),
  { kind: "reminder-expired", category: "UTILITY", words: `Hello {{name}}, your {{business}} subscription has ended. {{body}} ${ENDING}` },
  { kind: "refund-issued", category: "UTILITY", words: `Hello {{name}}, {{business}} has issued you a refund. {{body}} ${ENDING}` },
  { kind: "line-suspended", category: "UTILITY", words: `Hello {{name}}, your {{business}} line is switched off. {{body}} ${ENDING}` },
  { kind: "line-restored", category: "UTILITY", words: `Hello {{name}}, your {{business}} line is back on. {{body}} ${ENDING}` },
  { kind: "owner-alert", category: "UTILITY", words: "An alert for {{business}}: {{body}} Open your dashboard for the details." },
];

/** Meta's name for a kind's template: lower-case letters, digits and _. */
export const metaTemplateName = (kind: string): string => kind.replace(/[^a-z0-9]+/g, "_");

/** The variables a kind's words may name. */
export const templateVariables = (kind: string): readonly string[] => [...TEMPLATE_BUILT_IN_VARIABLES, ...(KIND_VARIABLES[kind] ?? [])];

const VARIABLE = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

/** The words as Meta takes them: {{1}}, {{2}} in order, and the variable behind each. */
export function positional(words: string): { text: string; params: string[] } {
  const params: string[] = [];
  const text = words.replace(VARIABLE, (_m, name: string) => {
    params.push(name);
    return `{{${params.length}}}`;
  });
  return { text, params };
}

/** What is wrong with a kind's words, in the words Meta's review would use; null when fine. */
export function wordsProblem(kind: string, words: string): string | null {
  const text = words.trim();
  if (!text) return "Please enter the template's words";
  if (text.length > 1024) return "WhatsApp takes at most 1024 characters";
  const allowed = templateVariables(kind);
  const unknown = [...text.matchAll(VARIABLE)].map((m) => m[1]).filter((name) => !allowed.includes(name));
  if (unknown.length) return `{{${unknown[0]}}} is not a variable this message has (it has ${allowed.map((v) => `{{${v}}}`).join(", ")})`;
  if (/\{\{(?![a-z][a-z0-9_]*\s*\}\})/.test(text.replace(VARIABLE, ""))) return "A variable is written {{name}}";
  if (/^\{\{[^}]*\}\}/.test(text) || /\{\{[^}]*\}\}[\s.!?]*$/.test(text))
    return "WhatsApp refuses a variable at the very start or end: add words around it";
  return null;
}

/** PUT /api/admin/whatsapp/templates/:kind/words {words}: one schema for the dashboard's form and the route. */
export const templateWordsSchema = (kind: string) =>
  z.object({
    words: z
      .string({ error: "Please enter the template's words" })
      .trim()
      .superRefine((words, ctx) => {
        const problem = wordsProblem(kind, words);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
  });
export type TemplateWordsInput = z.output<ReturnType<typeof templateWordsSchema>>;

/** The review state as the dashboard shows it; anything Meta says that we do not know is 'unknown', never approved. */
export type TemplateState = "not_submitted" | "refused" | "pending" | "approved" | "rejected" | "paused" | "disabled" | "unknown";

export function templateState(metaStatus: string | null, metaError: string | null): TemplateState {
  if (!metaStatus) return metaError ? "refused" : "not_submitted";
  const known: Record<string, TemplateState> = {
    PENDING: "pending",
    APPROVED: "approved",
    REJECTED: "rejected",
    PAUSED: "paused",
    DISABLED: "disabled",
  };
  return known[metaStatus] ?? "unknown";
}

export interface ShopTemplateView {
  kind: string;
  label: string;
  category: MetaCategory;
  name: string;
  language: string;
  /** the owner's words ('' for authentication) */
  words: string;
  variables: readonly string[];
  state: TemplateState;
  /** Meta's status word as it answered it (shown beside 'unknown') */
  meta_status: string | null;
  rejected_reason: string | null;
  /** Meta's own message when it refused the create */
  error: string | null;
  /** the words can be changed: not yet accepted by Meta */
  editable: boolean;
  /** a template set by hand under another name: submitting leaves it alone */
  set_by_hand: boolean;
  checked_at: string | null;
}

/** GET /api/admin/whatsapp/templates → shop: what "Submit templates to Meta" covers */
export interface ShopTemplatesView {
  /** the settings submitting needs and lacks (WHATSAPP_BUSINESS_ACCOUNT_ID, WHATSAPP_TOKEN) */
  missing: string[];
  templates: ShopTemplateView[];
}

/** GET /api/admin/whatsapp/templates: the per-kind settings and, in `shop`, the templates at Meta */
export interface WhatsAppTemplatesWithShop extends WhatsAppTemplatesResponse {
  shop: ShopTemplatesView;
}

/** POST /api/admin/whatsapp/templates/submit → {data: {created, existing, refused}, shop} */
export interface SubmitTemplatesResult {
  created: string[];
  existing: string[];
  refused: Record<string, string>;
}
