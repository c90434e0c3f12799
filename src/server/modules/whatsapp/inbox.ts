// The WhatsApp inbox (issue 26; docs/architecture.md, "Integrations"): what each number wrote to
// us and what we wrote back, tied to the client or lead with that number.
// - Inbound messages (webhook): stored once per wamid in whatsapp_messages; a number nobody has
//   becomes a lead ("WhatsApp enquiry"), one per number however often it writes or is replayed.
// - The thread of a number: its inbox rows plus the outbox's WhatsApp rows to it (with their
//   state and delivery status), and the customer's facts beside it. Opening it marks it read.
// - A reply: free text through the Cloud API inside the number's 24-hour window (409 outside:
//   only a template may go then); without the Cloud API, a wa.me link the owner taps. Audited.
// - An opened window flushes the owner's queue: that number's outbox rows waiting in 'owner'
//   or rerouted to e-mail go back to 'pending' (one conditional UPDATE, so two processes never
//   both take a row) and the worker sends them as free text; never a one-time code that expired.
// - Retention: whatsapp_retention_months (default 12, POPIA), purged by jobs/whatsapp-retention.ts.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { createCloudApiTransport, WhatsAppSendError, type WhatsAppTransport, WINDOW_CLOSED_CODES } from "@/server/adapters/whatsapp";
import type { Db } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
import { capturedPayments, clients, leads, outbox, whatsappMessages, whatsappWindows } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { AppError, conflict, notFound } from "@/server/lib/errors";
import { maskedBody } from "@/server/lib/outbox";
import { VERIFICATION_KIND } from "@/server/lib/verification";
import type { InboxConversation, InboxCustomer, InboxMessage, InboxReplyResult, InboxThread } from "@/shared/api";
import { INBOX_NUMBER } from "@/shared/inbox-schemas";
import { WHATSAPP_WINDOW_HOURS } from "@/shared/messaging";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;
type MessageRow = typeof whatsappMessages.$inferSelect;
type OutboxRow = typeof outbox.$inferSelect;

/** How many messages a thread shows (the newest). */
const THREAD_LIMIT = 300;
/** How many conversations the list shows (the newest). */
const LIST_LIMIT = 200;
/** Free text is refused this close to the window's end, so it never reaches Meta just too late. */
const WINDOW_MARGIN_MINUTES = 1;

/** The number from a path, or 404: anything but international digits names no conversation. */
export function inboxNumber(value: unknown): string {
  const number = String(value ?? "");
  if (!INBOX_NUMBER.test(number)) throw notFound("No WhatsApp conversation with that number.");
  return number;
}

// ---- inbound ---------------------------------------------------------------------------------

interface InboundLike {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  [key: string]: unknown;
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const obj = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const MEDIA_TYPES = new Set(["image", "video", "audio", "document", "sticker"]);

/** What a message of Meta's says, as the inbox keeps it: its type, its text (or caption, or button title) and any media id. */
export function inboundContent(message: InboundLike): { type: string; text: string; media_id: string | null; media_mime: string | null } {
  const type = message.type || "unknown";
  const part = obj(message[type]);
  let text = "";
  let media_id: string | null = null;
  let media_mime: string | null = null;
  if (type === "text") text = str(part.body);
  else if (type === "button") text = str(part.text) || str(part.payload);
  else if (type === "interactive") {
    const reply = obj(part.button_reply ?? part.list_reply ?? part.nfm_reply);
    text = str(reply.title) || str(reply.body) || str(reply.description);
  } else if (MEDIA_TYPES.has(type)) {
    text = str(part.caption) || str(part.filename);
    media_id = str(part.id) || null;
    media_mime = str(part.mime_type) || null;
  } else if (type === "location") {
    const place = [str(part.name), str(part.address)].filter(Boolean).join(", ");
    text = `${place ? `${place} ` : ""}(${Number(part.latitude)}, ${Number(part.longitude)})`;
  } else if (type === "reaction") text = str(part.emoji);
  else if (type === "contacts") {
    const first = obj(Array.isArray(message.contacts) ? message.contacts[0] : null);
    text = str(obj(first.name).formatted_name);
  }
  return {
    type: type.slice(0, 40),
    text: text.replaceAll("\u0000", "").slice(0, 8192),
    media_id: media_id?.slice(0, 200) ?? null,
    media_mime: media_mime?.slice(0, 100) ?? null,
  };
}

/** The client with this number, else its newest lead; null when nobody has it. */
async function findPerson(db: Executor, number: string): Promise<{ client_id: string | null; lead_id: string | null } | null> {
  const [client] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.whatsapp, number))
    .orderBy(desc(clients.updated_at))
    .limit(1);
  if (client) return { client_id: client.id, lead_id: null };
  const [lead] = await db
    .select({ id: leads.id, client_id: leads.client_id })
    .from(leads)
    .where(eq(leads.whatsapp_digits, number))
    .orderBy(desc(leads.created_at))
    .limit(1);
  if (lead) return { client_id: lead.client_id, lead_id: lead.id };
  return null;
}

/** The person a number belongs to; a number nobody has becomes a lead, one per number (its idempotency key). */
async function personFor(tx: Tx, number: string, profileName: string): Promise<{ client_id: string | null; lead_id: string | null }> {
  const known = await findPerson(tx, number);
  if (known) return known;
  const key = `whatsapp:${number}`;
  await tx
    .insert(leads)
    .values({
      form_type: "whatsapp",
      name: profileName || formatPhoneForDisplay(number),
      whatsapp: number,
      whatsapp_digits: number,
      communication_method: "whatsapp",
      notes: "WhatsApp enquiry",
      payload: { source: "whatsapp", profile_name: profileName },
      idempotency_key: key,
    })
    .onConflictDoNothing({ target: leads.idempotency_key });
  const [lead] = await tx.select({ id: leads.id, client_id: leads.client_id }).from(leads).where(eq(leads.idempotency_key, key));
  return { client_id: lead?.client_id ?? null, lead_id: lead?.id ?? null };
}

/** Keeps one inbound message (once per wamid: a replayed webhook stores nothing new). Answers whether it was new. */
export async function storeInbound(tx: Tx, message: InboundLike, profileName: string, now: Date): Promise<boolean> {
  const [seen] = await tx.select({ id: whatsappMessages.id }).from(whatsappMessages).where(eq(whatsappMessages.wamid, message.id));
  if (seen) return false;
  const number = message.from.replace(/\D/g, "");
  const person = await personFor(tx, number, profileName);
  const inserted = await tx
    .insert(whatsappMessages)
    .values({
      number,
      direction: "in",
      wamid: message.id,
      ...inboundContent(message),
      profile_name: profileName,
      ...person,
      sent_at: new Date(Math.min(Number(message.timestamp) * 1000, now.getTime())),
    })
    .onConflictDoNothing()
    .returning({ id: whatsappMessages.id });
  return inserted.length > 0;
}

/**
 * The number wrote to us, so its window is open: its messages waiting for the owner to send by
 * hand ('owner'), and those that went by e-mail only for want of a template ('rerouted'), go back
 * to the worker, which sends them as free text. A one-time code whose code has expired (or was
 * used) stays where it is: it could prove nothing now. The conditional UPDATE takes each row
 * once, however many processes (or replayed webhooks) flush at the same moment.
 */
export async function flushOwnerQueue(db: Executor, number: string): Promise<string[]> {
  const note = `${formatPhoneForDisplay(number)} wrote to us: sent through the WhatsApp Cloud API inside the ${WHATSAPP_WINDOW_HOURS}-hour window.`;
  const result = await db.execute(sql`
    UPDATE outbox o SET status = 'pending', next_attempt_at = now(), note = ${note}, updated_at = now()
    WHERE o.channel = 'whatsapp' AND o.status IN ('owner', 'rerouted') AND regexp_replace(o.recipient, '\\D', '', 'g') = ${number}
      AND (o.kind <> ${VERIFICATION_KIND} OR EXISTS (
        SELECT 1 FROM verification_codes v
        WHERE o.dedupe_key LIKE 'verification:%' AND v.id::text = split_part(o.dedupe_key, ':', 2)
          AND v.expires_at > now() AND v.used_at IS NULL))
    RETURNING o.id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

// ---- reading ---------------------------------------------------------------------------------

const iso = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

export async function unreadTotal(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.direction, "in"), isNull(whatsappMessages.read_at)));
  return Number(row?.n ?? 0);
}

/** The conversations, newest first: one per number that wrote to us (or that we answered from the inbox). */
export async function listConversations(db: Executor): Promise<InboxConversation[]> {
  const result = await db.execute(sql`
    WITH last AS (
      SELECT DISTINCT ON (number) number, sent_at, text, type, client_id, lead_id
      FROM whatsapp_messages
      ORDER BY number, sent_at DESC, created_at DESC
    ),
    unread AS (
      SELECT number, count(*)::int AS unread FROM whatsapp_messages
      WHERE direction = 'in' AND read_at IS NULL GROUP BY number
    ),
    profile AS (
      SELECT DISTINCT ON (number) number, profile_name FROM whatsapp_messages
      WHERE direction = 'in' AND profile_name <> '' ORDER BY number, sent_at DESC
    )
    SELECT l.number, l.sent_at, l.text, l.type, coalesce(u.unread, 0) AS unread,
           coalesce(c.id, l.client_id) AS client_id,
           CASE WHEN c.id IS NULL THEN coalesce(ld.id, l.lead_id) END AS lead_id,
           coalesce(c.full_name, ld.name, p.profile_name, '') AS name
    FROM last l
    LEFT JOIN unread u ON u.number = l.number
    LEFT JOIN profile p ON p.number = l.number
    LEFT JOIN LATERAL (SELECT id, full_name FROM clients WHERE whatsapp = l.number ORDER BY updated_at DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (SELECT id, name FROM leads WHERE whatsapp_digits = l.number ORDER BY created_at DESC LIMIT 1) ld ON true
    ORDER BY l.sent_at DESC, l.number
    LIMIT ${LIST_LIMIT}`);
  const rows = rowsOf<Record<string, unknown>>(result);
  return rows.map((r) => ({
    number: String(r.number),
    name: String(r.name ?? ""),
    client_id: (r.client_id as string | null) ?? null,
    lead_id: (r.lead_id as string | null) ?? null,
    last_message_at: iso(r.sent_at as string) ?? "",
    last_text: String(r.text ?? "") || `(${String(r.type)})`,
    unread: Number(r.unread ?? 0),
  }));
}

function fromInbox(row: MessageRow): InboxMessage {
  return {
    id: row.id,
    source: "inbox",
    direction: row.direction === "out" ? "out" : "in",
    type: row.type,
    text: row.text,
    media_id: row.media_id,
    media_mime: row.media_mime,
    at: row.sent_at.toISOString(),
    status: row.status,
    delivery_status: row.delivery_status,
    wamid: row.wamid,
    error: row.error,
    sent_via: row.direction === "out" ? (row.status === "owner" ? "wa.me" : "cloud-text") : null,
  };
}

function fromOutbox(row: OutboxRow): InboxMessage {
  return {
    id: row.id,
    source: "outbox",
    direction: "out",
    type: row.kind,
    text: maskedBody(row),
    media_id: null,
    media_mime: null,
    at: (row.sent_at ?? row.created_at).toISOString(),
    status: row.status,
    delivery_status: row.delivery_status,
    wamid: row.wamid,
    error: row.last_error,
    sent_via: row.sent_via || null,
  };
}

async function windowOpenUntil(db: Executor, number: string, now = new Date()): Promise<Date | null> {
  const [window] = await db.select().from(whatsappWindows).where(eq(whatsappWindows.number, number));
  if (!window) return null;
  const until = new Date(window.last_inbound_at.getTime() + WHATSAPP_WINDOW_HOURS * 3_600_000);
  return until.getTime() - WINDOW_MARGIN_MINUTES * 60_000 > now.getTime() ? until : null;
}

async function customerSummary(
  db: Executor,
  person: { client_id: string | null; lead_id: string | null } | null,
): Promise<InboxCustomer | null> {
  if (!person) return null;
  const payments = async (where: ReturnType<typeof eq>) =>
    (
      await db
        .select()
        .from(capturedPayments)
        .where(where)
        .orderBy(desc(sql`coalesce(${capturedPayments.paid_at}, ${capturedPayments.created_at})`))
        .limit(3)
    ).map((p) => ({
      id: p.id,
      amount: p.amount,
      status: p.status,
      package_name: p.package_name,
      provider: p.provider,
      at: (p.paid_at ?? p.created_at).toISOString(),
    }));
  if (person.client_id) {
    const [client] = await db.select().from(clients).where(eq(clients.id, person.client_id));
    if (client) {
      return {
        kind: "client",
        id: client.id,
        name: client.full_name,
        status: client.status,
        subscription_end: iso(client.subscription_end),
        package: client.package_name,
        panel_username: client.line_username,
        email: client.email,
        payments: await payments(eq(capturedPayments.client_id, client.id)),
      };
    }
  }
  if (person.lead_id) {
    const [lead] = await db.select().from(leads).where(eq(leads.id, person.lead_id));
    if (lead) {
      return {
        kind: "lead",
        id: lead.id,
        name: lead.name,
        status: lead.status,
        subscription_end: null,
        package: lead.package_name,
        panel_username: "",
        email: lead.email,
        payments: await payments(eq(capturedPayments.lead_id, lead.id)),
      };
    }
  }
  return null;
}

/** A number's thread, oldest first, with the customer's facts; its inbound messages are marked read. */
export async function readThread(db: Db, number: string, cloudApi: boolean): Promise<InboxThread> {
  const [inbox, sent] = await Promise.all([
    db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.number, number))
      .orderBy(desc(whatsappMessages.sent_at), desc(whatsappMessages.created_at))
      .limit(THREAD_LIMIT),
    db
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, "whatsapp"), sql`regexp_replace(${outbox.recipient}, '\\D', '', 'g') = ${number}`))
      .orderBy(desc(outbox.created_at))
      .limit(THREAD_LIMIT),
  ]);
  const messages = [...inbox.map(fromInbox), ...sent.map(fromOutbox)]
    .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
    .slice(-THREAD_LIMIT);
  await db
    .update(whatsappMessages)
    .set({ read_at: sql`now()`, updated_at: sql`now()` })
    .where(and(eq(whatsappMessages.number, number), eq(whatsappMessages.direction, "in"), isNull(whatsappMessages.read_at)));
  const stored = inbox.find((m) => m.client_id || m.lead_id);
  const person =
    (await findPerson(db, number)) ??
    (stored ? { client_id: stored.client_id, lead_id: stored.lead_id } : null) ??
    sent.find((m) => m.client_id || m.lead_id) ??
    null;
  const customer = await customerSummary(db, person ? { client_id: person.client_id, lead_id: person.lead_id } : null);
  const profile = inbox.find((m) => m.profile_name)?.profile_name ?? "";
  return {
    number,
    name: customer?.name || profile,
    client_id: customer?.kind === "client" ? customer.id : null,
    lead_id: customer?.kind === "lead" ? customer.id : null,
    window_open_until: iso(await windowOpenUntil(db, number)),
    cloud_api: cloudApi,
    messages,
    customer,
  };
}

// ---- replying --------------------------------------------------------------------------------

const transports = new WeakMap<FastifyInstance, WhatsAppTransport | null>();

/** The Cloud API adapter, when it is configured (the same settings the outbox worker sends with). */
export function cloudTransport(app: FastifyInstance): WhatsAppTransport | null {
  if (!transports.has(app)) {
    const { WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_API_URL } = app.config;
    transports.set(
      app,
      WHATSAPP_TOKEN && WHATSAPP_PHONE_NUMBER_ID
        ? createCloudApiTransport(WHATSAPP_API_URL, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TOKEN)
        : null,
    );
  }
  return transports.get(app) ?? null;
}

const WINDOW_CLOSED_MESSAGE =
  `This number has not written to us in the last ${WHATSAPP_WINDOW_HOURS} hours, so WhatsApp allows no free text: ` +
  "a template message is needed (or wait until they write again).";

/**
 * Sends the owner's reply. Inside the window it goes through the Cloud API as free text and is
 * kept with its wamid (delivery statuses follow); outside it, 409. Without the Cloud API it is
 * kept as sent by the owner and answered with the wa.me link that sends it.
 */
export async function sendReply(app: FastifyInstance, request: FastifyRequest, number: string, text: string): Promise<InboxReplyResult> {
  const transport = cloudTransport(app);
  const person = (await findPerson(app.db, number)) ?? { client_id: null, lead_id: null };
  if (!transport) {
    const row = await app.db.transaction(async (tx) => {
      const [saved] = await tx
        .insert(whatsappMessages)
        .values({ number, direction: "out", type: "text", text, status: "owner", admin_id: request.admin?.id ?? null, ...person })
        .returning();
      await audit(tx, request, { action: "reply", resource: "whatsapp_messages", resourceId: saved.id, after: saved });
      return saved;
    });
    return { message: fromInbox(row), waLink: buildWhatsAppLink(number, text) };
  }
  if (!(await windowOpenUntil(app.db, number))) throw conflict(WINDOW_CLOSED_MESSAGE);

  // Kept (and audited) before it goes, so a send that succeeds is never lost; its wamid follows.
  const row = await app.db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(whatsappMessages)
      .values({ number, direction: "out", type: "text", text, status: "sending", admin_id: request.admin?.id ?? null, ...person })
      .returning();
    await audit(tx, request, { action: "reply", resource: "whatsapp_messages", resourceId: saved.id, after: saved });
    return saved;
  });
  try {
    const sent = await transport.send(number, text);
    const [done] = await app.db
      .update(whatsappMessages)
      .set({ status: "sent", wamid: sent.id, sent_at: sql`now()`, updated_at: sql`now()` })
      .where(eq(whatsappMessages.id, row.id))
      .returning();
    return { message: fromInbox(done), waLink: null };
  } catch (error) {
    const closed = error instanceof WhatsAppSendError && error.code !== null && WINDOW_CLOSED_CODES.has(error.code);
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    await app.db
      .update(whatsappMessages)
      .set({ status: "failed", error: closed ? WINDOW_CLOSED_MESSAGE : reason, updated_at: sql`now()` })
      .where(eq(whatsappMessages.id, row.id));
    if (closed) {
      // Meta's clock says the window is closed: believe it, as the outbox worker does.
      await app.db
        .update(whatsappWindows)
        .set({ last_inbound_at: new Date(0), updated_at: sql`now()` })
        .where(eq(whatsappWindows.number, number));
      throw conflict(WINDOW_CLOSED_MESSAGE);
    }
    request.log.warn({ status: error instanceof WhatsAppSendError ? error.status : null }, "WhatsApp reply refused");
    throw new AppError(502, "bad_gateway", `WhatsApp did not take the reply: ${reason}`);
  }
}

// ---- retention -------------------------------------------------------------------------------

/** Deletes inbox messages older than `months` (in batches, so a first purge never holds a long lock). Answers how many went. */
export async function purgeOldMessages(db: Executor, months: number, batch = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      DELETE FROM whatsapp_messages WHERE id IN (
        SELECT id FROM whatsapp_messages
        WHERE sent_at < now() - make_interval(months => ${months})
        LIMIT ${batch}
      )
      RETURNING id`);
    const n = rowsOf(result).length;
    total += n;
    if (n < batch) return total;
  }
}
