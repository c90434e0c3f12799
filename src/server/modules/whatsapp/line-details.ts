// The inbox's "Resend line details" (issue 26): the client's line login — server URL, username,
// password, the M3U and EPG links (absolute, the password sealed until the worker sends), their
// portal and the setup guide for their device — queued again through the outbox, the same message
// a new line sends (modules/panel/messages.ts), on their channel and by e-mail when they have an
// address. Once per click: the request's Idempotency-Key is in each row's dedupe key
// (`line-details:<client>:<key>:<channel>`), taken under an advisory lock so a retried or doubled
// request queues nothing more and answers the same rows. Audited. The answer is the truth at that
// moment: each row's outbox state (pending until the worker takes it; 'owner' when it waits for the
// owner to send it by hand), which the open thread then follows over the change feed.
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { clients, outbox, whatsappMessages } from "@/server/db/schema";
import { appForDevice, maskedHint } from "@/server/lib/accounts";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { conflict } from "@/server/lib/errors";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueueAll } from "@/server/lib/outbox";
import { credentialsMessages } from "@/server/modules/panel/messages";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import type { LineDetailsResent } from "@/shared/api";

type Client = typeof clients.$inferSelect;

const MAX_KEY_LENGTH = 200;

export const LINE_DETAILS_MESSAGES = {
  notClient: "This number is not a client's, so there are no line details to send. Convert the lead first.",
  noLine: "This client has no line yet, so there are no line details to send. The panel job makes it (see the IPTV panel page).",
  lineOff:
    "This client's line is switched off (their term ended or they are suspended), so the details would not work. Renew or reactivate them first.",
  noContact: "This client has no WhatsApp number or e-mail address to send the line details to. Add one first.",
} as const;

/** The client this conversation is with: the one with the number now, else the one its messages were last tied to. */
async function clientOfNumber(app: FastifyInstance, number: string): Promise<Client | null> {
  const [byNumber] = await app.db.select().from(clients).where(eq(clients.whatsapp, number)).orderBy(desc(clients.updated_at)).limit(1);
  if (byNumber) return byNumber;
  const [inbox] = await app.db
    .select({ id: whatsappMessages.client_id })
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.number, number), isNotNull(whatsappMessages.client_id)))
    .orderBy(desc(whatsappMessages.sent_at))
    .limit(1);
  const [sent] = inbox
    ? [inbox]
    : await app.db
        .select({ id: outbox.client_id })
        .from(outbox)
        .where(
          and(
            eq(outbox.channel, "whatsapp"),
            isNotNull(outbox.client_id),
            sql`regexp_replace(${outbox.recipient}, '\\D', '', 'g') = ${number}`,
          ),
        )
        .orderBy(desc(outbox.created_at))
        .limit(1);
  if (!sent?.id) return null;
  const [client] = await app.db.select().from(clients).where(eq(clients.id, sent.id));
  return client ?? null;
}

/** The Idempotency-Key of the click (a fresh one when the caller sent none: then each request is its own click). */
function clickKey(request: FastifyRequest): string {
  const header = request.headers["idempotency-key"];
  const key = typeof header === "string" ? header.trim() : "";
  return key ? key.slice(0, MAX_KEY_LENGTH) : randomUUID();
}

export async function resendLineDetails(app: FastifyInstance, request: FastifyRequest, number: string): Promise<LineDetailsResent> {
  const client = await clientOfNumber(app, number);
  if (!client) throw conflict(LINE_DETAILS_MESSAGES.notClient);
  // A line made by the panel, or one the owner entered by hand: what matters is a login to send.
  if (!client.line_username || !client.line_password) throw conflict(LINE_DETAILS_MESSAGES.noLine);
  if (!client.line_enabled || client.status === "suspended" || client.status === "expired") throw conflict(LINE_DETAILS_MESSAGES.lineOff);

  const key = clickKey(request);
  const [business, guide, streamUrl] = await Promise.all([loadBusiness(app), appForDevice(app.db, client.device), currentStreamUrl(app)]);
  const result = await app.db.transaction(async (tx) => {
    // One click at a time per key: a doubled request waits here, then finds the rows queued.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`line-details:${client.id}:${key}`}))`);
    const messages = credentialsMessages(
      business,
      {
        client,
        line: { username: client.line_username, password: client.line_password, expires_at: client.line_expires_at },
        streamUrl: client.line_portal_url || streamUrl,
        test: client.line_is_test,
        app: guide,
        jobId: "",
      },
      await loadTemplates(tx),
    ).map((m) => ({ ...m, dedupe_key: `line-details:${client.id}:${key}:${m.channel}` }));
    if (messages.length === 0) throw conflict(LINE_DETAILS_MESSAGES.noContact);
    const keys = messages.map((m) => m.dedupe_key);
    const before = await tx.select({ id: outbox.id }).from(outbox).where(inArray(outbox.dedupe_key, keys));
    const replayed = before.length > 0;
    if (!replayed) {
      await enqueueAll(tx, messages);
      await audit(tx, request, {
        action: "resend-line-details",
        resource: "clients",
        resourceId: client.id,
        after: { number, channels: messages.map((m) => m.channel), key },
      });
    }
    const rows = await tx.select().from(outbox).where(inArray(outbox.dedupe_key, keys)).orderBy(outbox.created_at, outbox.channel);
    return { rows, replayed };
  });
  if (!result.replayed) app.outbox.nudge();
  return {
    client_id: client.id,
    replayed: result.replayed,
    cloud_api: app.outbox.cloudApi,
    queued: result.rows.map((row) => ({
      id: row.id,
      channel: row.channel as "email" | "whatsapp",
      hint: maskedHint(row.channel as "email" | "whatsapp", row.recipient),
      status: row.status,
      delivery_status: row.delivery_status,
    })),
  };
}
