// Notification intake: a provider's notification (a hosted provider's, or the card provider's
// webhook) is read and verified, our payment found, the provider's own status asked, and the
// money captured through the one capture path (captureIfConfirmed), settled in the same
// transaction (settle.ts). Each payment is captured once, however many deliveries race.
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import {
  type CallbackRequest,
  type HostedProvider,
  type HostedProviderName,
  NotificationRefused,
  type NotificationRequest,
  type PaylinkStatusResult,
  PaymentProviderError,
  type ProviderNotification,
  statusFromProvider,
} from "@/server/adapters/payments/provider";
import { providerDefinition } from "@/server/adapters/payments/registry";
import { capturedPayments } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, notFound, uniqueViolation } from "@/server/lib/errors";
import { loadRules } from "@/server/lib/lifecycle";
import { appendNote } from "@/server/lib/notes";
import { alertOwner, paymentMismatchAlert } from "@/server/lib/owner-alerts";
import { afterCapture, tokenFits } from "@/server/modules/auto-renew/cards";
import { toCents } from "@/shared/money";
import { findPayment, type Payment, type PaymentsContext, validationError } from "./context";
import { settlePayment } from "./settle";

const callbackSchema = z.looseObject({
  paylinkID: z.string().min(1).max(200),
  status: z.string().min(1).max(50),
  externalTransactionID: z.string().min(1).max(200),
  responseCode: z.union([z.string(), z.number()]).optional(),
});

/**
 * Notifications answered before they are processed (a provider's answersNotificationAtOnce):
 * the work still running, so a test (or a shutdown) can wait for it.
 */
const notificationsInFlight = new Set<Promise<void>>();

/** Resolves once every notification being processed after its answer has finished. */
export async function paymentNotificationsSettled(): Promise<void> {
  while (notificationsInFlight.size) await Promise.allSettled([...notificationsInFlight]);
}

/** Runs work after the answer has gone, tracked (paymentNotificationsSettled) and never thrown. */
export function inBackground(ctx: PaymentsContext, work: () => Promise<void>): void {
  const running = work()
    .catch((error) => {
      ctx.app.log.error({ err: error }, "payment notification processing failed");
    })
    .finally(() => notificationsInFlight.delete(running));
  notificationsInFlight.add(running);
}

/**
 * A hosted provider's notification, read and checked before anything is looked up: bad input
 * (missing fields, wrong types, not ZAR) is a 400; a bad signature is a 401 where `strict`, else
 * (a provider answered 200 at once, whatever happens) only noted. Returns the rest of the work:
 * find our payment, ask the provider's server, capture through the one capture path.
 */
export async function takeNotification(
  ctx: PaymentsContext,
  name: HostedProviderName,
  request: NotificationRequest,
  options: { strict: boolean; source?: string },
): Promise<() => Promise<void>> {
  const { app, db } = ctx;
  const provider = ctx.hosted.get(name);
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
    if (error.reference) await notePending(ctx, name, error.reference, note);
    else if (error.checkoutId) {
      const [claimed] = await db
        .select({ ref: capturedPayments.external_transaction_id })
        .from(capturedPayments)
        .where(and(eq(capturedPayments.provider, name), eq(capturedPayments.provider_reference, error.checkoutId)))
        .limit(1);
      if (claimed) await notePending(ctx, name, claimed.ref, note);
    }
    if (options.strict) throw new AppError(401, "invalid_signature", "The notification signature is not valid.");
    return async () => undefined;
  }
  if (notification.ignored) {
    // signed, but nothing this shop acts on (a refund or transfer event, …): acknowledged, not looked up
    app.log.info({ provider: name, event: notification.providerStatus, ref: notification.reference }, "payment notification ignored");
    return async () => undefined;
  }
  const source = ctx.notificationSources.get(name);
  if (source) {
    // The provider's source check, after the answer (the lookup may take a moment): a notification
    // from an address that is not the provider's captures nothing, and the owner sees why on the payment.
    return async () => {
      if (!(await source.allows(options.source))) {
        app.log.warn(
          { provider: name, ref: notification.reference, source: options.source },
          "payment notification from an address that is not the provider's",
        );
        if (notification.reference) await notePending(ctx, name, notification.reference, source.refusedNote(options.source));
        return;
      }
      await settleNotification(ctx, provider, notification, options);
    };
  }
  return () => settleNotification(ctx, provider, notification, options);
}

/** A note on a pending payment of this provider, for the owner (the dashboard's payment shows it). */
async function notePending(ctx: PaymentsContext, provider: string, ref: string, note: string): Promise<void> {
  await ctx.db
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

/** The owner told, once per payment, that money came in for another amount than we priced. */
async function alertMismatch(ctx: PaymentsContext, payment: Payment, reportedCents: number): Promise<void> {
  const provider = providerDefinition(payment.provider)?.sentenceName ?? "The provider";
  await alertOwner(
    ctx.app,
    ctx.db,
    paymentMismatchAlert(ctx.publicUrl, {
      id: payment.id,
      reference: payment.external_transaction_id,
      packageName: payment.package_name,
      provider,
      reportedCents,
      pricedCents: toCents(payment.amount),
    }),
  );
  ctx.app.outbox.nudge();
}

async function settleNotification(
  ctx: PaymentsContext,
  provider: HostedProvider,
  n: ProviderNotification,
  options: { strict: boolean },
): Promise<void> {
  const { app, db } = ctx;
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
    await markUnpaid(ctx, payment.id, n.status, n.payload);
    return;
  }
  if (n.status !== "paid") {
    await notePending(ctx, provider.name, ref, `${provider.label} reports ${n.providerStatus}: not paid yet.`);
    return;
  }
  // A card is kept only by a provider whose cards we charge for renewals, and only when the payer
  // asked (tokenFits: an unasked token is refused, or dropped where the provider names every card).
  const savedCard = provider.savedCards ? n.savedCard : undefined;
  if (savedCard) {
    // A card token we did not ask for, or not this client's: refused, logged (never the token).
    const fits = await tokenFits(db, payment, savedCard.token, provider.savedCards);
    if (!fits.ok) {
      app.log.warn(log, `payment notification refused: ${fits.why}`);
      await notePending(ctx, provider.name, ref, `Not captured: a notification from ${provider.label} was refused (${fits.why}).`);
      return;
    }
  }
  const expected = toCents(payment.amount);
  if (n.amountCents !== expected) {
    app.log.error({ ...log, expected, reported: n.amountCents }, "payment amount mismatch: not captured");
    await notePending(
      ctx,
      provider.name,
      ref,
      `Not captured: ${provider.label} reported ${n.amountCents} cents, we priced ${expected} cents.`,
    );
    await alertMismatch(ctx, payment, n.amountCents);
    return;
  }
  let truth: PaylinkStatusResult;
  try {
    truth = await provider.confirm(n, { reference: ref, providerReference: payment.provider_reference });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    app.log.error({ ...log, reason: error.message }, "payment notification not confirmed by the provider");
    await notePending(
      ctx,
      provider.name,
      ref,
      `Not captured: ${error.message}. Check it at ${provider.label} and mark it paid if the money arrived.`,
    );
    // Not 2xx where the provider delivers again; one answered at once was answered already.
    if (options.strict) throw new AppError(502, "payment_provider", "Could not confirm the payment with the provider.");
    return;
  }
  try {
    await captureIfConfirmed(ctx, payment, truth, n.payload, n.providerPaymentId, savedCard);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "payment_not_confirmed") {
      await notePending(ctx, provider.name, ref, `Not captured: ${provider.label}'s own status for it is not paid.`);
    }
    app.log.warn({ ...log, reason: error.code }, "payment notification not captured");
  }
}

/** POST /api/payments/webhook/:provider — also what the test checkout's buttons call. */
export async function handleCallback(ctx: PaymentsContext, providerName: string, request: CallbackRequest): Promise<{ received: true }> {
  const { app } = ctx;
  const provider = ctx.active.provider;
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

  const payment = await findPayment(ctx, callback.externalTransactionID);
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
    await captureIfConfirmed(ctx, payment, truth, callback);
  } else if (outcome === "failed" || outcome === "cancelled") {
    await markUnpaid(ctx, payment.id, outcome, callback);
  }
  return { received: true };
}

/** A pending payment the provider says failed or was cancelled (a paid one is never unpaid). */
export async function markUnpaid(
  ctx: PaymentsContext,
  paymentId: string,
  status: "failed" | "cancelled",
  payload: Record<string, unknown>,
): Promise<void> {
  await ctx.db
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
export async function captureIfConfirmed(
  ctx: PaymentsContext,
  payment: Payment,
  truth: PaylinkStatusResult,
  payload: Record<string, unknown>,
  /** the provider's id of the money (ProviderNotification.providerPaymentId): unique per provider */
  providerPaymentId?: string,
  /** the card the provider kept (its saved-card token), for a payer who chose automatic renewal */
  savedCard?: { token: string; label: string },
): Promise<boolean> {
  const { app, db } = ctx;
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
    await alertMismatch(ctx, payment, truth.amountCents);
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
      const settled = await settlePayment(tx, context, row, now);
      await afterCapture(tx, row, settled.client?.id ?? row.client_id, payment.provider, savedCard, now);
      return true;
    });
  } catch (error) {
    // The provider's payment id captured another payment already: a replay, nothing new.
    if (uniqueViolation(error) !== "payments_provider_payment_unique") throw error;
    app.log.warn({ ref, provider: payment.provider, providerPaymentId }, "provider payment id already captured: not captured again");
    await notePending(
      ctx,
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
