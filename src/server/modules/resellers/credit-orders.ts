// Partners buy credits from the shop (issue 45 item 4; docs/architecture.md, "Sub-resellers").
//  - An order is priced on the server from the owner's price list (pricing.ts) and paid through
//    one captured_payments row of the shop's own ways to pay: an EFT reference (the owner marks
//    it paid in the payments list), the card provider, or a hosted one the owner turned on (the
//    registry's). The payments module captures it as any payment; settle.ts hands it to
//    settle-order.ts, which marks the order paid, tells the owner, issues the invoice and the
//    partner's receipt, in the capture's transaction.
//  - After the commit, the credits move: one transfer in the partner's ledger under the key
//    order:<id> (transfers.ts claims it before adjust_credits), so the change feed reaching two
//    processes, a replayed notification or a second sweep moves them once.
import { randomInt } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { HostedProviderName } from "@/server/adapters/payments/provider";
import { selectHostedProviders, selectPaymentProvider } from "@/server/adapters/payments/select-provider";
import { capturedPayments, partnerCreditOrders, resellers } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness, signOff } from "@/server/lib/business";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { alertOwner } from "@/server/lib/owner-alerts";
import { eftPayee } from "@/server/modules/payments/eft";
import { insertPayment, type NewCreditOrderPayment } from "@/server/modules/payments/insert-payment";
import {
  CARD_OFF_MESSAGE,
  cardModeFor,
  EFT_REFERENCE_ALPHABET,
  makeTransactionId,
  NOTIFY_PATHS,
  PAYLINK_FAILED_MESSAGE,
} from "@/server/modules/payments/service";
import { EFT_UNAVAILABLE_MESSAGE, eftReady } from "@/shared/constants";
import { formatRand, toCents } from "@/shared/money";
import { type CreditCheckoutAnswer, type CreditOffer, type CreditOrderView, priceCredits } from "@/shared/reseller-schemas";
import { takeBackRecentRefunds, takeBackRefunds } from "./order-refunds";
import { loadPricing } from "./pricing";
import type { Reseller } from "./service";
import { transferCredits } from "./transfers";

type Order = typeof partnerCreditOrders.$inferSelect;
type Payment = typeof capturedPayments.$inferSelect;

export const NO_PRICE_MESSAGE = "The business has not set a price for credits yet. Ask them to set one, or to give you credits.";
const METHOD_MESSAGE = "Choose how to pay: EFT or one of the ways on offer.";
const publicUrlOf = (app: FastifyInstance) => (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
const plural = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;

/** What a partner may buy with: the owner's prices and the ways to pay that are on. */
export async function creditOffer(app: FastifyInstance): Promise<CreditOffer> {
  const business = await loadBusiness(app);
  const methods: CreditOffer["methods"] = [];
  if (eftReady(business.settings)) methods.push({ id: "eft", name: "EFT (bank transfer)" });
  if (cardModeFor(app.config) !== "off") methods.push({ id: "card", name: "Card" });
  for (const p of selectHostedProviders(app.config).values()) methods.push({ id: p.name, name: p.label });
  return { pricing: await loadPricing(app.db), methods };
}

export function toOrderView(order: Order, payment: Pick<Payment, "provider" | "external_transaction_id">): CreditOrderView {
  return {
    id: order.id,
    credits: order.credits,
    unit_price: order.unit_price,
    amount: order.amount,
    status: order.status as CreditOrderView["status"],
    method: payment.provider,
    reference: payment.external_transaction_id,
    error: order.error,
    created_at: order.created_at.toISOString(),
    paid_at: order.paid_at?.toISOString() ?? null,
    delivered_at: order.delivered_at?.toISOString() ?? null,
  };
}

/** A partner's orders, newest first (`resellerId` null: everyone's, for the owner). */
export async function listOrders(app: FastifyInstance, resellerId: string | null, limit = 50) {
  const rows = await app.db
    .select({ order: partnerCreditOrders, payment: capturedPayments, partner: resellers.name })
    .from(partnerCreditOrders)
    .innerJoin(capturedPayments, eq(capturedPayments.id, partnerCreditOrders.payment_id))
    .innerJoin(resellers, eq(resellers.id, partnerCreditOrders.reseller_id))
    .where(resellerId ? eq(partnerCreditOrders.reseller_id, resellerId) : undefined)
    .orderBy(desc(partnerCreditOrders.created_at))
    .limit(limit);
  return rows.map((r) => ({ ...toOrderView(r.order, r.payment), partner: r.partner }));
}

/** POST /api/partner/credits/checkout: the order and its payment, and how to pay it. */
export async function checkoutCredits(
  app: FastifyInstance,
  partner: Reseller,
  input: { credits: number; method: string },
): Promise<CreditCheckoutAnswer> {
  const pricing = await loadPricing(app.db);
  if (!pricing) throw new AppError(409, "no_price", NO_PRICE_MESSAGE);
  if (!partner.panel_user_id) throw conflict("Your account is not on the panel yet. Ask the business to finish it.");
  const { unit_price, amount } = priceCredits(pricing, input.credits);
  const business = await loadBusiness(app);
  const what = plural(input.credits);
  const row: PaymentValues = {
    creditOrder: {
      amount,
      packageName: `${what} (partner)`,
      description: `${what} for partner ${partner.name} at ${formatRand(unit_price)} each`,
      buyer: partner.name,
    },
    email: partner.email,
  };
  const order = { reseller_id: partner.id, credits: input.credits, unit_price, amount };

  if (input.method === "eft") {
    if (!eftReady(business.settings)) throw conflict(EFT_UNAVAILABLE_MESSAGE);
    return eftOrder(app, business, partner, row, order);
  }
  if (input.method === "card") {
    if (cardModeFor(app.config) === "off") throw new AppError(409, "card_payments_off", CARD_OFF_MESSAGE);
    const active = selectPaymentProvider(app.config, app.db, publicUrlOf(app)).provider;
    const { payment, made } = await recordOrder(app, { ...row, provider: active.name, reference: makeTransactionId() }, order);
    const ref = payment.external_transaction_id;
    const back = `${publicUrlOf(app)}/partner?order=${made.id}`;
    try {
      const link = await active.createPaylink({
        amountCents: toCents(amount),
        currency: "ZAR",
        description: row.creditOrder.description,
        externalTransactionID: ref,
        urls: {
          callbackUrl: `${publicUrlOf(app)}/api/payments/webhook/${active.name}`,
          successPageUrl: back,
          failurePageUrl: back,
          cancelUrl: back,
        },
      });
      await app.db
        .update(capturedPayments)
        .set({ provider_reference: link.paylinkID, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { order: toOrderView(made, payment), pay_url: link.paylinkUrl, bank: null };
    } catch (error) {
      await payLinkFailed(app, payment, error);
      throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
    }
  }
  const hosted = selectHostedProviders(app.config).get(input.method as HostedProviderName);
  if (!hosted) throw badRequest(METHOD_MESSAGE, { method: METHOD_MESSAGE });
  const { payment, made } = await recordOrder(app, { ...row, provider: hosted.name, reference: makeTransactionId() }, order);
  const ref = payment.external_transaction_id;
  const q = `?ref=${encodeURIComponent(ref)}`;
  const base = publicUrlOf(app);
  try {
    // The same input the payments module's hand-off page (/api/payments/checkout/:ref) starts it with.
    const checkout = await hosted.startCheckout({
      amountCents: toCents(amount),
      description: row.creditOrder.description,
      reference: ref,
      urls: {
        notifyUrl: `${base}${NOTIFY_PATHS[hosted.name]}`,
        successUrl: `${base}/payment/success${q}`,
        failureUrl: `${base}/payment/failure${q}`,
        cancelUrl: `${base}/payment/cancel${q}`,
      },
    });
    if (checkout.kind === "redirect") {
      await app.db
        .update(capturedPayments)
        .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { order: toOrderView(made, payment), pay_url: checkout.url, bank: null };
    }
    return { order: toOrderView(made, payment), pay_url: `${base}/api/payments/checkout/${encodeURIComponent(ref)}`, bank: null };
  } catch (error) {
    await payLinkFailed(app, payment, error);
    throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
  }
}

type PaymentValues = Omit<NewCreditOrderPayment, "provider" | "reference">;
type OrderValues = Omit<typeof partnerCreditOrders.$inferInsert, "payment_id">;

async function recordOrder(app: FastifyInstance, payment: NewCreditOrderPayment, order: OrderValues) {
  return app.db.transaction(async (tx) => {
    const paid = await insertPayment(tx, payment);
    // A fresh transaction id (time and random): taken already only by a fault of ours.
    if (!paid) throw new AppError(503, "unavailable", "We could not make a payment reference just now. Please try again.");
    const [made] = await tx
      .insert(partnerCreditOrders)
      .values({ ...order, payment_id: paid.id })
      .returning();
    return { payment: paid, made };
  });
}

async function payLinkFailed(app: FastifyInstance, payment: Payment, error: unknown) {
  const reason = error instanceof Error ? error.message : String(error);
  app.log.error({ err: error, ref: payment.external_transaction_id }, "partner credits: the pay link was not made");
  await app.db
    .update(capturedPayments)
    .set({ status: "failed", notes: `Pay link not created: ${reason}`.slice(0, 2000), updated_at: new Date() })
    .where(eq(capturedPayments.id, payment.id));
}

/** An EFT order: a reference of the shop's own form, the bank details to the partner, the owner told once. */
async function eftOrder(
  app: FastifyInstance,
  business: BusinessProfile,
  partner: Reseller,
  row: PaymentValues,
  order: OrderValues,
): Promise<CreditCheckoutAnswer> {
  const { prefix, bank } = eftPayee(business);
  const what = plural(order.credits);
  for (let attempt = 0; attempt < 10; attempt++) {
    let code = "";
    for (let i = 0; i < 6; i++) code += EFT_REFERENCE_ALPHABET[randomInt(EFT_REFERENCE_ALPHABET.length)];
    const reference = `${prefix}-${code}`;
    const made = await app.db.transaction(async (tx) => {
      const payment = await insertPayment(tx, {
        ...row,
        provider: "eft",
        reference,
        notes: `EFT details given to partner ${partner.username}`,
      });
      if (!payment) return null;
      const [created] = await tx
        .insert(partnerCreditOrders)
        .values({ ...order, payment_id: payment.id })
        .returning();
      const amount = formatRand(order.amount);
      await alertOwner(app, tx, {
        cause: "eft-order",
        dedupeKey: `owner-alert:eft-order:${payment.id}`,
        subject: `New EFT order: ${amount} for ${what} from partner ${partner.name} (${reference})`,
        body: [
          `Your partner ${partner.name} (${partner.username}) asked to pay ${amount} by EFT for ${what} and was given the bank details with reference ${reference}.`,
          "",
          `Nothing moves until you confirm the money. When ${amount} with reference ${reference} shows in your bank account, mark it paid here (that moves the credits to them once and sends their invoice):`,
          `${business.publicUrl}/admin/payments?status=pending&provider=eft&q=${encodeURIComponent(reference)}`,
        ].join("\n"),
      });
      await enqueue(tx, {
        channel: "email",
        recipient: partner.email,
        subject: `${business.companyName}: EFT details for ${what} (${reference})`,
        body: [
          `Hi ${partner.name.split(" ")[0]},`,
          "",
          `To pay ${amount} for ${what} by EFT, use these details:`,
          "",
          `Bank: ${bank.bank_name}`,
          `Account name: ${bank.account_name}`,
          `Account number: ${bank.account_number}`,
          `Branch code: ${bank.branch_code}`,
          ...(bank.account_type.trim() ? [`Account type: ${bank.account_type}`] : []),
          `Amount: ${amount}`,
          `Reference: ${reference}`,
          "",
          "Use the reference exactly as shown: it is how we match your payment. The credits are added to your partner account as soon as the money reflects, and we e-mail you then.",
          "",
          signOff(business),
        ].join("\n"),
        kind: "eft-details",
        dedupe_key: `eft:${payment.id}`,
      });
      return { payment, created };
    });
    if (made) {
      app.outbox.nudge();
      return { order: toOrderView(made.created, made.payment), pay_url: null, bank };
    }
  }
  throw new AppError(503, "unavailable", "We could not make a payment reference just now. Please try again.");
}

// ---- delivery: the credits moved once the order is paid -----------------------------------------

const keyOf = (order: Order) => (order.attempt === 0 ? `order:${order.id}` : `order:${order.id}:${order.attempt}`);

/**
 * Moves a paid order's credits to the partner: one transfer keyed on the order (and attempt), so
 * however many processes or sweeps get here, adjust_credits is sent once. A refusal (the owner's
 * balance is short) or an outcome the panel lost is the owner's to sort out, and they are told;
 * a panel out of reach is tried again by the next sweep.
 */
export async function deliverOrder(app: FastifyInstance, orderId: string, options: { retryFailed?: boolean } = {}): Promise<void> {
  // From the change feed only a paid order: a failed one's own update would otherwise send it again at once.
  const due = options.retryFailed === false ? ["paid"] : ["paid", "failed"];
  const [order] = await app.db
    .select()
    .from(partnerCreditOrders)
    .where(and(eq(partnerCreditOrders.id, orderId), inArray(partnerCreditOrders.status, due)));
  if (!order) return;
  const [partner] = await app.db.select().from(resellers).where(eq(resellers.id, order.reseller_id));
  if (!partner) return;
  const [payment] = await app.db.select().from(capturedPayments).where(eq(capturedPayments.id, order.payment_id));
  const actor = { kind: "partner" as const, id: partner.id, username: partner.username };
  const what = plural(order.credits);
  try {
    const { transfer } = await transferCredits(app, actor, partner, {
      credits: order.credits,
      note: `Bought from the shop (${payment?.external_transaction_id ?? order.id})`,
      cause: `order:${order.id}`,
      key: keyOf(order),
    });
    const business = await loadBusiness(app);
    const delivered = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .update(partnerCreditOrders)
        .set({ status: "delivered", transfer_id: transfer.id, error: "", delivered_at: new Date() })
        .where(and(eq(partnerCreditOrders.id, order.id), inArray(partnerCreditOrders.status, ["paid", "failed"])))
        .returning();
      if (!row) return false;
      await enqueue(tx, {
        channel: "email",
        recipient: partner.email,
        subject: `${business.companyName}: ${what} added to your partner account`,
        body: [
          `Hi ${partner.name.split(" ")[0]},`,
          "",
          `The ${what} you paid for are in your partner account${transfer.partner_after !== null ? `: you now have ${plural(transfer.partner_after)}` : ""}.`,
          `Sell lines to your customers at ${business.publicUrl}/partner`,
          "",
          signOff(business),
        ].join("\n"),
        kind: "partner-credits",
        dedupe_key: `partner-credits:${order.id}:${order.attempt}`,
      });
      return true;
    });
    if (delivered) app.outbox.nudge();
  } catch (error) {
    const code = error instanceof AppError ? error.code : "";
    if (code === "transfer_in_progress") return; // another process is moving them now
    const message = error instanceof Error ? error.message : String(error);
    const status =
      code === "insufficient_credits" || code === "not_on_panel" ? "refused" : code === "transfer_unknown" ? "unknown" : "failed";
    if (status === "failed") app.log.warn({ err: error, order: order.id }, "partner credits not moved yet: tried again later");
    // The order's new status and the owner's alert together, once (the alert's dedupe key).
    const queued = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .update(partnerCreditOrders)
        .set({ status, error: message.slice(0, 500) })
        .where(and(eq(partnerCreditOrders.id, order.id), inArray(partnerCreditOrders.status, ["paid", "failed"])))
        .returning({ id: partnerCreditOrders.id });
      if (!row || status === "failed") return 0;
      return alertOwner(app, tx, {
        cause: "panel-failed",
        dedupeKey: `owner-alert:partner-order:${order.id}:${order.attempt}`,
        subject: `Paid credits not moved: ${what} for partner ${partner.name}`,
        body: [
          `${partner.name} paid for ${what} (${payment?.external_transaction_id ?? ""}), but they could not be moved to them: ${message}`,
          "",
          status === "refused"
            ? `Top up your panel, then send the order again on ${publicUrlOf(app)}/admin/resellers.`
            : `Check ${partner.name}'s credits on your panel before sending it again on ${publicUrlOf(app)}/admin/resellers.`,
        ].join("\n"),
      });
    });
    if (queued) app.outbox.nudge();
  }
}

/** Every paid order not yet delivered (and those whose panel was out of reach), oldest first. */
export async function deliverPaidOrders(app: FastifyInstance, resellerId?: string): Promise<void> {
  const due = await app.db
    .select({ id: partnerCreditOrders.id })
    .from(partnerCreditOrders)
    .where(
      and(
        inArray(partnerCreditOrders.status, ["paid", "failed"]),
        resellerId ? eq(partnerCreditOrders.reseller_id, resellerId) : undefined,
      ),
    )
    .orderBy(partnerCreditOrders.paid_at)
    .limit(20);
  for (const { id } of due) await deliverOrder(app, id);
}

/**
 * The owner sends a refused (or unknown, once checked) order again: a new attempt, so a new
 * ledger key; the conditional update lets one request start it however many arrive.
 */
export async function retryOrder(app: FastifyInstance, orderId: string): Promise<void> {
  const [row] = await app.db
    .update(partnerCreditOrders)
    .set({ status: "paid", attempt: sqlIncrement(), error: "" })
    .where(and(eq(partnerCreditOrders.id, orderId), inArray(partnerCreditOrders.status, ["refused", "unknown"])))
    .returning();
  if (!row) {
    const [exists] = await app.db.select().from(partnerCreditOrders).where(eq(partnerCreditOrders.id, orderId));
    if (!exists) throw notFound("No such order.");
    throw conflict("Only an order whose credits were refused or not confirmed can be sent again.");
  }
  await deliverOrder(app, orderId);
}

const sqlIncrement = () => sql`${partnerCreditOrders.attempt} + 1`;

/** Each app's deliveries and take-backs started from the change feed and not finished yet. */
const deliveries = new WeakMap<FastifyInstance, Set<Promise<void>>>();

/** Resolves once the deliveries and take-backs the change feed has started in `app` have finished (tests wait on it). */
export async function paidOrderWorkSettled(app: FastifyInstance): Promise<void> {
  const running = deliveries.get(app);
  while (running?.size) await Promise.allSettled([...running]);
}

/**
 * Paid orders are delivered as soon as any process hears of them on the change feed, and swept
 * every minute where jobs run (a notification missed while the LISTEN connection was down); a
 * refunded order's credits are taken back the same way (order-refunds.ts).
 */
export function watchPaidOrders(app: FastifyInstance): () => void {
  const running = new Set<Promise<void>>();
  deliveries.set(app, running);
  const track = (work: Promise<void>) => {
    const p = work.catch((error) => app.log.warn({ err: error }, "partner credits delivery failed")).finally(() => running.delete(p));
    running.add(p);
  };
  const sweep = async () => {
    await deliverPaidOrders(app);
    await takeBackRecentRefunds(app);
  };
  const off = app.changes.onChange((change) => {
    if (change.table === "partner_credit_orders" && change.op === "UPDATE" && change.id)
      track(deliverOrder(app, change.id, { retryFailed: false }));
    // A refund updates its payment (order-refunds.ts: nothing unless the payment is an order with a credit note).
    if (change.table === "captured_payments" && change.op === "UPDATE" && change.id) track(takeBackRefunds(app, change.id));
  });
  const offResync = app.changes.onResync(() => track(sweep()));
  const timer = app.config.JOBS === "on" ? setInterval(() => track(sweep()), 60_000) : null;
  timer?.unref();
  return () => {
    off();
    offResync();
    if (timer) clearInterval(timer);
  };
}
