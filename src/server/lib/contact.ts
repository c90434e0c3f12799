// How to reach a client: their usable e-mail address and WhatsApp number in the outbox's form,
// and the channel to use (their preferred one, else the other). Shared by the lifecycle, the
// jobs and the modules that message a client.
import type { clients } from "@/server/db/schema";
import { isValidEmail, isValidPhone } from "@/shared/contact";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";

type ClientRow = typeof clients.$inferSelect;

export interface Contact {
  channel: "whatsapp" | "email";
  /** in the outbox's form: WhatsApp numbers as 27…, e-mail lower-cased */
  recipient: string;
}

/** The client's e-mail address in the outbox's form, or null when there is no usable one. */
export function emailOf(row: Pick<ClientRow, "email">): string | null {
  const email = row.email.trim().toLowerCase();
  return email && isValidEmail(email) ? email : null;
}

/** The client's WhatsApp number as 27…, or null when there is no usable one. */
export function whatsappOf(row: Pick<ClientRow, "whatsapp">): string | null {
  return isValidPhone(row.whatsapp) ? normaliseWhatsAppNumber(row.whatsapp) : null;
}

/** Their preferred channel, or the other one when the preferred contact is missing; null when neither. */
export function preferredContact(row: Pick<ClientRow, "communication_method" | "email" | "whatsapp">): Contact | null {
  const email = emailOf(row);
  const whatsapp = whatsappOf(row);
  const byEmail = email ? ({ channel: "email", recipient: email } as const) : null;
  const byWhatsApp = whatsapp ? ({ channel: "whatsapp", recipient: whatsapp } as const) : null;
  return row.communication_method === "email" ? (byEmail ?? byWhatsApp) : (byWhatsApp ?? byEmail);
}
