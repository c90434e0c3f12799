// The outbox: every e-mail and server-side WhatsApp message is written here in the same
// transaction as the thing that caused it; the outbox worker sends it later. Nothing a
// customer typed is lost when a transport is down or not configured.
//
// Secrets (a reset link, a set-password link, a password) never sit readable in a row: pass the
// secret as `secret` and write SECRET_PLACEHOLDER in the body where it belongs. The secret is
// stored encrypted (lib/secret-box.ts) and put into the text only as it is sent; every admin
// view shows the body with the placeholder masked.

import type { Db } from "@/server/db/client";
import { outbox } from "@/server/db/schema";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { seal } from "./secret-box";

export type Channel = "email" | "whatsapp";

/** Where a message's secret goes in its body, as many times as needed (a template's parameters name it `secret`). */
export const SECRET_PLACEHOLDER = "{{secret}}";
/** The same secret URL-encoded, for a link that carries it (an M3U playlist's password=…). */
export const SECRET_URL_PLACEHOLDER = "{{secret_url}}";
/** What admins see in its place. */
export const MASKED_SECRET = "••••••";

export interface OutboxMessage {
  channel: Channel;
  recipient: string;
  subject?: string;
  body: string;
  /** what caused it: 'order', 'order-confirmation', 'interest', 'receipt', 'instructions', ... */
  kind: string;
  client_id?: string | null;
  lead_id?: string | null;
  /** a message with a dedupe key is queued at most once */
  dedupe_key?: string | null;
  /** a link or password for the recipient's eyes only: stored encrypted, put in at SECRET_PLACEHOLDER when sent */
  secret?: string | null;
  /** named values a WhatsApp template's parameters may use ({days: '7', link: '…'}); see docs/architecture.md, "Integrations" */
  vars?: Record<string, string>;
  /** a document e-mailed with it, rendered when sent ('invoice:INV-000001'; see modules/billing) */
  attachment?: string | null;
  /** not sent before this moment (a broadcast spreads its messages out; default: at once) */
  notBefore?: Date;
  /** why it cannot go (the owner's template failed to render): stored as failed with this error, for the owner to see and retry */
  failure?: string | null;
}

/** Any drizzle handle: the database or a transaction. */
type Executor = Pick<Db, "insert" | "select">;

const ROWS_A_STATEMENT = 1000;

/** The outbox row for a message: its secret sealed, its WhatsApp link made. */
async function outboxRow(executor: Executor, message: OutboxMessage): Promise<typeof outbox.$inferInsert> {
  const secret = message.secret ? message.secret : null;
  if (secret && !message.body.includes(SECRET_PLACEHOLDER) && !message.body.includes(SECRET_URL_PLACEHOLDER)) {
    // A secret with nowhere to go would be lost silently: a programming error, refused loudly.
    throw new Error(`An outbox message with a secret needs ${SECRET_PLACEHOLDER} in its body (kind ${message.kind}).`);
  }
  const whatsapp = message.channel === "whatsapp";
  return {
    channel: message.channel,
    recipient: message.recipient,
    subject: message.subject ?? "",
    body: message.body,
    kind: message.kind,
    client_id: message.client_id ?? null,
    lead_id: message.lead_id ?? null,
    dedupe_key: message.dedupe_key ?? null,
    secret_enc: secret ? await seal(executor, secret) : null,
    // With a secret the link would carry it: the dashboard asks for it when the owner sends.
    wa_link: whatsapp && !secret ? buildWhatsAppLink(message.recipient, message.body) : null,
    template_vars: message.vars ?? {},
    attachment: message.attachment ?? null,
    ...(message.notBefore ? { next_attempt_at: message.notBefore } : {}),
    ...(message.failure ? { status: "failed", last_error: message.failure } : {}),
  };
}

export async function enqueue(executor: Executor, message: OutboxMessage): Promise<void> {
  await enqueueAll(executor, [message]);
}

/**
 * Queues messages in one statement (a thousand at a time): one round trip to the database
 * however many a cause has (an order queues two). A message whose dedupe_key is already queued,
 * or repeated in the list, is queued once.
 */
export async function enqueueAll(executor: Executor, messages: OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const rows: (typeof outbox.$inferInsert)[] = [];
  for (const message of messages) rows.push(await outboxRow(executor, message));
  // PostgreSQL takes at most 65,535 parameters a statement: 1,000 rows of 16 columns stay well under.
  for (let start = 0; start < rows.length; start += ROWS_A_STATEMENT) {
    await executor
      .insert(outbox)
      .values(rows.slice(start, start + ROWS_A_STATEMENT))
      .onConflictDoNothing({ target: outbox.dedupe_key });
  }
}

/** The body as admins see it: a row's secret masked. */
export function maskedBody(row: { body: string; secret_enc?: string | null }): string {
  return row.secret_enc
    ? row.body.replaceAll(SECRET_PLACEHOLDER, MASKED_SECRET).replaceAll(SECRET_URL_PLACEHOLDER, MASKED_SECRET)
    : row.body;
}

/** The body as the recipient gets it. */
export function withSecret(body: string, secret: string | null): string {
  return secret === null
    ? body
    : body.replaceAll(SECRET_PLACEHOLDER, secret).replaceAll(SECRET_URL_PLACEHOLDER, encodeURIComponent(secret));
}
