// Message templates the owner can edit (dashboard › Message templates): per kind, the default
// subject and body (today's words, so nothing changes until the owner edits one), the variables
// it may use, and the one renderer every sender uses. Only the owner's overrides are stored
// (table message_templates); the defaults live here.
//
// A variable is written {{name}}. Where a sender's text depended on the case (a trial or a paid
// term, a test line, a grace period), the changing part is one variable ({{period}},
// {{next_step}}, ...), so the defaults stay word for word what the code wrote before.
// Rendering: each variable is replaced once (a value is never read as a template), a line whose
// variables all came out empty is left out, trailing spaces go and blank lines do not pile up.
// Secrets (a password, a set-password or reset link) are never values here: their variables
// render the outbox's sealed-secret placeholder, filled in only as the message is sent.
import { z } from "zod";
import { RESET_TOKEN_TTL_MINUTES } from "./client-schemas";

export const TEMPLATE_KINDS = [
  "welcome",
  "credentials",
  "receipt",
  "reminder-7d",
  "reminder-3d",
  "reminder-1d",
  "reminder-expired",
  "trial-ending",
  "trial-ended",
  "password-reset",
  "line-suspended",
  "line-restored",
  "refund-issued",
] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const isTemplateKind = (kind: string): kind is TemplateKind => (TEMPLATE_KINDS as readonly string[]).includes(kind);

/** What each variable holds, as the editor explains it. */
export const TEMPLATE_VARIABLE_HELP: Record<string, string> = {
  name: "the client's first name (or “there”)",
  business: "your business name",
  sign_off: "your sign-off: the business name and how to reach a person",
  portal_link: "the client portal's address",
  login_link: "the client portal's sign-in page",
  username: "the client's portal username",
  package: "the package name (or “subscription”)",
  end_date: "the day the term ends, e.g. 22 Nov 2026",
  end_time: "the day and time the term ends, e.g. 22 Nov 2026, 14:00",
  days: "days left, e.g. 7",
  when: "when the trial ends, e.g. “22 Nov 2026 (in 3 days)”",
  ends: "“soon” on the last day, else “on 22 Nov 2026”",
  pay_ways: "every way to pay that is on, e.g. “by card, PayFast or EFT” (EFT only once real bank details are set)",
  renew_link: "the link to pay: the one-tap pay link for their package (no sign-in), else the portal's renew step",
  pay_step: "“tap to pay for your 3 Months: <link>”, or “sign in to your client portal to pay for …: <link>” when there is no one-tap link",
  grace_until: "the day and time the service stops after a paid term ends (empty without grace)",
  what_next: "the renewal lines: keeping the service on during the grace days, or switching it back on",
  period: "the trial's end, the paid term's end, or that it starts once paid",
  password_step: "the link to choose a password (put in at send time, never stored readable)",
  install: "the app for their device: download link and install steps",
  line_note: "“Here is how to sign in…”, or the warning that it is a test line",
  server_url: "the player's server URL",
  line_username: "the line's username",
  password: "the line's password (put in at send time, never stored readable)",
  m3u_link: "the M3U playlist link (carries the password, put in at send time)",
  epg_link: "the TV guide (EPG) link (carries the password, put in at send time)",
  setup_guide: "the setup steps for their device's app (empty when there is no app)",
  reference: "the payment reference",
  amount: "the amount paid, e.g. R1,450",
  paid_at: "when it was paid, e.g. 22 Nov 2026, 14:00",
  next_step: "what happens next (depends on a new account, a suspension, a running term, and whether the line is being made)",
  hold_note:
    "what the hold does: “your line is switched off for now and your client portal is paused”, or only the portal when they have no line yet",
  reset_link: "the reset link (put in at send time, never stored readable)",
  restored_note:
    "where the client now stands: active until the term's end, a trial's end, the grace period's last day, or renew first when it has ended",
  credit_note: "the credit note's number, e.g. CN-000001",
  invoice: "the invoice's number, e.g. INV-000001 (in a refund: the invoice the refund stands against)",
  refund_how:
    "how the money goes back: to the card (5 to 10 working days), by PayFast to the card or account paid with, by Ozow to the bank account paid from, or paid back directly",
  reason: "the reason you gave for the refund",
  line_after:
    "what happens to the line after the refund, as it now stands: still on until its end, the shorter end, or switched off until they renew",
  credit_note_where: "where the credit note is: attached (by e-mail), or in the client portal's payment history (on WhatsApp)",
};

/** Variables whose value is (or carries) a secret: body only, and never shown in a preview. */
export const SECRET_VARIABLES = ["password_step", "password", "m3u_link", "epg_link", "reset_link"] as const;

/** What a preview shows for a secret variable. */
export const SECRET_PREVIEW = "[link sent at send time]";
export const SECRET_PASSWORD_PREVIEW = "[password sent at send time]";

const COMMON = ["name", "business", "sign_off", "portal_link"] as const;
const REMINDER = [...COMMON, "package", "end_date", "end_time", "days", "renew_link", "pay_step"] as const;

export interface TemplateDefinition {
  label: string;
  /** when it is sent, in a few words */
  sentWhen: string;
  variables: readonly string[];
  /** variables the body must keep: the secret has nowhere else to go */
  required: readonly string[];
  subject: string;
  body: string;
}

const lines = (...parts: string[]) => parts.join("\n");

/** The 7- and 3-day reminders say the same; only when they are sent differs. */
const DAYS_BEFORE_REMINDER = {
  variables: REMINDER,
  required: [],
  subject: "{{business}}: your subscription ends on {{end_date}}",
  body: lines(
    "Hi {{name}},",
    "",
    "Your {{package}} with {{business}} ends on {{end_date}} (in {{days}} days).",
    "Renew before then to keep watching without a break: {{renew_link}}",
    "Your new term starts when the current one ends, so you don't lose any days.",
    "",
    "{{sign_off}}",
  ),
} satisfies Omit<TemplateDefinition, "label" | "sentWhen">;

export const TEMPLATE_DEFINITIONS: Record<TemplateKind, TemplateDefinition> = {
  welcome: {
    label: "Welcome and portal login",
    sentWhen: "when a client account is made (by you, a converted lead or a first payment)",
    variables: [...COMMON, "login_link", "username", "package", "end_date", "period", "password_step", "install"],
    required: ["password_step"],
    subject: "Welcome to {{business}}: your client portal",
    body: lines(
      "Hi {{name}},",
      "",
      "Welcome to {{business}}! Your account is ready. {{period}}",
      "",
      "Client portal: {{login_link}}",
      "Username: {{username}}",
      "{{password_step}}",
      "",
      "{{install}}",
      "",
      "What happens next: install the app, then sign in with the line details we send you (they're in your client portal too). Stuck? Message us and we'll help you finish.",
      "",
      "{{sign_off}}",
    ),
  },
  credentials: {
    label: "Line login details",
    sentWhen: "the moment the client's line is made on the panel",
    variables: [
      ...COMMON,
      "username",
      "line_note",
      "server_url",
      "line_username",
      "password",
      "end_date",
      "m3u_link",
      "epg_link",
      "setup_guide",
    ],
    required: ["password"],
    subject: "{{business}}: your line is ready",
    body: lines(
      "Hi {{name}},",
      "",
      "Your {{business}} line is ready. {{line_note}}",
      "",
      "Server URL: {{server_url}}",
      "Username: {{line_username}}",
      "Password: {{password}}",
      "Active until: {{end_date}}",
      "",
      "M3U playlist (for apps that ask for a link): {{m3u_link}}",
      "TV guide (EPG): {{epg_link}}",
      "",
      "{{setup_guide}}",
      "",
      "These details are also in your client portal (username {{username}}), with a QR code for TV apps: {{portal_link}}",
      "",
      "{{sign_off}}",
    ),
  },
  receipt: {
    label: "Payment receipt",
    sentWhen: "when a payment is confirmed",
    variables: [...COMMON, "reference", "invoice", "package", "amount", "paid_at", "end_date", "next_step"],
    required: [],
    subject: "{{business}}: payment received for {{package}}",
    body: lines(
      "Hi {{name}},",
      "",
      "Thank you for your payment to {{business}}. We've received {{amount}} for your {{package}} subscription.",
      "",
      "Reference: {{reference}}",
      "Invoice: {{invoice}}",
      "Package: {{package}}",
      "Amount paid: {{amount}}",
      "Paid on: {{paid_at}} (SAST)",
      "",
      "{{next_step}}",
      "",
      // One text for both channels: on WhatsApp there is no "e-mail" to keep.
      "Keep this message as your receipt. Quote the reference if you contact us about this payment.",
      "",
      "{{sign_off}}",
    ),
  },
  "reminder-7d": {
    label: "Expiry reminder (7 days)",
    sentWhen: "7 days before a paid term ends (and for reminder days above 3)",
    ...DAYS_BEFORE_REMINDER,
  },
  "reminder-3d": {
    label: "Expiry reminder (3 days)",
    sentWhen: "3 days before a paid term ends (and for reminder days 2 to 3)",
    ...DAYS_BEFORE_REMINDER,
    // Its own subject, so the owner (and the client's inbox) can tell it from the 7-day one.
    subject: "{{business}}: a few days left, your subscription ends on {{end_date}}",
  },
  "reminder-1d": {
    label: "Expiry reminder (1 day)",
    sentWhen: "the last day before a paid term ends",
    variables: REMINDER,
    required: [],
    subject: "{{business}}: your subscription ends soon",
    body: lines(
      "Hi {{name}},",
      "",
      "Your {{package}} with {{business}} ends on {{end_time}} (SAST).",
      "Renew before then to keep watching without a break: {{renew_link}}",
      "Your new term starts when the current one ends, so you don't lose any days.",
      "",
      "{{sign_off}}",
    ),
  },
  "reminder-expired": {
    label: "Subscription ended (0 days)",
    sentWhen: "the day a paid term ends",
    variables: [...REMINDER, "grace_until", "what_next"],
    required: [],
    subject: "{{business}}: your subscription ended on {{end_date}}",
    body: lines(
      "Hi {{name}},",
      "",
      "Your {{package}} with {{business}} ended on {{end_time}} (SAST).",
      "{{what_next}}",
      "",
      "{{sign_off}}",
    ),
  },
  "trial-ending": {
    label: "Trial ending",
    sentWhen: "once, a few hours before a free trial ends (a quarter of its length before, at most a day)",
    variables: [...REMINDER, "when", "ends", "pay_ways"],
    required: [],
    subject: "{{business}}: your free trial ends {{ends}}",
    body: lines(
      "Hi {{name}},",
      "",
      "Your free trial with {{business}} ends on {{when}}.",
      "To keep watching, {{pay_step}}",
      "You can pay {{pay_ways}}, and your login details stay the same.",
      "",
      "{{sign_off}}",
    ),
  },
  "trial-ended": {
    label: "Trial ended",
    sentWhen: "when a free trial has ended",
    variables: REMINDER,
    required: [],
    subject: "{{business}}: your free trial has ended",
    body: lines(
      "Hi {{name}},",
      "",
      "Your free trial with {{business}} ended on {{end_time}} (SAST).",
      "To start watching again, {{pay_step}}",
      "Your line switches back on as soon as your payment is confirmed, with the same login details.",
      "",
      "{{sign_off}}",
    ),
  },
  "password-reset": {
    label: "Password reset link",
    sentWhen: "when a client asks to reset their portal password",
    variables: [...COMMON, "username", "reset_link"],
    required: ["reset_link"],
    subject: "{{business}}: reset your client portal password",
    body: lines(
      "Hi {{name}},",
      "",
      "We got a request to reset the password of your {{business}} client portal account (username: {{username}}).",
      "",
      "Choose a new password here: {{reset_link}}",
      "",
      `The link works once and expires in ${RESET_TOKEN_TTL_MINUTES} minutes. If you didn't ask for this, ignore this message: your password stays as it is.`,
      "",
      "{{sign_off}}",
    ),
  },
  // Line suspended / restored (issue 13 item 3): sent when you suspend or reactivate a client.
  "line-suspended": {
    label: "Line suspended",
    sentWhen: "when you suspend a client",
    variables: [...COMMON, "package", "hold_note"],
    required: [],
    subject: "{{business}}: your service is on hold",
    body: lines(
      "Hi {{name}},",
      "",
      "We've put your {{business}} service ({{package}}) on hold, so {{hold_note}}.",
      "If you think this is a mistake, or to get it switched back on, message us and a person will help you.",
      "",
      "{{sign_off}}",
    ),
  },
  "line-restored": {
    label: "Line restored",
    sentWhen: "when you reactivate a suspended client",
    variables: [...COMMON, "package", "end_date", "renew_link", "restored_note"],
    required: [],
    // Lifting the hold is true whatever the term says; "active again" is not (grace, ended).
    subject: "{{business}}: we've lifted the hold on your account",
    body: lines(
      "Hi {{name}},",
      "",
      "Good news: we've lifted the hold on your {{business}} account ({{package}}).",
      "{{restored_note}}",
      "",
      "Your client portal is open again: {{portal_link}}",
      "",
      "{{sign_off}}",
    ),
  },
  // Refund issued (issue 25 item 4): queued with the credit note, in the refund's transaction.
  // One text for both channels: {{credit_note_where}} says "attached" by e-mail and points to the
  // portal on WhatsApp, so the default never says e-mail on WhatsApp.
  "refund-issued": {
    label: "Refund issued",
    sentWhen: "when you refund a payment (with its credit note)",
    variables: [
      ...COMMON,
      "package",
      "amount",
      "reference",
      "invoice",
      "credit_note",
      "credit_note_where",
      "refund_how",
      "reason",
      "end_date",
      "line_after",
    ],
    required: [],
    subject: "{{business}}: refund of {{amount}} (credit note {{credit_note}})",
    body: lines(
      "Hi {{name}},",
      "",
      "We've refunded {{amount}} of your payment {{reference}} to {{business}} (invoice {{invoice}}).",
      "{{refund_how}}",
      "Reason: {{reason}}",
      "",
      "Your line: {{line_after}}",
      "",
      "Credit note {{credit_note}}: {{credit_note_where}}",
      "",
      "{{sign_off}}",
    ),
  },
};

/** The variables a subject may use: the body's, less the secret ones (a subject is never sealed). */
export function subjectVariables(kind: TemplateKind): string[] {
  return TEMPLATE_DEFINITIONS[kind].variables.filter((v) => !(SECRET_VARIABLES as readonly string[]).includes(v));
}

const VARIABLE_PATTERN = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The variables a text uses, each once, in order. */
export function templateVariables(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE_PATTERN)].map((m) => m[1] as string))];
}

/** The {{variables}} in `text` that are not allowed, each once. */
export function templateProblems(text: string, allowed: readonly string[]): string[] {
  return templateVariables(text).filter((v) => !allowed.includes(v));
}

const braced = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(", ");

/** Per field, what is wrong with a template for this kind (unknown variables, a secret variable missing); {} when fine. */
export function templateFieldErrors(
  kind: TemplateKind,
  input: { subject: string; body: string },
): Partial<Record<"subject" | "body", string>> {
  const definition = TEMPLATE_DEFINITIONS[kind];
  const errors: Partial<Record<"subject" | "body", string>> = {};
  const subjectUnknown = templateProblems(input.subject, subjectVariables(kind));
  if (subjectUnknown.length) {
    const secret = subjectUnknown.filter((v) => (SECRET_VARIABLES as readonly string[]).includes(v));
    errors.subject = secret.length
      ? `The subject cannot hold ${braced(secret)}: it is sent in the message only`
      : `Unknown variable ${braced(subjectUnknown)} in the subject: use ${braced(subjectVariables(kind))}`;
  }
  const bodyUnknown = templateProblems(input.body, definition.variables);
  const missing = definition.required.filter((v) => !templateVariables(input.body).includes(v));
  if (bodyUnknown.length) errors.body = `Unknown variable ${braced(bodyUnknown)} in the message: use ${braced(definition.variables)}`;
  else if (missing.length) errors.body = `The message must include ${braced(missing)}: it is how the client gets it`;
  return errors;
}

/**
 * The text with each {{variable}} replaced by its value. Unknown variables are left as written
 * (check templateProblems first). A line whose variables all rendered empty is dropped; trailing
 * spaces are trimmed, blank lines never repeat, and the text neither starts nor ends blank.
 */
export function renderTemplate(text: string, vars: Readonly<Record<string, string>>): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    let used = 0;
    let filled = 0;
    const rendered = line.replace(VARIABLE_PATTERN, (whole, name: string) => {
      const value = vars[name];
      if (value === undefined) return whole;
      used++;
      if (value.trim() !== "") filled++;
      return value;
    });
    if (used > 0 && filled === 0) continue;
    for (const part of rendered.split("\n")) {
      const trimmed = part.replace(/\s+$/, "");
      if (trimmed === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
      out.push(trimmed);
    }
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

const subjectField = z
  .string({ error: "Please enter a subject" })
  .trim()
  .min(1, "Please enter a subject")
  .max(200, "The subject must be 200 characters or fewer");
const bodyField = z
  .string({ error: "Please enter the message" })
  .trim()
  .min(1, "Please enter the message")
  .max(5000, "The message must be 5000 characters or fewer");

/** PUT /api/admin/message-templates/:kind — and the dashboard's editor: the shape; see messageTemplateSchemaFor for the kind's variables. */
export const messageTemplateInputSchema = z.object({ subject: subjectField, body: bodyField });
export type MessageTemplateInput = z.output<typeof messageTemplateInputSchema>;

/**
 * Every kind goes on the client's own channel, so each template's one message text is read on
 * WhatsApp too (the e-mail and the WhatsApp text are the same words; only a variable such as
 * {{credit_note_where}} differs by channel). The subject is not: WhatsApp sends the text alone.
 */
const WHATSAPP_TEMPLATE_KINDS: readonly TemplateKind[] = TEMPLATE_KINDS;

/** "e-mail", "email", "E-mails", "e mail" as a word; an e-mail address or a link that holds the letters is not one. */
const EMAIL_WORD = /\be[\s-]?mail(?:s|ed|ing)?\b/i;
const ADDRESS_OR_LINK = /\S+@\S+|\b(?:https?:\/\/|www\.)\S+/gi;

/** Whether a text says "e-mail" to its reader (addresses and links left aside). */
export function saysEmail(text: string): boolean {
  return EMAIL_WORD.test(text.replace(ADDRESS_OR_LINK, " "));
}

export const WHATSAPP_EMAIL_WORD_MESSAGE =
  "This message is also sent on WhatsApp, where it must not say “e-mail”: write “message” instead (an e-mail address to contact you is fine)";

/**
 * The input schema with this kind's rules, named by field: unknown variables, a missing secret
 * variable, and (for a kind sent on WhatsApp) a message that says "e-mail". The last is checked
 * when the owner saves or previews a draft only, not at send time: a template stored before the
 * rule still sends (lib/message-templates.ts renders with templateFieldErrors).
 */
export function messageTemplateSchemaFor(kind: TemplateKind) {
  return messageTemplateInputSchema.superRefine((value, ctx) => {
    const errors = templateFieldErrors(kind, value);
    if (!errors.body && WHATSAPP_TEMPLATE_KINDS.includes(kind) && saysEmail(value.body)) errors.body = WHATSAPP_EMAIL_WORD_MESSAGE;
    for (const [field, message] of Object.entries(errors)) ctx.addIssue({ code: "custom", path: [field], message });
  });
}

/** POST /api/admin/message-templates/:kind/preview — a real client's data in the stored template, or in the draft given. */
export const messageTemplatePreviewSchema = z.object({
  client_id: z.uuid({ error: "Choose a client for the preview" }),
  subject: z.string().max(200).optional(),
  body: z.string().max(5000).optional(),
});

/** GET /api/admin/message-templates → {data} */
export interface MessageTemplateEntry {
  kind: TemplateKind;
  label: string;
  sent_when: string;
  variables: { name: string; help: string; secret: boolean }[];
  required: string[];
  subject: string;
  body: string;
  default_subject: string;
  default_body: string;
  is_default: boolean;
  updated_at: string | null;
  updated_by: string | null;
}

/** POST …/preview → {data} */
export interface MessageTemplatePreview {
  subject: string;
  body: string;
  client_name: string;
}
