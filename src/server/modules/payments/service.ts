// Card pay links, the provider webhook, payment status and EFT references.
// Rules (docs/architecture.md, "Payments"): the server prices the package (special included)
// and never trusts an amount from the browser; every payment belongs to a person (the signed-in
// client, or a lead made from the payer's name and WhatsApp number, linked to the client they
// already are); a payment is marked paid only after a verified callback (or our own status
// query) AND the provider's own status shows it paid for the amount we priced; each payment is
// captured once, and settled (account, term, receipt) in the same transaction (settle.ts).

import { randomInt } from "node:crypto";
import { and, eq, inArray, like, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  type CallbackRequest,
  type Checkout,
  type HostedProvider,
  type HostedProviderName,
  NotificationRefused,
  type NotificationRequest,
  type PaylinkStatusResult,
  PaymentProviderError,
  type ProviderNotification,
  statusFromProvider,
} from "@/server/adapters/payments/provider";
import type { SandboxOutcome, SandboxPaylink } from "@/server/adapters/payments/sandbox";
import { capturedPayments, clients, outbox, provisioningJobs } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, notFound, uniqueViolation } from "@/server/lib/errors";
import { loadRules } from "@/server/lib/lifecycle";
import { appendNote } from "@/server/lib/notes";
import { checkNewLineMac } from "@/server/modules/panel/mac-change";
import type { PaymentMessage, PaymentMessageKind, PaymentMessageState, PaymentOutcome, PaymentStatusView } from "@/shared/api";
import { toCents } from "@/shared/money";
import { PAYMENT_METHOD_MESSAGE, paylinkRequestSchema } from "@/shared/schemas";
import { createPaymentsContext, type OrderInput, type PayerSession, type PaymentsServiceOptions, validationError } from "./context";
import { createEft, EFT_REFERENCE_ALPHABET, type EftResponse, eftFor, eftInstead } from "./eft";
import { insertPayment } from "./insert-payment";
import { cardModeFor, paymentMethods } from "./methods";
import { identify, NO_CODE_FOR_THIS_PAYER, NOT_YOUR_ACCOUNT, REPLY_NOT_RECEIVED, resolvePayer } from "./payer";
import { checkCoupon, priceActivePackage, priceOrder } from "./pricing";
import { sentTo, settlePayment } from "./settle";

export type { OrderInput, PayerSession, PaymentsServiceOptions };
export {
  cardModeFor,
  EFT_REFERENCE_ALPHABET,
  type EftResponse,
  NO_CODE_FOR_THIS_PAYER,
  NOT_YOUR_ACCOUNT,
  paymentMethods,
  REPLY_NOT_RECEIVED,
};

// ---- response shapes (the contract the web app reads) -------------------------------------

export interface PaylinkResponse {
  success: true;
  paylinkUrl: string;
  externalTransactionID: string;
}

// ---- constants ------------------------------------------------------------------------------

/** Spec §7: 'a fixed product prefix, underscore, a timestamp and random text'. */
export const TRANSACTION_PREFIX = "STRMDSK";
/** A pending card payment is re-checked with the provider at most this often when its status is read. */
const RECONCILE_EVERY_MS = 10_000;
const RECONCILE_MEMORY = 1000;

export const PAYLINK_FAILED_MESSAGE = "Failed to create payment link";

const callbackSchema = z.looseObject({
  paylinkID: z.string().min(1).max(200),
  status: z.string().min(1).max(50),
  externalTransactionID: z.string().min(1).max(200),
  responseCode: z.union([z.string(), z.number()]).optional(),
});

type Payment = typeof capturedPayments.$inferSelect;
export type SandboxAction = "pay" | "decline" | "cancel";

const SANDBOX_OUTCOMES: Record<SandboxAction, SandboxOutcome> = { pay: "SUCCESS", decline: "FAILURE", cancel: "CANCELLED" };
const RESULT_PAGES: Record<string, string> = { SUCCESS: "success", FAILURE: "failure", CANCELLED: "cancel" };

/** Card payments are off: a real shop with no card provider configured (EFT still works). */
export const CARD_OFF_MESSAGE = "Card payments are not available at the moment. Please pay by EFT instead.";
/** Where each hosted provider sends its notifications (the routes in routes.ts). */
export const NOTIFY_PATHS: Record<HostedProviderName, string> = {
  payfast: "/api/payments/payfast/itn",
  ozow: "/api/payments/ozow/notify",
  yoco: "/api/payments/yoco/webhook",
};
const notifyPath = (name: HostedProviderName) => NOTIFY_PATHS[name];

/**
 * Notifications answered before they are processed (PayFast's ITN is answered 200 at once):
 * the work still running, so a test (or a shutdown) can wait for it.
 */
const notificationsInFlight = new Set<Promise<void>>();

/** Resolves once every notification being processed after its answer has finished. */
export async function paymentNotificationsSettled(): Promise<void> {
  while (notificationsInFlight.size) await Promise.allSettled([...notificationsInFlight]);
}

export function makeTransactionId(now = Date.now()): string {
  let random = "";
  for (let i = 0; i < 10; i++) random += randomInt(36).toString(36);
  return `${TRANSACTION_PREFIX}_${now}_${random}`;
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export function createPaymentsService(app: FastifyInstance, options: PaymentsServiceOptions = {}) {
  const { db } = app;
  const ctx = createPaymentsContext(app, options);
  const { publicUrl, active, cardMode, hosted, payfastSource, lastReconciled } = ctx;
  const provider = active.provider;

  // ---- card pay links -----------------------------------------------------------------------

  async function createPaylink(body: unknown, session: PayerSession = { clientId: null }): Promise<PaylinkResponse> {
    const parsed = paylinkRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return paylinkFor(parsed.data, session, body);
  }

  /** A pay link for a package. `input.immediateStartConsent` is the payer's ECT s44 consent (a renewal from the portal has none). */
  async function paylinkFor(input: OrderInput, session: PayerSession, body: unknown = input): Promise<PaylinkResponse> {
    if (input.method && input.method !== "card") return checkoutFor(input.method, input, session, body);
    if (cardMode === "off") throw new AppError(409, "card_payments_off", CARD_OFF_MESSAGE);
    const order = await priceOrder(ctx, input, session);
    const { pkg, amountCents } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(ctx, input, session, pkg.name, body);

    const ref = makeTransactionId();
    const description = `${pkg.name} IPTV Subscription`;
    const payment = await insertPayment(db, { provider: provider.name, reference: ref, order, payer, input, email: payer.email });
    if (!payment) throw new Error(`payment reference ${ref} already taken`);

    const q = `?ref=${encodeURIComponent(ref)}`;
    try {
      const link = await provider.createPaylink({
        amountCents,
        currency: "ZAR",
        description,
        externalTransactionID: ref,
        urls: {
          callbackUrl: `${publicUrl}/api/payments/webhook/${provider.name}`,
          successPageUrl: `${publicUrl}/payment/success${q}`,
          failurePageUrl: `${publicUrl}/payment/failure${q}`,
          cancelUrl: `${publicUrl}/payment/cancel${q}`,
        },
      });
      await db
        .update(capturedPayments)
        .set({ provider_reference: link.paylinkID, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { success: true, paylinkUrl: link.paylinkUrl, externalTransactionID: ref };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      app.log.error({ err: error, ref }, "payment provider failed to create a pay link");
      await db
        .update(capturedPayments)
        .set({ status: "failed", notes: `Pay link not created: ${reason}`.slice(0, 2000), updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
    }
  }

  // ---- hosted providers: PayFast, Ozow, Yoco ----------------------------------------------------

  function hostedOrRefuse(name: string): HostedProvider {
    const found = hosted.get(name as HostedProviderName);
    if (!found) throw badRequest(PAYMENT_METHOD_MESSAGE, { method: PAYMENT_METHOD_MESSAGE });
    return found;
  }

  /** What the provider's checkout is started with, for a payment row (the same every time it is asked). */
  function checkoutInput(payment: Pick<Payment, "external_transaction_id" | "amount" | "description" | "provider">) {
    const ref = payment.external_transaction_id;
    const q = `?ref=${encodeURIComponent(ref)}`;
    return {
      amountCents: toCents(payment.amount),
      description: payment.description,
      reference: ref,
      urls: {
        notifyUrl: `${publicUrl}${notifyPath(payment.provider as HostedProviderName)}`,
        successUrl: `${publicUrl}/payment/success${q}`,
        failureUrl: `${publicUrl}/payment/failure${q}`,
        cancelUrl: `${publicUrl}/payment/cancel${q}`,
      },
    };
  }

  /**
   * A pay link through PayFast, Ozow or Yoco: the same pricing, payer and pending row as a card
   * pay link, then the provider's checkout. Yoco makes a checkout by API and gives its URL; PayFast
   * and Ozow take a signed form post, which our hand-off page (/api/payments/checkout/:ref) sends.
   */
  async function checkoutFor(method: string, input: OrderInput, session: PayerSession, body: unknown): Promise<PaylinkResponse> {
    const chosen = hostedOrRefuse(method);
    const order = await priceOrder(ctx, input, session);
    const { pkg } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(ctx, input, session, pkg.name, body);
    const ref = makeTransactionId();
    const payment = await insertPayment(db, { provider: chosen.name, reference: ref, order, payer, input, email: payer.email });
    if (!payment) throw new Error(`payment reference ${ref} already taken`);
    try {
      const checkout = await chosen.startCheckout(checkoutInput(payment));
      if (checkout.kind === "redirect") {
        await db
          .update(capturedPayments)
          .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
          .where(eq(capturedPayments.id, payment.id));
        return { success: true, paylinkUrl: checkout.url, externalTransactionID: ref };
      }
      return { success: true, paylinkUrl: `${publicUrl}/api/payments/checkout/${encodeURIComponent(ref)}`, externalTransactionID: ref };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      app.log.error({ err: error, ref, provider: chosen.name }, "payment provider failed to start a checkout");
      await db
        .update(capturedPayments)
        .set({ status: "failed", notes: `Checkout not started at ${chosen.label}: ${reason}`.slice(0, 2000), updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
    }
  }

  /**
   * GET /api/payments/checkout/:ref: the signed form that carries a pending PayFast or Ozow payment
   * to the provider's page; a payment already settled sends the browser to its result page.
   */
  async function checkoutPage(
    ref: string,
  ): Promise<
    { kind: "form"; label: string; checkout: Extract<Checkout, { kind: "form" }>; amount: number } | { kind: "redirect"; location: string }
  > {
    const payment = await findPayment(ref);
    const provider = payment ? hosted.get(payment.provider as HostedProviderName) : undefined;
    if (!payment || !provider) throw notFound("No such payment.");
    const q = `?ref=${encodeURIComponent(ref)}`;
    if (payment.status === "paid" || payment.status === "refunded") return { kind: "redirect", location: `/payment/success${q}` };
    if (payment.status !== "pending")
      return { kind: "redirect", location: `/payment/${payment.status === "cancelled" ? "cancel" : "failure"}${q}` };
    const checkout = await provider.startCheckout(checkoutInput(payment));
    if (checkout.kind === "redirect") return { kind: "redirect", location: checkout.url };
    return { kind: "form", label: provider.label, checkout, amount: payment.amount };
  }

  /**
   * A hosted provider's notification, read and checked before anything is looked up: bad input
   * (missing fields, wrong types, not ZAR) is a 400; a bad signature is a 401 where `strict`, else
   * (PayFast, whose ITN is answered 200 whatever happens) only noted. Returns the rest of the work:
   * find our payment, ask the provider's server, capture through the one capture path.
   */
  async function takeNotification(
    name: HostedProviderName,
    request: NotificationRequest,
    options: { strict: boolean; source?: string },
  ): Promise<() => Promise<void>> {
    const provider = hosted.get(name);
    if (!provider) throw notFound("No such payment provider.");
    let notification: ProviderNotification;
    try {
      notification = provider.readNotification(request);
    } catch (error) {
      if (!(error instanceof NotificationRefused)) throw error;
      // Logged by field name and reason only: no body, no signature, no key.
      app.log.warn({ provider: name, reason: error.kind, fields: Object.keys(error.fields), ref: error.reference }, error.message);
      if (error.kind === "bad_input") throw badRequest(error.message, error.fields);
      const note = `Not captured: a notification from ${provider.label} for this payment was refused (${error.message})`;
      if (error.reference) await notePending(name, error.reference, note);
      else if (error.checkoutId) {
        const [claimed] = await db
          .select({ ref: capturedPayments.external_transaction_id })
          .from(capturedPayments)
          .where(and(eq(capturedPayments.provider, name), eq(capturedPayments.provider_reference, error.checkoutId)))
          .limit(1);
        if (claimed) await notePending(name, claimed.ref, note);
      }
      if (options.strict) throw new AppError(401, "invalid_signature", "The notification signature is not valid.");
      return async () => undefined;
    }
    if (name === "payfast") {
      // PayFast's source check, after the answer (the lookup may take a moment): an ITN from an
      // address that is not PayFast's captures nothing, and the owner sees why on the payment.
      return async () => {
        if (!(await payfastSource.allows(options.source))) {
          app.log.warn(
            { provider: name, ref: notification.reference, source: options.source },
            "PayFast ITN from an address not PayFast's",
          );
          if (notification.reference) {
            await notePending(
              name,
              notification.reference,
              `Not captured: a notification from PayFast for this payment came from ${options.source ?? "an unknown address"}, which is not one of PayFast's (PAYFAST_VALID_IPS lists others).`,
            );
          }
          return;
        }
        await settleNotification(provider, notification, options);
      };
    }
    return () => settleNotification(provider, notification, options);
  }

  /** Runs work after the answer has gone, tracked (paymentNotificationsSettled) and never thrown. */
  function inBackground(work: () => Promise<void>): void {
    const running = work()
      .catch((error) => {
        app.log.error({ err: error }, "payment notification processing failed");
      })
      .finally(() => notificationsInFlight.delete(running));
    notificationsInFlight.add(running);
  }

  /** A note on a pending payment of this provider, for the owner (the dashboard's payment shows it). */
  async function notePending(provider: string, ref: string, note: string): Promise<void> {
    await db
      .update(capturedPayments)
      .set({ notes: appendNote(capturedPayments.notes, note.slice(0, 500)), updated_at: new Date() })
      .where(
        and(
          eq(capturedPayments.external_transaction_id, ref),
          eq(capturedPayments.provider, provider),
          inArray(capturedPayments.status, ["pending", "failed", "cancelled"]),
        ),
      );
  }

  async function settleNotification(provider: HostedProvider, n: ProviderNotification, options: { strict: boolean }): Promise<void> {
    const [payment] = n.reference
      ? await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, n.reference)).limit(1)
      : await db
          .select()
          .from(capturedPayments)
          .where(and(eq(capturedPayments.provider, provider.name), eq(capturedPayments.provider_reference, n.checkoutId ?? "")))
          .limit(1);
    const log = { provider: provider.name, ref: payment?.external_transaction_id ?? n.reference, providerPaymentId: n.providerPaymentId };
    if (!payment || payment.provider !== provider.name) {
      app.log.warn(log, "payment notification for no payment of ours");
      if (options.strict) throw notFound("No such payment.");
      return;
    }
    const ref = payment.external_transaction_id;
    if (payment.status === "paid" || payment.status === "refunded") {
      app.log.info(log, "payment notification replayed: already captured");
      return;
    }
    if (n.status === "failed" || n.status === "cancelled") {
      await markUnpaid(payment.id, n.status, n.payload);
      return;
    }
    if (n.status !== "paid") {
      await notePending(provider.name, ref, `${provider.label} reports ${n.providerStatus}: not paid yet.`);
      return;
    }
    const expected = toCents(payment.amount);
    if (n.amountCents !== expected) {
      app.log.error({ ...log, expected, reported: n.amountCents }, "payment amount mismatch: not captured");
      await notePending(
        provider.name,
        ref,
        `Not captured: ${provider.label} reported ${n.amountCents} cents, we priced ${expected} cents.`,
      );
      return;
    }
    let truth: PaylinkStatusResult;
    try {
      truth = await provider.confirm(n, { reference: ref, providerReference: payment.provider_reference });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      app.log.error({ ...log, reason: error.message }, "payment notification not confirmed by the provider");
      await notePending(
        provider.name,
        ref,
        `Not captured: ${error.message}. Check it at ${provider.label} and mark it paid if the money arrived.`,
      );
      // Not 2xx where the provider delivers again (Ozow, Yoco); PayFast was answered already.
      if (options.strict) throw new AppError(502, "payment_provider", "Could not confirm the payment with the provider.");
      return;
    }
    try {
      await captureIfConfirmed(payment, truth, n.payload, n.providerPaymentId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === "payment_not_confirmed") {
        await notePending(provider.name, ref, `Not captured: ${provider.label}'s own status for it is not paid.`);
      }
      app.log.warn({ ...log, reason: error.code }, "payment notification not captured");
    }
  }

  // ---- the webhook --------------------------------------------------------------------------

  /** POST /api/payments/webhook/:provider — also what the sandbox checkout buttons call. */
  async function handleCallback(providerName: string, request: CallbackRequest): Promise<{ received: true }> {
    if (providerName !== provider.name) throw notFound("No such payment provider.");
    if (!provider.verifyCallback(request)) {
      app.log.warn({ provider: providerName }, "payment callback with a bad signature refused");
      throw new AppError(401, "invalid_signature", "The callback signature is not valid.");
    }
    let json: unknown;
    try {
      json = JSON.parse(request.rawBody);
    } catch {
      throw badRequest("The callback body is not JSON.");
    }
    const parsed = callbackSchema.safeParse(json);
    if (!parsed.success) throw validationError(parsed.error);
    const callback = parsed.data;

    const payment = await findPayment(callback.externalTransactionID);
    if (!payment || payment.provider !== provider.name) throw notFound("No such payment.");
    if (payment.provider_reference && payment.provider_reference !== callback.paylinkID) {
      throw badRequest("The callback does not match this payment.");
    }

    const outcome = statusFromProvider(callback.status);
    if (outcome === "paid") {
      if (payment.status === "paid" || payment.status === "refunded") return { received: true }; // a replay
      let truth: PaylinkStatusResult;
      try {
        truth = await provider.getStatus(payment.provider_reference ?? callback.paylinkID);
      } catch (error) {
        app.log.error({ err: error, ref: payment.external_transaction_id }, "payment status re-check failed");
        // Not 2xx: the provider delivers the callback again later.
        throw new AppError(502, "payment_provider", "Could not confirm the payment with the provider.");
      }
      await captureIfConfirmed(payment, truth, callback);
    } else if (outcome === "failed" || outcome === "cancelled") {
      await markUnpaid(payment.id, outcome, callback);
    }
    return { received: true };
  }

  async function findPayment(ref: string): Promise<Payment | null> {
    const [payment] = await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)).limit(1);
    return payment ?? null;
  }

  async function markUnpaid(paymentId: string, status: "failed" | "cancelled", payload: Record<string, unknown>): Promise<void> {
    await db
      .update(capturedPayments)
      .set({ status, raw_payload: payload, updated_at: new Date() })
      .where(and(eq(capturedPayments.id, paymentId), eq(capturedPayments.status, "pending")));
  }

  /**
   * Marks the payment paid when the provider's own status says paid for exactly our amount.
   * The UPDATE is conditional, so however many deliveries race, one flips it and only that
   * one queues the receipt and extends the subscription (same transaction). A payment marked
   * failed or cancelled can still be captured: the provider's status is the truth, and money
   * taken must never go unrecorded.
   */
  async function captureIfConfirmed(
    payment: Payment,
    truth: PaylinkStatusResult,
    payload: Record<string, unknown>,
    /** the provider's id of the money (pf_payment_id, TransactionId, Yoco payment id): unique per provider */
    providerPaymentId?: string,
  ): Promise<boolean> {
    const ref = payment.external_transaction_id;
    if (truth.status !== "paid") {
      throw new AppError(409, "payment_not_confirmed", "The provider does not report this payment as paid.");
    }
    const expected = toCents(payment.amount);
    if (truth.amountCents !== expected) {
      app.log.error({ ref, expected, reported: truth.amountCents }, "payment amount mismatch: not captured");
      await db
        .update(capturedPayments)
        .set({
          notes: appendNote(
            capturedPayments.notes,
            `Not captured: the provider reported ${truth.amountCents} cents, we priced ${expected} cents.`,
          ),
          updated_at: new Date(),
        })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(409, "amount_mismatch", "The paid amount does not match the order.");
    }

    // Read outside the transaction: PGlite has one connection, which the transaction holds.
    const context = {
      business: await loadBusiness(app),
      rules: await loadRules(app),
      panelMode: app.provisioning.panel.mode,
      cloudApi: app.outbox.cloudApi,
    };
    let captured: boolean;
    try {
      captured = await db.transaction(async (tx) => {
        const now = new Date();
        const [row] = await tx
          .update(capturedPayments)
          .set({
            status: "paid",
            paid_at: now,
            raw_payload: payload,
            updated_at: now,
            ...(providerPaymentId ? { provider_payment_id: providerPaymentId } : {}),
          })
          .where(and(eq(capturedPayments.id, payment.id), inArray(capturedPayments.status, ["pending", "failed", "cancelled"])))
          .returning();
        if (!row) return false;
        await settlePayment(tx, context, row, now);
        return true;
      });
    } catch (error) {
      // The provider's payment id captured another payment already: a replay, nothing new.
      if (uniqueViolation(error) !== "payments_provider_payment_unique") throw error;
      app.log.warn({ ref, provider: payment.provider, providerPaymentId }, "provider payment id already captured: not captured again");
      await notePending(
        payment.provider,
        ref,
        `Not captured: the provider's payment ${providerPaymentId} already paid another of our payments (a replayed notification).`,
      );
      return false;
    }
    if (captured) {
      app.log.info({ ref, provider: payment.provider }, "payment captured");
      app.outbox.nudge();
    }
    return captured;
  }

  // ---- status for the result pages ------------------------------------------------------------

  async function publicStatus(ref: string): Promise<{ data: PaymentStatusView }> {
    let payment = await findPayment(ref);
    if (!payment) throw notFound("No payment with that reference.");
    if (await reconcile(payment)) payment = (await findPayment(ref)) ?? payment;
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
        outcome: await outcomeOf(payment),
      },
    };
  }

  /** What the payment did, for the result page: only what really happened. */
  async function outcomeOf(payment: Payment): Promise<PaymentOutcome> {
    const none: PaymentOutcome = { account: "none", subscription_end: null, suspended: false, sent_to: [], messages: [] };
    if (payment.status !== "paid") return none;
    const messages = await customerMessagesOf(payment);
    if (!payment.client_id) return { ...none, messages };
    const [client] = await db.select().from(clients).where(eq(clients.id, payment.client_id));
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
  async function customerMessagesOf(payment: Payment): Promise<PaymentMessage[]> {
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
   * A result page reads a pending card payment: ask the provider ourselves (throttled per
   * payment), so a lost or unverifiable callback does not leave a paid customer waiting.
   * Same capture rules as the webhook. Returns whether the row may have changed.
   */
  async function reconcile(payment: Payment): Promise<boolean> {
    if (payment.status !== "pending") return false;
    const other = hosted.get(payment.provider as HostedProviderName);
    if (other) return reconcileHosted(payment, other);
    if (payment.provider !== provider.name || !payment.provider_reference) return false;
    const now = Date.now();
    const last = lastReconciled.get(payment.external_transaction_id);
    if (last !== undefined && now - last < RECONCILE_EVERY_MS) return false;
    lastReconciled.set(payment.external_transaction_id, now);
    if (lastReconciled.size > RECONCILE_MEMORY) lastReconciled.delete(lastReconciled.keys().next().value as string);
    try {
      const truth = await provider.getStatus(payment.provider_reference);
      if (truth.status === "paid") await captureIfConfirmed(payment, truth, { source: "status-query", status: "paid" });
      else if (truth.status === "failed" || truth.status === "cancelled") {
        await markUnpaid(payment.id, truth.status, { source: "status-query", status: truth.status });
      } else return false;
      return true;
    } catch (error) {
      if (!(error instanceof AppError) && !(error instanceof PaymentProviderError)) throw error;
      app.log.warn({ err: error, ref: payment.external_transaction_id }, "payment status query did not settle the payment");
      return false;
    }
  }

  /** The same for a hosted provider with a status API (Ozow, Yoco; PayFast has none: its ITN decides). */
  async function reconcileHosted(payment: Payment, other: HostedProvider): Promise<boolean> {
    if (!other.getStatus) return false;
    const now = Date.now();
    const last = lastReconciled.get(payment.external_transaction_id);
    if (last !== undefined && now - last < RECONCILE_EVERY_MS) return false;
    lastReconciled.set(payment.external_transaction_id, now);
    try {
      const truth = await other.getStatus({ reference: payment.external_transaction_id, providerReference: payment.provider_reference });
      if (truth.status === "paid") {
        await captureIfConfirmed(payment, truth, { source: "status-query", status: "paid" }, truth.providerPaymentId);
      } else if (truth.status === "failed" || truth.status === "cancelled") {
        await markUnpaid(payment.id, truth.status, { source: "status-query", status: truth.status });
      } else return false;
      return true;
    } catch (error) {
      if (!(error instanceof AppError) && !(error instanceof PaymentProviderError)) throw error;
      app.log.warn({ err: error, ref: payment.external_transaction_id }, "payment status query did not settle the payment");
      return false;
    }
  }

  // ---- the sandbox's hosted checkout -----------------------------------------------------------

  function sandboxOrNotFound() {
    if (active.kind !== "sandbox" || cardMode !== "sandbox")
      throw notFound("The test checkout is only available when no card provider is configured.");
    return active.provider;
  }

  /** The checkout page's facts, or where to send the browser when the pay link is settled. */
  async function sandboxCheckout(
    ref: string,
  ): Promise<{ kind: "page"; paylink: SandboxPaylink; business: BusinessProfile } | { kind: "redirect"; location: string }> {
    const paylink = await sandboxOrNotFound().find(ref);
    if (!paylink) throw notFound("No such payment.");
    if (paylink.status !== "pending") return { kind: "redirect", location: resultPage(paylink) };
    return { kind: "page", paylink, business: await loadBusiness(app) };
  }

  /** Pay, Decline or Cancel: update the ledger, drive the webhook, answer the result page's path. */
  async function sandboxAction(ref: string, action: SandboxAction): Promise<string> {
    const sandbox = sandboxOrNotFound();
    const result = await sandbox.settle(ref, SANDBOX_OUTCOMES[action]);
    if (!result) throw notFound("No such payment.");
    if (result.settled) {
      const { request } = sandbox.callbackFor(result.paylink);
      try {
        await handleCallback("sandbox", request);
      } catch (error) {
        // The ledger is settled; the result page's status read reconciles with it.
        app.log.error({ err: error, ref }, "sandbox callback was not accepted");
      }
    }
    return resultPage(result.paylink);
  }

  function resultPage(paylink: SandboxPaylink): string {
    const page = RESULT_PAGES[paylink.status];
    const ref = encodeURIComponent(paylink.external_transaction_id);
    return page ? `/payment/${page}?ref=${ref}` : `/api/payments/sandbox/checkout/${ref}`;
  }

  return {
    providerName: provider.name,
    /** which ways to pay are on (GET /api/payments/methods) */
    methods: () => paymentMethods(app),
    takeNotification,
    inBackground,
    checkoutPage,
    /** a package's price today (specials included), as a pay link or EFT reference charges it; 400 when not on sale */
    priceOf: (packageId: string) => priceActivePackage(ctx, packageId),
    paylinkFor,
    eftFor: (input: OrderInput, session: PayerSession, body?: unknown) => eftFor(ctx, input, session, body),
    eftInstead: (ref: string) => eftInstead(ctx, ref),
    /** the path a provider signs for its callbacks to us */
    callbackPath: (name: string) => new URL(`${publicUrl}/api/payments/webhook/${name}`).pathname,
    createPaylink,
    handleCallback,
    publicStatus,
    createEft: (body: unknown, session?: PayerSession) => createEft(ctx, body, session),
    checkCoupon: (body: unknown, session?: PayerSession) => checkCoupon(ctx, body, session),
    identify: (body: unknown, session?: PayerSession) => identify(ctx, body, session),
    sandboxCheckout,
    sandboxAction,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

// ---- the customer's messages about a payment (the result page's "messages") -------------------

const CUSTOMER_KINDS: readonly PaymentMessageKind[] = ["receipt", "welcome", "credentials"];

const STATE_RANK: Record<PaymentMessageState, number> = { failed: 0, queued: 1, owner: 2, sent: 3, delivered: 4, read: 5 };

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
