// WhatsApp Cloud API webhooks (docs/architecture.md, "Integrations"): what Meta tells us.
// Owns three facts: the last time each number wrote to us (whatsapp_windows: it opens that number's
// 24-hour window for free text), what it wrote (whatsapp_messages, the inbox: once per wamid,
// linked to the client or lead with that number; an unknown number becomes a lead), and the
// delivery status of each message we sent (on its outbox row or inbox reply, found by the wamid
// the send call answered). Statuses may arrive out of order or twice: a row only moves forward
// (sent → delivered → read); 'failed' is final and shows as a failure.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { clients, leads, outbox, whatsappMessages, whatsappWindows } from "@/server/db/schema";
import { loadAlertRoute, outboxFailedAlert, queueOwnerAlert } from "@/server/lib/owner-alerts";
import { WHATSAPP_WINDOW_HOURS } from "@/shared/messaging";
import { OWNER_ALERT_KIND } from "@/shared/owner-alerts";
import { storeInbound } from "./inbox";

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
            contacts: z
              .array(z.looseObject({ wa_id: z.string().max(40).optional(), profile: z.looseObject({ name: z.unknown() }).optional() }))
              .optional(),
          }),
        }),
      ),
    }),
  ),
});
export type WebhookBody = z.output<typeof webhookSchema>;
export type InboundMessage = z.output<typeof inboundSchema>;

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

export interface WebhookEffects extends WebhookResult {
  /** numbers whose 24-hour window an inbound message of this webhook opened (or renewed) */
  opened: string[];
}

/** The profile names the webhook gave, by number (contacts: [{wa_id, profile: {name}}]). */
function profileNames(contacts: { wa_id?: string; profile?: { name?: unknown } }[] | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const contact of contacts ?? []) {
    const name = typeof contact.profile?.name === "string" ? contact.profile.name.trim().slice(0, 120) : "";
    if (contact.wa_id && name) names.set(contact.wa_id.replace(/\D/g, ""), name);
  }
  return names;
}

/** What the owner's alert about an undeliverable message needs (lib/owner-alerts.ts); none without it. */
export interface WebhookAlerts {
  publicUrl: string;
  cloudApi: boolean;
}

export async function applyWebhook(db: Db, body: WebhookBody, now = new Date(), alerts?: WebhookAlerts): Promise<WebhookEffects> {
  let inbound = 0;
  let statuses = 0;
  const opened = new Set<string>();
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      const names = profileNames(change.value.contacts);
      for (const message of change.value.messages ?? []) {
        const number = message.from.replace(/\D/g, "");
        await db.transaction(async (tx) => {
          await storeInbound(tx, message, names.get(number) ?? "", now);
          await recordInbound(tx, message, now);
        });
        if (now.getTime() - Number(message.timestamp) * 1000 < WHATSAPP_WINDOW_HOURS * 3_600_000) opened.add(number);
        inbound++;
      }
      for (const status of change.value.statuses ?? []) {
        if (await applyStatus(db, status, alerts)) statuses++;
      }
    }
  }
  return { inbound, statuses, opened: [...opened] };
}

/** A message from a number opens (or renews) its window from the time Meta says it was sent, never later than now. */
async function recordInbound(db: Pick<Db, "insert">, message: InboundMessage, now: Date): Promise<void> {
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

async function applyStatus(db: Db, status: z.output<typeof statusSchema>, alerts?: WebhookAlerts): Promise<boolean> {
  if (status.status === "failed") return db.transaction((tx) => applyFailure(tx as unknown as Db, status, alerts));
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
  const replies = await db
    .update(whatsappMessages)
    .set({ delivery_status: status.status, delivery_updated_at: sql`now()`, updated_at: sql`now()` })
    .where(
      and(
        eq(whatsappMessages.wamid, status.id),
        eq(whatsappMessages.direction, "out"),
        sql`coalesce(${whatsappMessages.delivery_status}, '') <> 'failed'`,
        sql`(case ${whatsappMessages.delivery_status} when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 0 end) < ${rank}`,
      ),
    )
    .returning({ id: whatsappMessages.id });
  return updated.length + replies.length > 0;
}

/**
 * WhatsApp could not deliver a message: the row fails with Meta's reason, and the owner hears of
 * it once (the same alert, and key, as the outbox worker's give-up), in the same transaction.
 */
async function applyFailure(db: Db, status: z.output<typeof statusSchema>, alerts?: WebhookAlerts): Promise<boolean> {
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
    .returning({
      id: outbox.id,
      recipient: outbox.recipient,
      kind: outbox.kind,
      channel: outbox.channel,
      attempts: outbox.attempts,
      client_id: outbox.client_id,
      lead_id: outbox.lead_id,
    });
  if (alerts) {
    for (const row of updated) {
      if (row.kind === OWNER_ALERT_KIND) continue; // none about an alert itself
      const person = await personName(db, row);
      const alert = outboxFailedAlert(alerts.publicUrl, row, person, `WhatsApp could not deliver it: ${reason}`);
      await queueOwnerAlert(db, await loadAlertRoute(db, alerts.cloudApi), alert);
    }
  }
  const failed: { id: string; recipient: string }[] = updated.map((row) => ({ id: row.id, recipient: row.recipient }));
  const replies = await db
    .update(whatsappMessages)
    .set({
      status: "failed",
      delivery_status: "failed",
      delivery_updated_at: sql`now()`,
      error: `WhatsApp could not deliver it: ${reason}`.slice(0, 1000),
      updated_at: sql`now()`,
    })
    .where(and(eq(whatsappMessages.wamid, status.id), eq(whatsappMessages.direction, "out")))
    .returning({ id: whatsappMessages.id, number: whatsappMessages.number });
  if (replies[0]) failed.push({ id: replies[0].id, recipient: replies[0].number });
  // Meta saw the number's window closed: let a retry go as a template, not as free text again.
  if (error?.code === 131047 && failed[0]) {
    await db
      .update(whatsappWindows)
      .set({ last_inbound_at: new Date(0), updated_at: sql`now()` })
      .where(eq(whatsappWindows.number, failed[0].recipient.replace(/\D/g, "")));
  }
  return failed.length > 0;
}

/** The client's or lead's name an outbox row is for ("" when neither). */
async function personName(db: Db, row: { client_id: string | null; lead_id: string | null }): Promise<string> {
  if (row.client_id) {
    const [client] = await db.select({ name: clients.full_name }).from(clients).where(eq(clients.id, row.client_id));
    if (client) return client.name;
  }
  if (row.lead_id) {
    const [lead] = await db.select({ name: leads.name }).from(leads).where(eq(leads.id, row.lead_id));
    if (lead) return lead.name;
  }
  return "";
}
