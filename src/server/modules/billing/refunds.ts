// Refunds with credit notes (docs/architecture.md, "Billing").
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { HostedProviderName } from "@/server/adapters/payments/provider";
import { capturedPayments, refundAttempts } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { loadRules } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { REFUND_TOO_MUCH, type RefundRequest, type RefundResult } from "@/shared/billing";
import { fromCents, toCents } from "@/shared/money";
import { recordRefund } from "./credit-notes";
import { documentRand } from "./pdf";
import {
  type Attempt,
  hostedProvidersFor,
  providerFor,
  REFUND_UNDER_WAY,
  recordMadeAttempt,
  refundAtProvider,
  settleOpenAttempt,
} from "./provider-refunds";
export const ONLY_PAID_REFUNDS = "Only a paid payment can be refunded.";
export const REFUNDED_IN_FULL = "This payment was refunded in full already.";
export const PROVIDER_REFUND_FAILED =
  "The card provider did not accept the refund. Nothing was recorded; try again, or refund it in the provider's portal and record it as paid back by hand.";

/**
 * POST /api/admin/payments/:id/refund, in steps so money and records cannot part:
 *   0. a provider refund of this payment whose answer was lost is settled first (looked up at the
 *      provider: made → its credit note, and this request stops there; not made → released);
 *   1. under the payment's row lock, the amount is checked against what is left and held
 *      (refunded_amount grows), so a second refund at the same moment sees less left; a provider
 *      refund also writes its refund_attempts row (our refund id; one open per payment);
 *   2. the provider refunds it, when it has a refund API (outside any transaction: a network call
 *      must not hold the database). Refused → the hold is released. Answer lost → looked up at
 *      once; made → on to 3; not made → released; cannot tell → the hold stays and the payment's
 *      notes say so (a 502 the owner reads), so it is never refunded twice;
 *   3. in one transaction: a credit note takes the next number of its series, the payment's
 *      status follows, the term changes through the lifecycle module (cause 'refund', once per
 *      credit note), the audit entry and the client's "Refund issued" message(s) are written.
 * A request refused in step 1 or 2 leaves nothing behind and uses no number.
 */
export async function refundPayment(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  input: RefundRequest,
): Promise<RefundResult> {
  const business = await loadBusiness(app);
  const rules = await loadRules(app);
  // Read before the transactions: PGlite has one connection, which a transaction holds.
  const templates = await loadTemplates(app.db);
  const provider = providerFor(app);
  const context = { business, rules, templates, request };

  await settleOpenAttempt(app, id, context);

  const reserved = await app.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(capturedPayments).where(eq(capturedPayments.id, id)).for("update");
    if (!payment) throw notFound("No payment with that id.");
    if (payment.status === "refunded") throw conflict(REFUNDED_IN_FULL);
    if (payment.status !== "paid") throw conflict(ONLY_PAID_REFUNDS);
    const paidCents = toCents(payment.amount);
    const leftCents = paidCents - toCents(payment.refunded_amount ?? 0);
    const cents = input.amount === undefined ? leftCents : toCents(input.amount);
    if (cents <= 0) throw conflict(REFUNDED_IN_FULL);
    if (cents > leftCents) throw badRequest(REFUND_TOO_MUCH, { amount: `${REFUND_TOO_MUCH} (${documentRand(leftCents)} left)` });
    const [open] = await tx
      .select({ id: refundAttempts.id })
      .from(refundAttempts)
      .where(and(eq(refundAttempts.payment_id, id), inArray(refundAttempts.state, ["pending", "made"])));
    if (open) throw conflict(REFUND_UNDER_WAY);
    await tx
      .update(capturedPayments)
      .set({ refunded_amount: fromCents(paidCents - leftCents + cents), updated_at: new Date() })
      .where(eq(capturedPayments.id, id));
    const hosted = payment.provider === provider?.name ? undefined : hostedProvidersFor(app).get(payment.provider as HostedProviderName);
    let attempt: Attempt | undefined;
    if (hosted?.refund && !input.by_hand) {
      [attempt] = await tx
        .insert(refundAttempts)
        .values({
          payment_id: id,
          provider: payment.provider,
          amount_cents: cents,
          request: { reason: input.reason, term: input.term, days: input.days },
          admin_id: request.admin?.id ?? null,
        })
        .returning();
    }
    return { payment, cents, whole: cents === paidCents, hosted, attempt };
  });
  const { payment, cents, whole, hosted, attempt } = reserved;
  const release = () =>
    app.db
      .update(capturedPayments)
      .set({ refunded_amount: sql`${capturedPayments.refunded_amount} - ${fromCents(cents)}` })
      .where(eq(capturedPayments.id, id));

  if (hosted && attempt) {
    const made = await refundAtProvider(app, hosted, attempt, payment, input.reason, release);
    return recordMadeAttempt(app, context, made, payment, input);
  }

  let method: "provider" | "manual" = "manual";
  let providerReference: string | null = null;
  // The card provider's refund API, where it has one (the registry's capabilities.refundByApi).
  if (!input.by_hand && provider?.refund && payment.provider === provider.name && payment.provider_reference) {
    try {
      providerReference = (await provider.refund(payment.provider_reference, cents)).reference;
      method = "provider";
    } catch (error) {
      app.log.error({ err: error, ref: payment.external_transaction_id }, "card provider refused a refund");
      await release();
      throw new AppError(502, "payment_provider", PROVIDER_REFUND_FAILED);
    }
  }

  try {
    const { creditNoteId: _id, ...result } = await app.db.transaction((tx) =>
      recordRefund(tx, {
        ...context,
        payment,
        cents,
        whole,
        method,
        providerReference,
        route: method === "provider" ? "card" : null,
        input,
      }),
    );
    app.outbox.nudge();
    return result;
  } catch (error) {
    if (method === "manual") await release();
    // Money went back through the provider but the credit note could not be written: keep the reservation so it is never refunded twice.
    else
      app.log.error(
        { err: error, ref: payment.external_transaction_id, providerReference },
        "refund made at the provider but not recorded",
      );
    throw error;
  }
}
