// A credit note for a refund, in the refund's transaction: its number, the payment's status, the
// term's change through the lifecycle module, the audit entry and the client's message.
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { RefundRoute } from "@/server/adapters/payments/provider";
import { capturedPayments, clients, creditNotes } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import type { loadBusiness } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { adminActor, applyChange, type loadRules } from "@/server/lib/lifecycle";
import type { OwnerTemplates } from "@/server/lib/message-templates";
import { appendNote } from "@/server/lib/notes";
import { enqueue } from "@/server/lib/outbox";
import { disableAutoRenew } from "@/server/modules/auto-renew/cards";
import { billingSettings, formatDocumentNumber, type RefundRequest, type RefundResult, vatBreakdown } from "@/shared/billing";
import { formatRand, fromCents, toCents } from "@/shared/money";
import type { Tx } from "./documents";
import { issueInvoice, takeNumber } from "./documents";
import { type RefundFacts, refundMessage } from "./messages";
import { documentRand } from "./pdf";
/** The outbox kind of the client's refund message (and of its template). */
export const REFUND_KIND = "refund-issued";

export async function recordRefund(
  tx: Tx,
  r: {
    business: Awaited<ReturnType<typeof loadBusiness>>;
    rules: Awaited<ReturnType<typeof loadRules>>;
    templates: OwnerTemplates;
    request: FastifyRequest;
    payment: typeof capturedPayments.$inferSelect;
    cents: number;
    whole: boolean;
    method: "provider" | "manual";
    providerReference: string | null;
    route: RefundRoute | null;
    input: RefundRequest;
  },
): Promise<RefundResult & { creditNoteId: string }> {
  const { business, rules, templates, request, payment, cents, whole, method, providerReference, route, input } = r;
  const now = new Date();
  const [client] = payment.client_id ? await tx.select().from(clients).where(eq(clients.id, payment.client_id)) : [];
  // A payment captured before invoices existed gets its invoice now, so the credit note has one to stand against.
  const invoice = await issueInvoice(tx, business, payment, client ?? null, now);
  const billing = billingSettings(business.settings);
  const number = formatDocumentNumber(billing.creditNotePrefix, await takeNumber(tx, "credit_note"));
  const { excl, vat } = vatBreakdown(cents, Number(invoice.vat_rate));

  // A refund of the client's last payment stops its automatic renewal (issue 44): the provider is told by the job.
  if (client) {
    const [last] = await tx
      .select({ id: capturedPayments.id })
      .from(capturedPayments)
      // a payment that bought something: a card-saving checkout (R0.00, "Use another card") is not the last payment
      .where(
        and(
          eq(capturedPayments.client_id, client.id),
          inArray(capturedPayments.status, ["paid", "refunded"]),
          gt(capturedPayments.amount, 0),
        ),
      )
      .orderBy(desc(capturedPayments.paid_at))
      .limit(1);
    if (last?.id === payment.id) await disableAutoRenew(tx, client.id, "its last payment was refunded", now);
  }
  // The term: the time this payment bought goes with a whole refund; the owner chooses for a part.
  const choice = input.term ?? (whole ? "remove" : "keep");
  let termChange = "kept";
  /** the client as the refund left them (the message says what happens to their line from it) */
  let clientAfter = client ?? null;
  let termChanged = false;
  if (client && choice !== "keep") {
    const cause =
      choice === "end" || (choice === "remove" && invoice.term_months <= 0)
        ? ({ kind: "refund", endNow: true } as const)
        : choice === "remove"
          ? ({ kind: "refund", months: invoice.term_months } as const)
          : ({ kind: "refund", days: input.days ?? 0 } as const);
    const change = await applyChange(tx, {
      clientId: client.id,
      cause,
      causeKey: `refund:${number}`,
      actor: adminActor(request),
      rules,
      now,
      reason: `${number}: ${input.reason}`,
    });
    termChange = change.applied
      ? change.client.status === "expired" || change.client.status === "suspended"
        ? `ended (${change.client.status})`
        : `shortened to ${change.client.subscription_end?.toISOString() ?? "-"}`
      : `kept: ${change.refused ?? "already applied"}`;
    clientAfter = change.client;
    termChanged = change.applied;
  }

  const [note] = await tx
    .insert(creditNotes)
    .values({
      number,
      invoice_id: invoice.id,
      payment_id: payment.id,
      client_id: invoice.client_id,
      issued_at: now,
      reason: input.reason,
      excl_cents: excl,
      vat_cents: vat,
      incl_cents: cents,
      method,
      provider_reference: providerReference,
      term_change: termChange,
      admin_id: request.admin?.id ?? null,
    })
    .returning();
  const [current] = await tx.select().from(capturedPayments).where(eq(capturedPayments.id, payment.id)).for("update");
  const [after] = await tx
    .update(capturedPayments)
    .set({
      status: toCents(current.refunded_amount) >= toCents(current.amount) ? "refunded" : "paid",
      notes: appendNote(capturedPayments.notes, `Refunded ${documentRand(cents)} (${number}, ${method}): ${input.reason}`),
      updated_at: now,
    })
    .where(eq(capturedPayments.id, payment.id))
    .returning();
  await audit(tx, request, {
    action: "refund",
    resource: "captured_payments",
    resourceId: payment.id,
    before: { status: payment.status, refunded_amount: payment.refunded_amount },
    after: { status: after.status, refunded_amount: after.refunded_amount, credit_note: number, method, term_change: termChange },
  });

  // The client hears of it (issue 25 item 4): "Refund issued" in the owner's words, with what
  // happens to their line as the refund left it. By e-mail (the credit note attached) when there
  // is an address; on WhatsApp as well when that is their channel, or when it is the only one
  // (the worker sends it by the Cloud API or puts it in the owner's queue, as any other). Both in
  // this transaction, each once per credit note; the worker sees the e-mail sibling and adds no copy.
  const facts: RefundFacts = {
    name: client?.full_name ?? "",
    packageName: payment.package_name || client?.package_name || "",
    amount: fromCents(cents),
    reference: payment.external_transaction_id,
    invoice: invoice.number,
    creditNote: number,
    method,
    route,
    reason: input.reason,
    client: clientAfter,
    termChanged,
  };
  const email = payment.client_email || client?.email || "";
  const preferred = client ? preferredContact(client) : null;
  const whatsapp = client && preferred?.channel === "whatsapp" ? preferred.recipient : "";
  const vars = { amount: formatRand(fromCents(cents)), credit_note: number, package: facts.packageName || "subscription" };
  /** "Refund issued" on one channel, once per credit note (its dedupe key). */
  const send = async (channel: "email" | "whatsapp", recipient: string, dedupeKey: string, attachment?: string) => {
    const message = refundMessage(business, facts, channel, { templates, rules });
    await enqueue(tx, {
      channel,
      recipient,
      // on WhatsApp, kept for an e-mail copy the worker may make: the kind's own subject
      subject: message.subject,
      body: message.body,
      kind: REFUND_KIND,
      client_id: client?.id ?? null,
      failure: message.error,
      vars,
      dedupe_key: dedupeKey,
      attachment,
    });
  };
  if (email) await send("email", email, `credit-note:${note.id}`, `credit_note:${number}`);
  if (whatsapp) await send("whatsapp", whatsapp, `credit-note:${note.id}:whatsapp`);
  return {
    creditNoteId: note.id,
    credit_note: number,
    amount: fromCents(cents),
    method,
    payment_status: after.status,
    refunded_amount: after.refunded_amount,
    term_change: termChange,
  };
}
