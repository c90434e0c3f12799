// Refunds through a hosted provider's refund API: an attempt row per refund, so a lost answer is
// looked up before anything is sent again and a refund is never made or recorded twice.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type HostedProvider,
  type HostedProviderName,
  type PaymentProvider,
  type ProviderRefund,
  type ProviderRefundRequest,
  RefundOutcomeUnknown,
  type RefundRoute,
} from "@/server/adapters/payments/provider";
import { selectHostedProviders, selectPaymentProvider } from "@/server/adapters/payments/select-provider";
import type { Db } from "@/server/db/client";
import { capturedPayments, creditNotes, refundAttempts } from "@/server/db/schema";
import type { loadBusiness } from "@/server/lib/business";
import { AppError, conflict } from "@/server/lib/errors";
import type { loadRules } from "@/server/lib/lifecycle";
import type { OwnerTemplates } from "@/server/lib/message-templates";
import { appendNote } from "@/server/lib/notes";
import type { RefundRequest, RefundResult } from "@/shared/billing";
import { formatDateTime } from "@/shared/dates";
import { formatRand, fromCents, toCents } from "@/shared/money";
import { recordRefund } from "./credit-notes";
import { documentRand } from "./pdf";

/** An open provider refund younger than this may still be in flight (the adapters wait 10 s, then look it up). */
const OPEN_REFUND_IN_FLIGHT_MS = 60_000;
export const REFUND_UNDER_WAY = "A refund of this payment is with the payment provider right now. Try again in a minute.";

type Business = Awaited<ReturnType<typeof loadBusiness>>;
type Rules = Awaited<ReturnType<typeof loadRules>>;
export type Attempt = typeof refundAttempts.$inferSelect;
type Payment = typeof capturedPayments.$inferSelect;

/** The request a refund attempt stands for, as the adapters take it. */
function providerRequest(attempt: Attempt, payment: Payment, reason: string): ProviderRefundRequest {
  return {
    refundId: attempt.id,
    payment: {
      reference: payment.external_transaction_id,
      providerReference: payment.provider_reference,
      providerPaymentId: payment.provider_payment_id,
      amountCents: toCents(payment.amount),
    },
    amountCents: attempt.amount_cents,
    reason,
  };
}

/** The references of this payment's provider refunds recorded already (a lookup must not take one of them for ours). */
async function knownRefunds(db: Db, paymentId: string): Promise<string[]> {
  const rows = await db
    .select({ ref: creditNotes.provider_reference })
    .from(creditNotes)
    .where(and(eq(creditNotes.payment_id, paymentId), eq(creditNotes.method, "provider")));
  return rows.flatMap((r) => (r.ref ? [r.ref] : []));
}

const rand = (cents: number) => formatRand(fromCents(cents));

/** Step 2 for a hosted provider with a refund API: the attempt ends `made` (returned), or `failed` / left `pending` (thrown). */
export async function refundAtProvider(
  app: FastifyInstance,
  hosted: HostedProvider,
  attempt: Attempt,
  payment: Payment,
  reason: string,
  release: () => Promise<unknown>,
): Promise<Attempt> {
  const req = providerRequest(attempt, payment, reason);
  const fail = async (detail: string) => {
    await app.db
      .update(refundAttempts)
      .set({ state: "failed", detail: detail.slice(0, 500), updated_at: new Date() })
      .where(and(eq(refundAttempts.id, attempt.id), eq(refundAttempts.state, "pending")));
    await release();
  };
  const log = { ref: payment.external_transaction_id, refund: attempt.id, provider: hosted.name };

  let mark: string | null = null;
  try {
    mark = (await hosted.prepareRefund?.(req))?.mark ?? null;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    app.log.warn({ ...log, reason: why }, "provider will not take a refund");
    await fail(why);
    throw new AppError(502, "payment_provider", `${hosted.label} did not take the refund: ${why} Nothing was refunded or recorded.`);
  }
  const sentAt = new Date();
  await app.db.update(refundAttempts).set({ mark, sent_at: sentAt, updated_at: sentAt }).where(eq(refundAttempts.id, attempt.id));

  let made: ProviderRefund | null;
  try {
    made = await (hosted.refund as NonNullable<HostedProvider["refund"]>)(req, mark);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (!(error instanceof RefundOutcomeUnknown)) {
      app.log.warn({ ...log, reason: why }, "provider refused a refund");
      await fail(why);
      throw new AppError(502, "payment_provider", `${hosted.label} did not accept the refund: ${why} Nothing was recorded; try again.`);
    }
    // The answer was lost: ask the provider what it holds before anything else is sent.
    app.log.warn({ ...log, reason: why }, "provider's answer to a refund was lost; looking it up");
    try {
      made = (await hosted.findRefund?.(req, { mark, sentAt, known: await knownRefunds(app.db, payment.id) })) ?? null;
    } catch (lookup) {
      await leavePending(app, attempt, hosted.label, `${why}; ${lookup instanceof Error ? lookup.message : String(lookup)}`);
      throw new AppError(502, "refund_unconfirmed", pendingMessage(hosted.label, attempt.amount_cents));
    }
    if (!made) {
      await fail(`${why}; ${hosted.label} shows no such refund`);
      throw new AppError(
        502,
        "payment_provider",
        `${hosted.label} did not answer, and shows no refund of ${rand(attempt.amount_cents)} on this payment: nothing was refunded or recorded. Try again.`,
      );
    }
  }
  const [after] = await app.db
    .update(refundAttempts)
    .set({ state: "made", provider_reference: made.reference, route: made.route, updated_at: new Date() })
    .where(and(eq(refundAttempts.id, attempt.id), eq(refundAttempts.state, "pending")))
    .returning();
  if (!after) throw conflict(REFUND_UNDER_WAY);
  return after;
}

const pendingMessage = (label: string, cents: number) =>
  `${label} did not answer the refund of ${rand(cents)}, and could not be asked whether it made it. ${rand(cents)} stays held on this payment so it is never refunded twice; refund again later to check with ${label}, or look in ${label}'s dashboard.`;

/** The answer is lost and the provider cannot be asked: the hold stays, and the payment says so to the owner. */
async function leavePending(app: FastifyInstance, attempt: Attempt, label: string, detail: string) {
  await app.db.transaction(async (tx) => {
    await tx
      .update(refundAttempts)
      .set({ detail: detail.slice(0, 500), updated_at: new Date() })
      .where(eq(refundAttempts.id, attempt.id));
    await tx
      .update(capturedPayments)
      .set({
        notes: appendNote(
          capturedPayments.notes,
          `Refund of ${documentRand(attempt.amount_cents)} sent to ${label} ${formatDateTime(new Date())}: no answer, and ${label} could not be asked. Held until it is confirmed: refund again to check.`,
        ),
        updated_at: new Date(),
      })
      .where(eq(capturedPayments.id, attempt.payment_id));
  });
  app.log.error({ refund: attempt.id, payment: attempt.payment_id, reason: detail }, "provider refund unconfirmed: held on the payment");
}

/** Step 3 for a made provider refund: its credit note, and the attempt `done` in the same transaction. */
export async function recordMadeAttempt(
  app: FastifyInstance,
  context: { business: Business; rules: Rules; templates: OwnerTemplates; request: FastifyRequest },
  attempt: Attempt,
  payment: Payment,
  input: RefundRequest,
): Promise<RefundResult> {
  try {
    const result = await app.db.transaction(async (tx) => {
      const [open] = await tx
        .select()
        .from(refundAttempts)
        .where(and(eq(refundAttempts.id, attempt.id), eq(refundAttempts.state, "made")))
        .for("update");
      if (!open) throw conflict(REFUND_UNDER_WAY);
      const recorded = await recordRefund(tx, {
        ...context,
        payment,
        cents: attempt.amount_cents,
        whole: attempt.amount_cents === toCents(payment.amount),
        method: "provider",
        providerReference: attempt.provider_reference,
        route: attempt.route as RefundRoute | null,
        input,
      });
      await tx
        .update(refundAttempts)
        .set({ state: "done", credit_note_id: recorded.creditNoteId, updated_at: new Date() })
        .where(eq(refundAttempts.id, attempt.id));
      const { creditNoteId: _id, ...answer } = recorded;
      return answer;
    });
    app.outbox.nudge();
    return result;
  } catch (error) {
    // The money went back; the attempt stays `made` with its hold, and the next refund request records it.
    app.log.error({ err: error, refund: attempt.id, ref: payment.external_transaction_id }, "refund made at the provider but not recorded");
    throw error;
  }
}

/**
 * Step 0: an open provider refund of this payment (its answer lost, or made but not recorded) is
 * settled before another is sent. One still in flight is a 409. Made → its credit note is issued
 * (with the reason and term choice it was asked with) and this request answers 409 saying so;
 * not made → failed and its hold released, and this request goes on; cannot tell → 502, held.
 */
export async function settleOpenAttempt(
  app: FastifyInstance,
  paymentId: string,
  context: { business: Business; rules: Rules; templates: OwnerTemplates; request: FastifyRequest },
): Promise<void> {
  const [attempt] = await app.db
    .select()
    .from(refundAttempts)
    .where(and(eq(refundAttempts.payment_id, paymentId), inArray(refundAttempts.state, ["pending", "made"])));
  if (!attempt) return;
  if (attempt.state === "pending" && Date.now() - attempt.created_at.getTime() < OPEN_REFUND_IN_FLIGHT_MS) throw conflict(REFUND_UNDER_WAY);
  const [payment] = await app.db.select().from(capturedPayments).where(eq(capturedPayments.id, paymentId));
  const hosted = hostedProvidersFor(app).get(attempt.provider as HostedProviderName);
  const label = hosted?.label ?? attempt.provider;
  const reason = attempt.request.reason;
  let made = attempt;
  if (attempt.state === "pending") {
    let found: ProviderRefund | null = null;
    if (attempt.sent_at) {
      if (!hosted?.findRefund) throw new AppError(502, "refund_unconfirmed", pendingMessage(label, attempt.amount_cents));
      try {
        found = await hosted.findRefund(providerRequest(attempt, payment, reason), {
          mark: attempt.mark,
          sentAt: attempt.sent_at,
          known: await knownRefunds(app.db, paymentId),
        });
      } catch (error) {
        app.log.warn({ refund: attempt.id, reason: error instanceof Error ? error.message : String(error) }, "refund lookup failed");
        throw new AppError(502, "refund_unconfirmed", pendingMessage(label, attempt.amount_cents));
      }
    }
    if (!found) {
      // Never sent, or the provider shows no such refund: release its hold, and this request goes on.
      await app.db.transaction(async (tx) => {
        const [closed] = await tx
          .update(refundAttempts)
          .set({ state: "failed", detail: `${attempt.detail}; not made (looked up)`.slice(0, 500), updated_at: new Date() })
          .where(and(eq(refundAttempts.id, attempt.id), eq(refundAttempts.state, "pending")))
          .returning();
        if (!closed) throw conflict(REFUND_UNDER_WAY);
        await tx
          .update(capturedPayments)
          .set({
            refunded_amount: sql`${capturedPayments.refunded_amount} - ${fromCents(attempt.amount_cents)}`,
            notes: appendNote(
              capturedPayments.notes,
              `${label} shows no refund of ${documentRand(attempt.amount_cents)}: the hold is released.`,
            ),
            updated_at: new Date(),
          })
          .where(eq(capturedPayments.id, paymentId));
      });
      return;
    }
    const [updated] = await app.db
      .update(refundAttempts)
      .set({ state: "made", provider_reference: found.reference, route: found.route, updated_at: new Date() })
      .where(and(eq(refundAttempts.id, attempt.id), eq(refundAttempts.state, "pending")))
      .returning();
    if (!updated) throw conflict(REFUND_UNDER_WAY);
    made = updated;
  }
  const asked = made.request;
  const result = await recordMadeAttempt(app, context, made, payment, {
    reason: asked.reason,
    term: asked.term as RefundRequest["term"],
    days: asked.days,
  });
  throw conflict(
    `The earlier refund of ${formatRand(result.amount)} went through at ${label} after all: credit note ${result.credit_note} is issued for it. Nothing more was refunded; check what is left before refunding again.`,
  );
}

let cachedHosted: { config: unknown; providers: Map<HostedProviderName, HostedProvider> } | null = null;
export function hostedProvidersFor(app: FastifyInstance): Map<HostedProviderName, HostedProvider> {
  if (cachedHosted?.config !== app.config) cachedHosted = { config: app.config, providers: selectHostedProviders(app.config) };
  return cachedHosted.providers;
}

let cachedProvider: { config: unknown; provider: PaymentProvider } | null = null;
export function providerFor(app: FastifyInstance): PaymentProvider | null {
  if (cachedProvider?.config !== app.config) {
    const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
    cachedProvider = { config: app.config, provider: selectPaymentProvider(app.config, app.db, publicUrl).provider };
  }
  return cachedProvider.provider;
}
