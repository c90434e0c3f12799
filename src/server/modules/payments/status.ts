// Status for the result page (GET /api/payments/:ref): the payment, what it really did (the
// account, the term, the customer's messages and where each stands), and for a pending payment
// a throttled question to its provider, so a lost notification does not leave a paid customer waiting.
import { and, eq, inArray, like, or } from "drizzle-orm";
import { type HostedProviderName, type PaylinkStatusResult, PaymentProviderError } from "@/server/adapters/payments/provider";
import { clients, outbox, provisioningJobs } from "@/server/db/schema";
import { AppError, notFound } from "@/server/lib/errors";
import { cardChangeOfPayment } from "@/server/modules/auto-renew/card-change";
import { creditOrderOfPayment } from "@/server/modules/resellers/settle-order";
import type { PaymentMessage, PaymentMessageKind, PaymentMessageState, PaymentOutcome, PaymentStatusView } from "@/shared/api";
import { findPayment, type Payment, type PaymentsContext } from "./context";
import { captureIfConfirmed, markUnpaid } from "./intake";
import { sentTo } from "./settle";

/** A pending card payment is re-checked with the provider at most this often when its status is read. */
const RECONCILE_EVERY_MS = 10_000;
const RECONCILE_MEMORY = 1000;

const CUSTOMER_KINDS: readonly PaymentMessageKind[] = ["receipt", "welcome", "credentials"];

const STATE_RANK: Record<PaymentMessageState, number> = { failed: 0, queued: 1, owner: 2, sent: 3, delivered: 4, read: 5 };

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** GET /api/payments/:ref. */
export async function publicStatus(ctx: PaymentsContext, ref: string): Promise<{ data: PaymentStatusView }> {
  let payment = await findPayment(ctx, ref);
  if (!payment) throw notFound("No payment with that reference.");
  if (await reconcile(ctx, payment)) payment = (await findPayment(ctx, ref)) ?? payment;
  const creditOrder = await creditOrderOfPayment(ctx.db, payment.id);
  const cardChange = creditOrder ? null : await cardChangeOfPayment(ctx.db, payment.id);
  return {
    data: {
      external_transaction_id: payment.external_transaction_id,
      status: payment.status as PaymentStatusView["status"],
      amount: payment.amount,
      currency: payment.currency,
      package_name: payment.package_name,
      provider: payment.provider,
      created_at: payment.created_at.toISOString(),
      paid_at: isoOrNull(payment.paid_at),
      outcome: await outcomeOf(ctx, payment),
      // a partner's credit order only (a shop payment's answer is as it was)
      ...(creditOrder ? { credit_order: creditOrder } : {}),
      // a client's change of their renewal card only: nothing charged, no term added
      ...(cardChange ? { card_change: cardChange } : {}),
    },
  };
}

/** What the payment did, for the result page: only what really happened. */
async function outcomeOf(ctx: PaymentsContext, payment: Payment): Promise<PaymentOutcome> {
  const none: PaymentOutcome = { account: "none", subscription_end: null, suspended: false, sent_to: [], messages: [] };
  if (payment.status !== "paid") return none;
  const messages = await customerMessagesOf(ctx, payment);
  if (!payment.client_id) return { ...none, messages };
  const [client] = await ctx.db.select().from(clients).where(eq(clients.id, payment.client_id));
  if (!client) return { ...none, messages };
  return {
    account: payment.client_created ? "created" : "renewed",
    subscription_end: isoOrNull(client.subscription_end),
    suspended: client.status === "suspended",
    sent_to: sentTo(payment, client),
    messages,
  };
}

/**
 * The customer's messages this payment caused, with where each stands: its receipt (and the
 * receipt's e-mail copy), the welcome of the account it made, and the line login of the panel
 * job it queued. Found by the payer (client or lead) and the dedupe keys their senders give
 * them (receipt:<payment>, welcome:<client>:…, credentials:<job>:…), so neither an older
 * message nor a later payment's is counted, whatever the clocks say. Never the business notice.
 */
async function customerMessagesOf(ctx: PaymentsContext, payment: Payment): Promise<PaymentMessage[]> {
  const { db } = ctx;
  const payer = [
    payment.client_id ? eq(outbox.client_id, payment.client_id) : null,
    payment.lead_id ? eq(outbox.lead_id, payment.lead_id) : null,
  ].filter((c) => c !== null);
  if (payer.length === 0) return [];
  const keys = [like(outbox.dedupe_key, `receipt:${payment.id}%`)];
  if (payment.client_created && payment.client_id) keys.push(like(outbox.dedupe_key, `welcome:${payment.client_id}:%`));
  const jobs = await db
    .select({ id: provisioningJobs.id })
    .from(provisioningJobs)
    .where(like(provisioningJobs.cause_key, `payment:${payment.id}:%`));
  for (const job of jobs) keys.push(like(outbox.dedupe_key, `credentials:${job.id}:%`));
  const rows = await db
    .select({
      kind: outbox.kind,
      channel: outbox.channel,
      status: outbox.status,
      delivery_status: outbox.delivery_status,
      created_at: outbox.created_at,
    })
    .from(outbox)
    .where(and(or(...payer), or(...keys), inArray(outbox.kind, [...CUSTOMER_KINDS])))
    .orderBy(outbox.created_at);
  // One line per kind and channel (a WhatsApp message's e-mail copy is its own line), the
  // furthest along when there are two; a WhatsApp message carried by its e-mail copy is left out.
  const byKey = new Map<string, PaymentMessage>();
  for (const row of rows) {
    const state = messageState(row);
    if (!state) continue;
    const message = { kind: row.kind as PaymentMessageKind, channel: row.channel as PaymentMessage["channel"], state };
    const key = `${message.kind}:${message.channel}`;
    const known = byKey.get(key);
    if (!known || STATE_RANK[state] > STATE_RANK[known.state]) byKey.set(key, message);
  }
  return [...byKey.values()].sort((a, b) => CUSTOMER_KINDS.indexOf(a.kind) - CUSTOMER_KINDS.indexOf(b.kind));
}

/**
 * Where an outbox row stands for the customer: pending/sending are queued; owner waits for the
 * business to send it on WhatsApp; a sent WhatsApp message is as far as Meta's last delivery
 * status says (a failed delivery is a failure). A row rerouted to its e-mail copy is null: the
 * copy is the message.
 */
export function messageState(row: { channel: string; status: string; delivery_status: string | null }): PaymentMessageState | null {
  switch (row.status) {
    case "pending":
    case "sending":
      return "queued";
    case "owner":
      return "owner";
    case "failed":
      return "failed";
    case "sent": {
      const delivery = row.channel === "whatsapp" ? row.delivery_status : null;
      return delivery === "delivered" || delivery === "read" || delivery === "failed" ? delivery : "sent";
    }
    default:
      return null;
  }
}

/**
 * A result page reads a pending card payment: ask the provider ourselves (throttled per
 * payment), so a lost or unverifiable callback does not leave a paid customer waiting.
 * Same capture rules as the webhook. Returns whether the row may have changed.
 */
async function reconcile(ctx: PaymentsContext, payment: Payment): Promise<boolean> {
  if (payment.status !== "pending") return false;
  const ask = statusQuery(ctx, payment);
  if (!ask || !mayAskNow(ctx, payment)) return false;
  try {
    const truth = await ask();
    if (truth.status === "paid") {
      await captureIfConfirmed(ctx, payment, truth, { source: "status-query", status: "paid" }, truth.providerPaymentId);
    } else if (truth.status === "failed" || truth.status === "cancelled") {
      await markUnpaid(ctx, payment.id, truth.status, { source: "status-query", status: truth.status });
    } else return false;
    return true;
  } catch (error) {
    if (!(error instanceof AppError) && !(error instanceof PaymentProviderError)) throw error;
    ctx.app.log.warn({ err: error, ref: payment.external_transaction_id }, "payment status query did not settle the payment");
    return false;
  }
}

/**
 * How the payment's provider is asked where it stands: the active card provider by its reference,
 * a hosted provider with a status API (capabilities.statusQuery) by ours. Null where it cannot be
 * asked: a hosted provider without one waits for its notification.
 */
function statusQuery(ctx: PaymentsContext, payment: Payment): (() => Promise<PaylinkStatusResult>) | null {
  const hosted = ctx.hosted.get(payment.provider as HostedProviderName);
  if (hosted) {
    const getStatus = hosted.getStatus?.bind(hosted);
    return getStatus
      ? () => getStatus({ reference: payment.external_transaction_id, providerReference: payment.provider_reference })
      : null;
  }
  const { provider } = ctx.active;
  const reference = payment.provider_reference;
  return payment.provider === provider.name && reference ? () => provider.getStatus(reference) : null;
}

/** Whether the payment's provider may be asked again (at most every RECONCILE_EVERY_MS); asking now is noted. */
function mayAskNow(ctx: PaymentsContext, payment: Payment): boolean {
  const { lastReconciled } = ctx;
  const now = Date.now();
  const last = lastReconciled.get(payment.external_transaction_id);
  if (last !== undefined && now - last < RECONCILE_EVERY_MS) return false;
  lastReconciled.set(payment.external_transaction_id, now);
  if (lastReconciled.size > RECONCILE_MEMORY) lastReconciled.delete(lastReconciled.keys().next().value as string);
  return true;
}
