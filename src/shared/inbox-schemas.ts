// The WhatsApp inbox (issue 26; docs/architecture.md, "Integrations"): the reply the dashboard
// posts, checked by the same schema in the browser form and on the server.
import { z } from "zod";

/** WhatsApp's limit for one text message. */
export const REPLY_MAX_CHARS = 4096;

export const inboxReplySchema = z.object({
  text: z
    .string({ error: "Type a reply" })
    .transform((value) => value.replace(/\r\n/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(1, "Type a reply")
        .max(REPLY_MAX_CHARS, `A WhatsApp message is at most ${REPLY_MAX_CHARS.toLocaleString("en-ZA")} characters`),
    ),
});
export type InboxReplyInput = z.input<typeof inboxReplySchema>;
export type InboxReply = z.output<typeof inboxReplySchema>;

/** A number as the inbox names it: international digits, no '+' (E.164 without the plus). */
export const INBOX_NUMBER = /^[1-9]\d{7,14}$/;

/** The whatsapp_retention_months setting: how long inbox messages are kept (POPIA); default 12. */
export const WHATSAPP_RETENTION_SETTING = "whatsapp_retention_months";
export const DEFAULT_WHATSAPP_RETENTION_MONTHS = 12;
export const WHATSAPP_RETENTION_RANGE = { min: 1, max: 120 } as const;
export const WHATSAPP_RETENTION_MESSAGE = `Keep WhatsApp messages for a whole number of months from ${WHATSAPP_RETENTION_RANGE.min} to ${WHATSAPP_RETENTION_RANGE.max}`;

function retentionMonthsOf(text: string): number | null {
  if (!/^\d{1,3}$/.test(text)) return null;
  const months = Number(text);
  return months >= WHATSAPP_RETENTION_RANGE.min && months <= WHATSAPP_RETENTION_RANGE.max ? months : null;
}

export function whatsappRetentionMonths(value: string | null | undefined): number {
  return retentionMonthsOf(String(value ?? "").trim()) ?? DEFAULT_WHATSAPP_RETENTION_MONTHS;
}

/** The 400 message for a whatsapp_retention_months value (checked where settings are saved), or null when fine or another key. */
export function whatsappRetentionProblem(key: string, value: string): string | null {
  if (key !== WHATSAPP_RETENTION_SETTING) return null;
  return retentionMonthsOf(value.trim()) === null ? WHATSAPP_RETENTION_MESSAGE : null;
}
