// Payer proof: the person a payment is for (lib/identity.ts says why it is never guessed), and
// the one-time code that proves a payer is the client their number or e-mail belongs to.
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { clients, leads } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import { loadBusiness } from "@/server/lib/business";
import { knownFields, storablePayload } from "@/server/lib/clean-input";
import { AppError, badRequest } from "@/server/lib/errors";
import { matchContact, storedNumber } from "@/server/lib/identity";
import {
  codeRefusal,
  codeRoute,
  consumeCode,
  consumeProvedReply,
  type Destination,
  issueCode,
  issueReplyCode,
  maskedDestination,
  replyWebhookReady,
} from "@/server/lib/verification";
import { SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { isValidEmail } from "@/shared/contact";
import {
  CODE_ROUTE_MESSAGES,
  type IdentifyResponse,
  identifyRequestSchema,
  PAYER_NAME_MESSAGE,
  PAYER_WHATSAPP_MESSAGE,
  paylinkRequestSchema,
} from "@/shared/schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { type Payer, type PayerSession, type PaymentsContext, validationError } from "./context";

export const NOT_YOUR_ACCOUNT = "That is not your account.";
export const NO_CODE_FOR_THIS_PAYER =
  "There is no code for this number or e-mail address. Continue as a new customer, or ask for a code again.";
/** The code of the payer's wa.me link, used before their WhatsApp message with it reached us. */
export const REPLY_NOT_RECEIVED =
  "We have not received your WhatsApp message with this code yet. Send it from your number, then try again.";
/** A payer's open lead from this long ago is reused instead of making another. */
const REUSE_LEAD_WITHIN_MS = 24 * 3_600_000;

/**
 * The person a payment is for. A signed-in client pays for themselves (a suspended one cannot:
 * 409). Anyone else gives a name and WhatsApp number and becomes a lead (their open lead of the
 * last day is reused). The money goes to the client their number or e-mail belongs to only with
 * the one-time code sent to that client (`verificationCode`, from POST /api/payments/identify);
 * without it the lead is only flagged `possible_duplicate_of` that client, and settling makes a
 * new client for the owner to merge or dismiss.
 */
export async function resolvePayer(
  ctx: PaymentsContext,
  input: { name?: string; whatsapp?: string; email?: string; clientId?: string; verificationCode?: string },
  session: PayerSession,
  pkgName: string,
  body: unknown,
): Promise<Payer> {
  const { db } = ctx;
  if (input.clientId && input.clientId !== session.clientId) throw badRequest(NOT_YOUR_ACCOUNT, { clientId: NOT_YOUR_ACCOUNT });
  if (session.clientId) {
    const [client] = await db.select().from(clients).where(eq(clients.id, session.clientId));
    if (!client) throw badRequest(NOT_YOUR_ACCOUNT, { clientId: NOT_YOUR_ACCOUNT });
    if (client.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
    return { client, leadId: null, email: input.email ?? client.email, name: client.full_name };
  }
  const fields: Record<string, string> = {};
  if (!input.name) fields.name = PAYER_NAME_MESSAGE;
  if (!input.whatsapp) fields.whatsapp = PAYER_WHATSAPP_MESSAGE;
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0], fields);
  const name = input.name as string;
  const whatsapp = storedNumber(input.whatsapp as string);
  const email = input.email ?? "";

  const match = await matchContact(db, { whatsapp, email });
  let proven: ClientRow | null = null;
  if (input.verificationCode) {
    if (!match) throw badRequest(NO_CODE_FOR_THIS_PAYER, { verificationCode: NO_CODE_FOR_THIS_PAYER });
    const ask = { purpose: "payment-identify" as const, clientId: match.client.id, code: input.verificationCode as string };
    // the code of their wa.me link once their message proved it, else the code sent to them
    const check = await db.transaction(async (tx) => (await consumeProvedReply(tx, ask)) ?? consumeCode(tx, ask));
    if (check === "waiting") throw badRequest(REPLY_NOT_RECEIVED, { verificationCode: REPLY_NOT_RECEIVED });
    if (!check.ok) throw codeRefusal(check, "verificationCode");
    proven = match.client;
    if (proven.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
    await session.onProven?.(proven.id);
  }
  // The number is one client's own: a suspended client does not start a second account with it.
  if (!proven && match?.by === "whatsapp" && match.client.status === "suspended") {
    throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
  }
  const suspect = proven ? null : (match?.client.id ?? null);
  const [open] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(
      and(
        eq(leads.whatsapp_digits, whatsapp),
        eq(leads.form_type, "order"),
        inArray(leads.status, ["new", "contacted"]),
        gte(leads.created_at, new Date(Date.now() - REUSE_LEAD_WITHIN_MS)),
      ),
    )
    .orderBy(sql`${leads.created_at} desc`)
    .limit(1);
  if (open) {
    await db
      .update(leads)
      .set({
        name,
        email: email || sql`${leads.email}`,
        package_name: pkgName,
        client_id: proven?.id ?? null,
        possible_duplicate_of: suspect,
        updated_at: new Date(),
      })
      .where(eq(leads.id, open.id));
    return { client: proven, leadId: open.id, email, name };
  }
  const [lead] = await db
    .insert(leads)
    .values({
      form_type: "order",
      name,
      email,
      whatsapp,
      whatsapp_digits: whatsapp,
      package_name: pkgName,
      duration: "",
      client_id: proven?.id ?? null,
      possible_duplicate_of: suspect,
      // the request's own fields only (an amount, or the code, is not kept)
      payload: knownFields(
        storablePayload(body),
        Object.keys(paylinkRequestSchema.shape).filter((key) => key !== "verificationCode"),
      ),
      ip: session.ip ?? "",
      notes: "From a payment started on the site.",
    })
    .returning({ id: leads.id });
  return { client: proven, leadId: lead.id, email, name };
}

/**
 * POST /api/payments/identify: whether the number (else the e-mail address) is a client's; if
 * so a one-time code goes to that client's recorded channels (never to what was typed), and
 * the review step asks for it. A person who cannot give it continues as a new customer.
 */
export async function identify(ctx: PaymentsContext, body: unknown, session: PayerSession = { clientId: null }): Promise<IdentifyResponse> {
  const { app, db } = ctx;
  const parsed = identifyRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  const match = await matchContact(db, parsed.data);
  if (!match) return { match: false, sentTo: [] };
  const client = match.client;
  const recorded: Destination[] = [];
  const number = toStoredWhatsApp(client.whatsapp);
  if (number) recorded.push({ channel: "whatsapp", recipient: number });
  if (client.email && isValidEmail(client.email)) recorded.push({ channel: "email", recipient: client.email.trim().toLowerCase() });
  // Only where a code arrives now (lib/verification.ts). None: they sign in, or go on as a new customer.
  const to = await codeRoute(db, recorded, app.outbox.codeTransports);
  const business = await loadBusiness(app);
  // Or they write a code to us from the client's recorded number (issue 41), when the webhook is set up.
  const waLink = number
    ? await issueReplyCode(db, business, replyWebhookReady(app.config), {
        purpose: "payment-identify",
        number,
        clientId: client.id,
        requester: `ip:${session.ip ?? "unknown"}`,
      })
    : null;
  const link = waLink ? { waLink } : {};
  if (!to.length) return { match: true, by: match.by, sentTo: [], message: CODE_ROUTE_MESSAGES.identify, ...link };
  await issueCode(db, business, {
    purpose: "payment-identify",
    to,
    clientId: client.id,
    requester: `ip:${session.ip ?? "unknown"}`,
    name: client.full_name,
  });
  app.outbox.nudge();
  return {
    match: true,
    by: match.by,
    sentTo: to.map(maskedDestination),
    ...link,
  };
}
