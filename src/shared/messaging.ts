// Messaging's shared words: the kinds of message the outbox carries, what a WhatsApp template
// setting may hold (one schema for the dashboard's form and the admin route), and the outbox
// rows the dashboard reads. See docs/architecture.md, "Integrations".
import { z } from "zod";
import type { AdminOutboxMessage } from "./business-schemas";

/** The kinds of customer message, as the outbox names them, with the words the dashboard uses. */
export const MESSAGE_KINDS = {
  welcome: "Welcome and portal login",
  credentials: "Line login details",
  receipt: "Payment receipt",
  "reminder-7d": "Expiry reminder (7 days)",
  "reminder-3d": "Expiry reminder (3 days)",
  "reminder-1d": "Expiry reminder (1 day)",
  "reminder-expired": "Subscription ended",
  "password-reset": "Password reset link",
  "password-changed": "Password changed",
  "renewal-link": "How to renew",
  "eft-details": "EFT payment details",
  "order-confirmation": "Order confirmation",
  "interest-confirmation": "Enquiry confirmation",
  instructions: "App install guide",
  "content-request-reply": "Reply to a content request",
  "line-suspended": "Line suspended",
  "line-restored": "Line restored",
  "refund-issued": "Refund issued",
  "status-update": "Status update",
  "verification-code": "One-time code (authentication template)",
  "contact-changed": "Contact details changed",
  // to the business itself (lib/owner-alerts.ts): one template, {{body}}, serves every alert and the daily summary
  "owner-alert": "Your alerts and daily summary",
} as const satisfies Record<string, string>;

export const messageKindLabel = (kind: string): string =>
  (MESSAGE_KINDS as Record<string, string>)[kind] ?? kind.replace(/[-_]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());

/**
 * Variables every message offers a template, besides the ones its sender adds:
 * name (first name), business (company name), body (the whole message on one line), secret (its link, when it has one).
 */
export const TEMPLATE_BUILT_IN_VARIABLES = ["name", "business", "body", "secret"] as const;

/** Variables some kinds add for their templates (their senders pass them as `vars`). */
export const KIND_VARIABLES: Record<string, readonly string[]> = {
  "reminder-7d": ["end_date", "days", "package", "renew_link"],
  "reminder-3d": ["end_date", "days", "package", "renew_link"],
  "reminder-1d": ["end_date", "days", "package", "renew_link"],
  "reminder-expired": ["end_date", "days", "package", "renew_link"],
  "refund-issued": ["amount", "credit_note", "package"],
  // an authentication template takes the code as its one parameter ({{secret}}); its copy-code button gets it too
  "verification-code": ["code_minutes"],
};

/** Free text reaches a number only this long after it last wrote to us (Meta's customer-service window). */
export const WHATSAPP_WINDOW_HOURS = 24;

const TEMPLATE_NAME = /^[a-z0-9_]+$/;
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const VARIABLE = /^[a-z][a-z0-9_]*$/;

/** PUT /api/admin/whatsapp/templates/:kind — the approved template sent outside the window for that kind. */
export const whatsappTemplateInputSchema = z.object({
  template_name: z
    .string({ error: "Please enter the template's name" })
    .trim()
    .min(1, "Please enter the template's name")
    .max(512, "Template name must be 512 characters or fewer")
    .regex(TEMPLATE_NAME, "Template name is lower-case letters, digits and _ (as approved by Meta)"),
  language_code: z
    .string({ error: "Please enter the language code" })
    .trim()
    .min(1, "Please enter the language code")
    .regex(LANGUAGE_CODE, "Language code looks like en or en_US"),
  // A list, or (from the dashboard's form) the names separated by commas or spaces.
  params: z.preprocess(
    (v) => (typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : v),
    z
      .array(
        z
          .string({ error: "Each parameter is a variable name" })
          .trim()
          .regex(VARIABLE, "A parameter is a variable name: lower-case letters, digits and _"),
        { error: "Parameters must be a list of variable names" },
      )
      .max(20, "At most 20 parameters"),
  ),
  enabled: z.boolean({ error: "Enabled must be yes or no" }).default(true),
});
export type WhatsAppTemplateInput = z.output<typeof whatsappTemplateInputSchema>;

/** GET /api/admin/whatsapp/templates → {data, kinds, variables, cloud_api} */
export interface WhatsAppTemplateSetting extends WhatsAppTemplateInput {
  kind: string;
  updated_at: string;
}

export interface WhatsAppTemplatesResponse {
  data: WhatsAppTemplateSetting[];
  /** the message kinds a template may be set for, with their labels and the variables they add */
  kinds: { kind: string; label: string; variables: readonly string[] }[];
  variables: readonly string[];
  /** whether the Cloud API is configured (templates are only used then) */
  cloud_api: boolean;
}

/** GET /api/admin/outbox rows: the stored message with its secret masked. */
export interface AdminOutboxEntry extends AdminOutboxMessage {
  next_attempt_at: string;
  updated_at: string;
  client_id: string | null;
  lead_id: string | null;
  /** WhatsApp: the click-to-chat link; null when the body holds a secret (ask for it with chat-link) */
  wa_link: string | null;
  has_secret: boolean;
  sent_via: string;
  note: string;
  delivery_status: string | null;
  delivery_updated_at: string | null;
}
