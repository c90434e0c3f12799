// Payer proof: the person a payment is for (lib/identity.ts says why it is never guessed), and
// the one-time code that proves a payer is the client their number or e-mail belongs to.
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { clients, leads } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import { loadBusiness } from "@/server/lib/business";
import { knownFields, storablePayload } from "@/server/lib/clean-input";
import { codeRoute, whatsappCodeWay } from "@/server/lib/code-route";
import { AppError, badRequest } from "@/server/lib/errors";
import { matchContact, storedNumber } from "@/server/lib/identity";
import { consumeProvedReply, issueReplyCode, replyLink, replyWebhookReady } from "@/server/lib/reply-codes";
import { consumeCode, type Destination, issueCode, maskedDestination, newCode } from "@/server/lib/verification";
import { SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { isValidEmail } from "@/shared/contact";
import {
  type IdentifyResponse,
  identifyMessage,
  identifyRequestSchema,
  identifySentTo,
  PAYER_NAME_MESSAGE,
  PAYER_WHATSAPP_MESSAGE,
  paylinkRequestSchema,
} from "@/shared/schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { type Payer, type PayerSession, type PaymentsContext, validationError } from "./context";

export const NOT_YOUR_ACCOUNT = "That is not your account.";
/**
 * Any code a payer gives that does not prove an account: wrong, expired, voided, not yet written
 * to us, or for a number that has no account. One sentence for all, so trying codes tells a
 * stranger nothing about who is a customer (issue 46).
 */
export const PAYER_CODE_REFUSED =
  "That code did not work. Check it and try again, or ask for a new code. Sent it on WhatsApp? Give it a moment to reach us first. Or continue as a new customer.";
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
    if (!match) throw badRequest(PAYER_CODE_REFUSED, { verificationCode: PAYER_CODE_REFUSED });
    const ask = { purpose: "payment-identify" as const, clientId: match.client.id, code: input.verificationCode as string };
    // the code of their wa.me link once their message proved it, else the code sent to them
    const check = await db.transaction(async (tx) => (await consumeProvedReply(tx, ask)) ?? consumeCode(tx, ask));
    if (check === "waiting" || !check.ok) throw badRequest(PAYER_CODE_REFUSED, { verificationCode: PAYER_CODE_REFUSED });
    proven = match.client;
    if (proven.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
    await session.onProven?.(proven.id);
  }
  // A suspended client's number without the code goes on exactly as a stranger's (issue 46: a 409
  // here told anyone the number is a suspended client's); flagged below, the payment is held for
  // the owner once paid (held.ts), so a suspended client does not start a second account with it.
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

/** The identify lookups still running after their answers went (tests wait for them). */
const lookups = new Set<Promise<void>>();

/** Resolves once every identify's lookup (and any code it sent) has finished. */
export async function identifyLookupsSettled(): Promise<void> {
  while (lookups.size) await Promise.allSettled([...lookups]);
}

/**
 * POST /api/payments/identify: the same answer for any number or address (issue 46: who is a
 * customer is not public). It names what was typed that a code can reach now by the shop's state
 * alone (an approved template and today's cap for WhatsApp, mail leaving the server for e-mail;
 * not an open window, which would tell that the number wrote to us lately), and is given before
 * anything is looked up. Then, if the number (else the e-mail address) is a client's, the code
 * goes to each of those that is that client's recorded contact (issue 41: the answer says exactly
 * where; never to a contact the payer did not type, nor to one that is not the client's), and the
 * wa.me link's code is bound to the client's recorded number. The review step offers the code
 * field and "continue as a new customer" in every case.
 */
export async function identify(ctx: PaymentsContext, body: unknown, session: PayerSession = { clientId: null }): Promise<IdentifyResponse> {
  const { app } = ctx;
  const parsed = identifyRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  const business = await loadBusiness(app);
  const typed: Destination[] = [];
  if (parsed.data.whatsapp) typed.push({ channel: "whatsapp", recipient: storedNumber(parsed.data.whatsapp) });
  if (parsed.data.email) typed.push({ channel: "email", recipient: parsed.data.email.trim().toLowerCase() });
  const { codeTransports } = app.outbox;
  const route = await codeRoute(app.db, typed, { ...codeTransports, windows: false });
  // With the Cloud API connected and no code template approved, a number's open window may still
  // carry the code: named on that condition, whoever asks; the window only decides if it goes.
  const [number] = typed.filter((d) => d.channel === "whatsapp" && !route.includes(d));
  const byWindow =
    codeTransports.cloudApi && number && (await whatsappCodeWay(app.db, number.recipient, { ...codeTransports, windows: false })) === null
      ? number
      : null;
  // a link whenever the webhook is set up, whoever asks; its code proves something only for a client
  const replyCode = replyWebhookReady(app.config) && business.whatsappNumber.replace(/\D/g, "") ? newCode() : null;
  const lookup = sendIdentifyCodes(ctx, parsed.data, { route, byWindow }, session, replyCode).catch((error: unknown) => {
    app.log.error({ err: error }, "identify: the code for a payer could not be sent");
  });
  lookups.add(lookup);
  void lookup.finally(() => lookups.delete(lookup));
  const sentTo = route.map(maskedDestination);
  const ifWrote = byWindow ? maskedDestination(byWindow) : "";
  return {
    message: identifyMessage(sentTo, codeTransports.email && !parsed.data.email, ifWrote),
    sentTo: identifySentTo(sentTo, ifWrote),
    ...(replyCode ? { waLink: replyLink(business, replyCode) } : {}),
  };
}

async function sendIdentifyCodes(
  ctx: PaymentsContext,
  contact: { whatsapp?: string; email?: string },
  { route, byWindow }: { route: Destination[]; byWindow: Destination | null },
  session: PayerSession,
  replyCode: string | null,
): Promise<void> {
  const { app, db } = ctx;
  const match = await matchContact(db, contact);
  if (!match) return;
  const client = match.client;
  const number = toStoredWhatsApp(client.whatsapp);
  const email = client.email && isValidEmail(client.email) ? client.email.trim().toLowerCase() : "";
  const business = await loadBusiness(app);
  const requester = `ip:${session.ip ?? "unknown"}`;
  // Or they write the link's code to us from the client's recorded number (issue 41).
  if (number && replyCode) {
    await issueReplyCode(db, business, true, { purpose: "payment-identify", number, clientId: client.id, requester, code: replyCode });
  }
  // What was typed, named in the answer, and the client's own: nothing else gets a code.
  const to = route.filter((d) => (d.channel === "whatsapp" ? d.recipient === number : d.recipient === email));
  if (byWindow?.recipient === number && (await whatsappCodeWay(db, number, app.outbox.codeTransports)) === "window") to.push(byWindow);
  if (!to.length) return;
  const ask = { purpose: "payment-identify" as const, clientId: client.id, requester, name: client.full_name };
  // Another process took the day's last WhatsApp code: the e-mail named beside it still gets one.
  if ((await issueCode(db, business, { ...ask, to })) === "capped") {
    const mail = to.filter((d) => d.channel === "email");
    if (mail.length) await issueCode(db, business, { ...ask, to: mail });
  }
  app.outbox.nudge();
}
