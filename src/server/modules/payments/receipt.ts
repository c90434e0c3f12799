// A payment's receipt, queued the same way wherever the payment settles (settle.ts) or is held for
// the owner (held.ts): once per payment, by e-mail with its tax invoice attached, else on WhatsApp.
import type { Db } from "@/server/db/client";
import type { RenderedMessage } from "@/server/lib/message-templates";
import { enqueue } from "@/server/lib/outbox";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface ReceiptTarget {
  channel: "email" | "whatsapp";
  recipient: string;
}

/** Queues the receipt to `target` (nothing when there is nobody to send it to). */
export async function queueReceipt(
  tx: Tx,
  target: ReceiptTarget | null,
  receipt: RenderedMessage,
  about: { paymentId: string; invoice: string; client_id?: string | null; lead_id: string | null },
): Promise<void> {
  if (!target) return;
  await enqueue(tx, {
    ...target,
    // the receipt's own subject on a WhatsApp row too: its e-mail copy and the owner's queue read it
    subject: receipt.subject,
    body: receipt.body,
    kind: "receipt",
    failure: receipt.error,
    client_id: about.client_id,
    lead_id: about.lead_id,
    dedupe_key: `receipt:${about.paymentId}`,
    attachment: target.channel === "email" ? `invoice:${about.invoice}` : null,
  });
}
