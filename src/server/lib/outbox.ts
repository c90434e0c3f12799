// The outbox: every e-mail and server-side WhatsApp message is written here in the same
// transaction as the thing that caused it; the outbox worker sends it later. Nothing a
// customer typed is lost when a transport is down or not configured.
import type { Db } from "../db/client";
import { outbox } from "../db/schema";

export type Channel = "email" | "whatsapp";

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
}

/** Any drizzle handle: the database or a transaction. */
type Executor = Pick<Db, "insert">;

export async function enqueue(executor: Executor, message: OutboxMessage): Promise<void> {
  await executor
    .insert(outbox)
    .values({
      channel: message.channel,
      recipient: message.recipient,
      subject: message.subject ?? "",
      body: message.body,
      kind: message.kind,
      client_id: message.client_id ?? null,
      lead_id: message.lead_id ?? null,
      dedupe_key: message.dedupe_key ?? null,
    })
    .onConflictDoNothing({ target: outbox.dedupe_key });
}

export async function enqueueAll(executor: Executor, messages: OutboxMessage[]): Promise<void> {
  for (const message of messages) await enqueue(executor, message);
}
