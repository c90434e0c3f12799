// "Download my data" (issue 46 item 6; POPIA s23, a data subject's right to what we hold of them):
//   GET /api/client/data-export → 200 JSON, Content-Disposition attachment.
// The signed-in client's own rows only, each read by their id from the session: the profile and
// contacts, the line (its own login included: it is theirs, unlike any other system's secrets),
// orders and requests, payments, invoices and credit notes, the messages sent to them (secrets,
// such as codes and passwords, are sealed apart and never in a body) and the WhatsApp messages
// they sent, consents and opt-outs, code events (never codes), their own privacy requests
// (correction and erasure: kind, status, dates, the owner's answer), and who else received their data.
// A suspended client may export too (auth/guards.ts): their data is theirs whatever their standing.
// Never: password hashes, the owner's notes, another client's id or data (a lead that only gave
// their number — possible_duplicate_of — may be someone else, so it is left out).
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { isTestProvider } from "@/server/adapters/payments/registry";
import { requireClient } from "@/server/auth/guards";
import {
  capturedPayments,
  clients,
  contentRequests,
  creditNotes,
  dataRequests,
  invoices,
  leads,
  lineMacChanges,
  outbox,
  statusSubscribers,
  verificationCodes,
  whatsappMessages,
} from "@/server/db/schema";
import { notFound } from "@/server/lib/errors";

/** Where the body of a message held a secret (sealed apart, never exported). */
const SECRET_PLACEHOLDER = /\{\{secret\}\}/g;

/** Payment rows whose provider is no outside party: a bank transfer to the business, or the test checkout (the registry's). */
const notAnOutsideParty = (provider: string) => provider === "eft" || isTestProvider(provider);

const routes: FastifyPluginAsync = async (app) => {
  app.get("/client/data-export", { preHandler: requireClient }, async (request, reply) => {
    const clientId = request.client?.id as string;
    const db = app.db;
    const [client] = await db.select().from(clients).where(eq(clients.id, clientId));
    if (!client) throw notFound("No such client.");

    const [orders, payments, invoiceRows, creditNoteRows, sent, received, codes, subscriptions, requests, macChanges] = await Promise.all([
      db
        .select({
          form_type: leads.form_type,
          name: leads.name,
          email: leads.email,
          whatsapp: leads.whatsapp,
          package_name: leads.package_name,
          duration: leads.duration,
          device: leads.device,
          internet_platform: leads.internet_platform,
          internet_speed: leads.internet_speed,
          communication_method: leads.communication_method,
          marketing_opt_in: leads.marketing_opt_in,
          status: leads.status,
          ip: leads.ip,
          created_at: leads.created_at,
        })
        .from(leads)
        .where(eq(leads.client_id, clientId))
        .orderBy(asc(leads.created_at)),
      db
        .select({
          provider: capturedPayments.provider,
          reference: capturedPayments.external_transaction_id,
          amount: capturedPayments.amount,
          currency: capturedPayments.currency,
          package_name: capturedPayments.package_name,
          description: capturedPayments.description,
          status: capturedPayments.status,
          paid_at: capturedPayments.paid_at,
          email: capturedPayments.client_email,
          immediate_start_consent_at: capturedPayments.immediate_start_consent_at,
          coupon_code: capturedPayments.coupon_code,
          discount: capturedPayments.discount,
          refunded_amount: capturedPayments.refunded_amount,
          buyer_company: capturedPayments.buyer_company,
          buyer_address: capturedPayments.buyer_address,
          buyer_vat_number: capturedPayments.buyer_vat_number,
          line_type: capturedPayments.line_type,
          line_mac: capturedPayments.line_mac,
          created_at: capturedPayments.created_at,
        })
        .from(capturedPayments)
        .where(eq(capturedPayments.client_id, clientId))
        .orderBy(asc(capturedPayments.created_at)),
      db
        .select({
          number: invoices.number,
          kind: invoices.kind,
          issued_at: invoices.issued_at,
          buyer: invoices.buyer,
          description: invoices.description,
          incl_cents: invoices.incl_cents,
          vat_cents: invoices.vat_cents,
          reference: invoices.reference,
        })
        .from(invoices)
        .where(eq(invoices.client_id, clientId))
        .orderBy(asc(invoices.issued_at)),
      db
        .select({
          number: creditNotes.number,
          issued_at: creditNotes.issued_at,
          reason: creditNotes.reason,
          incl_cents: creditNotes.incl_cents,
          vat_cents: creditNotes.vat_cents,
          method: creditNotes.method,
        })
        .from(creditNotes)
        .where(eq(creditNotes.client_id, clientId))
        .orderBy(asc(creditNotes.issued_at)),
      db
        .select({
          channel: outbox.channel,
          recipient: outbox.recipient,
          subject: outbox.subject,
          body: outbox.body,
          kind: outbox.kind,
          status: outbox.status,
          sent_at: outbox.sent_at,
          created_at: outbox.created_at,
        })
        .from(outbox)
        .where(eq(outbox.client_id, clientId))
        .orderBy(asc(outbox.created_at)),
      db
        .select({
          number: whatsappMessages.number,
          type: whatsappMessages.type,
          text: whatsappMessages.text,
          sent_at: whatsappMessages.sent_at,
        })
        .from(whatsappMessages)
        .where(and(eq(whatsappMessages.client_id, clientId), eq(whatsappMessages.direction, "in")))
        .orderBy(asc(whatsappMessages.sent_at)),
      db
        .select({
          purpose: verificationCodes.purpose,
          channel: verificationCodes.channel,
          recipient: verificationCodes.recipient,
          attempts: verificationCodes.attempts,
          created_at: verificationCodes.created_at,
          expires_at: verificationCodes.expires_at,
          used_at: verificationCodes.used_at,
        })
        .from(verificationCodes)
        .where(eq(verificationCodes.client_id, clientId))
        .orderBy(asc(verificationCodes.created_at)),
      db
        .select({
          email: statusSubscribers.email,
          confirmed_at: statusSubscribers.confirmed_at,
          unsubscribed_at: statusSubscribers.unsubscribed_at,
          created_at: statusSubscribers.created_at,
        })
        .from(statusSubscribers)
        .where(eq(statusSubscribers.client_id, clientId)),
      db
        .select({
          request_type: contentRequests.request_type,
          title: contentRequests.title,
          details: contentRequests.details,
          status: contentRequests.status,
          reply: contentRequests.reply,
          created_at: contentRequests.created_at,
        })
        .from(contentRequests)
        .where(eq(contentRequests.client_id, clientId))
        .orderBy(asc(contentRequests.created_at)),
      db
        .select({
          old_mac: lineMacChanges.old_mac,
          new_mac: lineMacChanges.new_mac,
          status: lineMacChanges.status,
          created_at: lineMacChanges.created_at,
        })
        .from(lineMacChanges)
        .where(eq(lineMacChanges.client_id, clientId))
        .orderBy(asc(lineMacChanges.created_at)),
    ]);
    const privacyRequests = await db
      .select({
        kind: dataRequests.kind,
        status: dataRequests.status,
        details: dataRequests.details,
        correction: dataRequests.correction,
        asked_at: dataRequests.created_at,
        due_at: dataRequests.due_at,
        answered_at: dataRequests.resolved_at,
        outcome: dataRequests.outcome,
      })
      .from(dataRequests)
      .where(eq(dataRequests.client_id, clientId))
      .orderBy(asc(dataRequests.created_at));
    const [panelWork] = await db
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.id, clientId), isNotNull(clients.panel_line_id)));

    const providers = [...new Set(payments.map((p) => p.provider))].filter((p) => !notAnOutsideParty(p));
    const byWhatsApp = sent.some((m) => m.channel === "whatsapp") || received.length > 0;
    const byEmail = sent.some((m) => m.channel === "email");
    const thirdParties = [
      ...providers.map((name) => ({ name, role: "payment provider", received: "your payments: amount, reference, e-mail address" })),
      ...(byWhatsApp ? [{ name: "Meta (WhatsApp)", role: "messaging", received: "your WhatsApp number and the messages between us" }] : []),
      ...(byEmail
        ? [{ name: "our e-mail service", role: "e-mail delivery", received: "your e-mail address and the e-mails we sent you" }]
        : []),
      ...(panelWork || client.line_username
        ? [{ name: "our IPTV panel", role: "your line", received: "your line's login, package, expiry and box MAC address" }]
        : []),
    ];

    const data = {
      exported_at: new Date().toISOString(),
      profile: {
        username: client.username,
        full_name: client.full_name,
        email: client.email,
        whatsapp: client.whatsapp,
        communication_method: client.communication_method,
        billing_company: client.billing_company,
        billing_address: client.billing_address,
        billing_vat_number: client.billing_vat_number,
        status: client.status,
        created_at: client.created_at,
      },
      line: {
        package_name: client.package_name,
        subscription_start: client.subscription_start,
        subscription_end: client.subscription_end,
        type: client.line_type,
        mac: client.line_mac,
        username: client.line_username,
        password: client.line_password,
        portal_url: client.line_portal_url,
        device: client.device,
        internet_platform: client.internet_platform,
        mac_changes: macChanges,
      },
      orders_and_requests: orders,
      content_requests: requests,
      payments,
      invoices: invoiceRows,
      credit_notes: creditNoteRows,
      messages_sent_to_you: sent.map((m) => ({
        ...m,
        body: m.body.replace(SECRET_PLACEHOLDER, "[a code or password: not kept in readable form]"),
      })),
      whatsapp_messages_from_you: received,
      consents: {
        marketing_opt_in: client.marketing_opt_in,
        marketing_opt_in_at: client.marketing_opt_in_at,
        immediate_start: payments
          .filter((p) => p.immediate_start_consent_at)
          .map((p) => ({ reference: p.reference, at: p.immediate_start_consent_at })),
        status_updates: subscriptions,
      },
      verification_code_events: codes,
      privacy_requests: privacyRequests,
      third_parties: thirdParties,
    };
    reply
      .header("content-type", "application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="my-data-${client.username.replace(/[^A-Za-z0-9_-]/g, "_")}.json"`);
    return JSON.stringify(data, null, 2);
  });
};

export default routes;
