// WhatsApp Cloud API webhooks (docs/architecture.md, "Integrations"): what Meta tells us.
// Owns two facts: the last time each number wrote to us (whatsapp_windows: it opens that number's
// 24-hour window for free text), and the delivery status of each message we sent (on its outbox
// row, found by the wamid the send call answered). Statuses may arrive out of order or twice:
// a row only moves forward (sent → delivered → read); 'failed' is final and shows as a failure.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { outbox, whatsappWindows } from "@/server/db/schema";

const inboundSchema = z.looseObject({
  from: z.string().regex(/^\+?\d{6,20}$/),
  id: z.string().min(1).max(200),
  timestamp: z.string().regex(/^\d{1,12}$/),
  type: z.string().max(40),
});

const statusSchema = z.looseObject({
  id: z.string().min(1).max(200),
  status: z.string().max(40),
  recipient_id: z.string().max(40).optional(),
  timestamp: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.looseObject({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

/** Meta's webhook body: {object: "whatsapp_business_account", entry: [{changes: [{field, value: {messages?, statuses?}}]}]} */
export const webhookSchema = z.looseObject({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.looseObject({
      changes: z.array(
        z.looseObject({
          field: z.string(),
          value: z.looseObject({
            messages: z.array(inboundSchema).optional(),
            statuses: z.array(statusSchema).optional(),
          }),
        }),
      ),
    }),
  ),
});
export type WebhookBody = z.output<typeof webhookSchema>;

/** X-Hub-Signature-256: "sha256=" + hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function signatureValid(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Constant-time string comparison for the verification token. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3 };

export interface WebhookResult {
  inbound: number;
  statuses: number;
}

export async function applyWebhook(db: Db, body: WebhookBody, now = new Date()): Promise<WebhookResult> {
  let inbound = 0;
  let statuses = 0;
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      for (const message of change.value.messages ?? []) {
        await recordInbound(db, message, now);
        inbound++;
      }
      for (const status of change.value.statuses ?? []) {
        if (await applyStatus(db, status)) statuses++;
      }
    }
  }
  return { inbound, statuses };
}

/** A message from a number opens (or renews) its window from the time Meta says it was sent, never later than now. */
async function recordInbound(db: Db, message: z.output<typeof inboundSchema>, now: Date): Promise<void> {
  const number = message.from.replace(/\D/g, "");
  const at = new Date(Math.min(Number(message.timestamp) * 1000, now.getTime()));
  await db
    .insert(whatsappWindows)
    .values({ number, last_inbound_at: at, last_message_id: message.id })
    .onConflictDoUpdate({
      target: whatsappWindows.number,
      set: {
        last_inbound_at: sql`greatest(${whatsappWindows.last_inbound_at}, excluded.last_inbound_at)`,
        last_message_id: sql`case when excluded.last_inbound_at >= ${whatsappWindows.last_inbound_at} then excluded.last_message_id else ${whatsappWindows.last_message_id} end`,
        updated_at: sql`now()`,
      },
    });
}

async function applyStatus(db: Db, status: z.output<typeof statusSchema>): Promise<boolean> {
  if (status.status === "failed") {
    const error = status.errors?.[0];
    const reason = error
      ? `${error.code ? `(#${error.code}) ` : ""}${error.title ?? error.message ?? "failed"}${error.error_data?.details ? `: ${error.error_data.details}` : ""}`
      : "no reason given";
    const updated = await db
      .update(outbox)
      .set({
        status: "failed",
        delivery_status: "failed",
        delivery_updated_at: sql`now()`,
        last_error: `WhatsApp could not deliver it: ${reason}`.slice(0, 1000),
        updated_at: sql`now()`,
      })
      .where(eq(outbox.wamid, status.id))
      .returning({ id: outbox.id, recipient: outbox.recipient });
    // Meta saw the number's window closed: let a retry go as a template, not as free text again.
    if (error?.code === 131047 && updated[0]) {
      await db
        .update(whatsappWindows)
        .set({ last_inbound_at: new Date(0), updated_at: sql`now()` })
        .where(eq(whatsappWindows.number, updated[0].recipient.replace(/\D/g, "")));
    }
    return updated.length > 0;
  }
  const rank = RANK[status.status];
  if (!rank) return false; // a status we do not track (Meta adds some): acknowledged, ignored
  const updated = await db
    .update(outbox)
    .set({ delivery_status: status.status, delivery_updated_at: sql`now()`, updated_at: sql`now()` })
    .where(
      and(
        eq(outbox.wamid, status.id),
        sql`coalesce(${outbox.delivery_status}, '') <> 'failed'`,
        sql`(case ${outbox.delivery_status} when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 0 end) < ${rank}`,
      ),
    )
    .returning({ id: outbox.id });
  return updated.length > 0;
}
