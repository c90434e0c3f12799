// Billing as the business and its clients use it (docs/architecture.md, "Billing"): refunds
// with credit notes, coupons, the numbering settings, the documents as PDF and the monthly CSV.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmailAttachment } from "@/server/adapters/email";
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
import { capturedPayments, clients, coupons, creditNotes, documentSequences, invoices, refundAttempts } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { adminActor, applyChange, loadRules } from "@/server/lib/lifecycle";
import { loadTemplates, type OwnerTemplates } from "@/server/lib/message-templates";
import { appendNote } from "@/server/lib/notes";
import { enqueue } from "@/server/lib/outbox";
import { csvDateTime, toCsv } from "@/server/modules/admin-business/csv";
import { disableAutoRenew } from "@/server/modules/auto-renew/cards";
import { preferredContact } from "@/server/modules/client/service";
import {
  type BillingDocumentRow,
  billingSettings,
  type CouponInput,
  formatDocumentNumber,
  type NumberingInput,
  REFUND_TOO_MUCH,
  type RefundRequest,
  type RefundResult,
  vatBreakdown,
} from "@/shared/billing";
import { formatDateTime } from "@/shared/dates";
import { formatRand, fromCents, toCents } from "@/shared/money";
import { issueInvoice, listDocuments, nextNumbers, takeNumber } from "./documents";
import { type RefundFacts, refundMessage } from "./messages";
import { creditNotePdf, documentRand, invoicePdf } from "./pdf";

/** The outbox kind of the client's refund message (and of its template). */
export const REFUND_KIND = "refund-issued";
export const ONLY_PAID_REFUNDS = "Only a paid payment can be refunded.";
export const REFUNDED_IN_FULL = "This payment was refunded in full already.";
export const PROVIDER_REFUND_FAILED =
  "The card provider did not accept the refund. Nothing was recorded; try again, or refund it in the provider's portal and record it as paid back by hand.";

// ---- documents -------------------------------------------------------------------------------------

/** 'INV-000001.pdf' → 'INV-000001' (a name that is not a document's is a 404). */
export function documentNumberOf(file: string): string {
  const match = /^([A-Za-z0-9/-]{1,40})\.pdf$/.exec(file);
  if (!match) throw notFound("No such document.");
  return match[1];
}

/** An invoice as PDF; with `clientId`, only that client's (another's number is a 404, as if it did not exist). */
export async function invoicePdfFor(db: Db, number: string, clientId?: string) {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.number, number), clientId ? eq(invoices.client_id, clientId) : undefined));
  if (!invoice) throw notFound("No invoice with that number.");
  return { filename: `${invoice.number}.pdf`, content: await invoicePdf(invoice) };
}

export async function creditNotePdfFor(db: Db, number: string, clientId?: string) {
  const [row] = await db
    .select({ note: creditNotes, invoice: invoices })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id))
    .where(and(eq(creditNotes.number, number), clientId ? eq(creditNotes.client_id, clientId) : undefined));
  if (!row) throw notFound("No credit note with that number.");
  return { filename: `${row.note.number}.pdf`, content: await creditNotePdf(row.note, row.invoice) };
}

/**
 * The outbox's attachment renderer: 'invoice:INV-000001' or 'credit_note:CN-000001'. Null only
 * when there is no such document (sending again cannot make it); any other failure (the database,
 * the PDF builder) is thrown, so the outbox logs it and tries the message again later.
 */
export async function renderAttachment(db: Db, ref: string): Promise<EmailAttachment | null> {
  const [type, number] = ref.split(":");
  try {
    const file = type === "invoice" ? await invoicePdfFor(db, number) : type === "credit_note" ? await creditNotePdfFor(db, number) : null;
    return file ? { ...file, contentType: "application/pdf" } : null;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}

const CSV_COLUMNS = [
  { header: "type", value: (r: BillingDocumentRow) => (r.type === "invoice" ? r.title : "Credit Note") },
  { header: "number", value: (r: BillingDocumentRow) => r.number },
  { header: "date", value: (r: BillingDocumentRow) => csvDateTime(new Date(r.issued_at)) },
  { header: "customer", value: (r: BillingDocumentRow) => r.customer },
  // Credit notes count against the month: negative amounts, as a bookkeeper enters them.
  { header: "excl_vat", value: (r: BillingDocumentRow) => signed(r, r.excl_cents) },
  { header: "vat", value: (r: BillingDocumentRow) => signed(r, r.vat_cents) },
  { header: "incl_vat", value: (r: BillingDocumentRow) => signed(r, r.incl_cents) },
  { header: "reference", value: (r: BillingDocumentRow) => r.reference },
];

/** Rand as a number cell (a spreadsheet sums it); a credit note's negative. */
function signed(row: BillingDocumentRow, cents: number): number {
  return fromCents(row.type === "credit_note" ? -cents : cents);
}

/** The month's invoices and credit notes as CSV, oldest first. */
export async function monthCsv(db: Db, month: string) {
  const rows = (await listDocuments(db, { month })).reverse();
  return {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="billing-${month}.csv"`,
      "cache-control": "no-store",
    },
    body: toCsv(CSV_COLUMNS, rows),
  };
}

// ---- numbering -------------------------------------------------------------------------------------

export async function getNumbering(app: FastifyInstance) {
  const next = await nextNumbers(app.db);
  const billing = billingSettings((await loadBusiness(app)).settings);
  return {
    invoice_next: next.invoice,
    credit_note_next: next.credit_note,
    invoice_prefix: billing.invoicePrefix,
    credit_note_prefix: billing.creditNotePrefix,
    invoice_example: formatDocumentNumber(billing.invoicePrefix, next.invoice),
    credit_note_example: formatDocumentNumber(billing.creditNotePrefix, next.credit_note),
  };
}

/** A series may move forward (e.g. to continue an earlier system's numbering), never back onto a number in use. */
export async function setNumbering(app: FastifyInstance, request: FastifyRequest, input: NumberingInput) {
  await app.db.transaction(async (tx) => {
    const rows = await tx.select().from(documentSequences).for("update");
    const before = Object.fromEntries(rows.map((r) => [r.name, r.next]));
    const fields: Record<string, string> = {};
    if (input.invoice_next < (before.invoice ?? 1))
      fields.invoice_next = `Invoices are numbered up to ${(before.invoice ?? 1) - 1} already: the next must be ${before.invoice ?? 1} or more.`;
    if (input.credit_note_next < (before.credit_note ?? 1))
      fields.credit_note_next = `Credit notes are numbered up to ${(before.credit_note ?? 1) - 1} already: the next must be ${before.credit_note ?? 1} or more.`;
    if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0], fields);
    for (const [name, next] of [
      ["invoice", input.invoice_next],
      ["credit_note", input.credit_note_next],
    ] as const) {
      await tx
        .insert(documentSequences)
        .values({ name, next })
        .onConflictDoUpdate({ target: documentSequences.name, set: { next, updated_at: new Date() } });
    }
    await audit(tx, request, { action: "update", resource: "document_sequences", before, after: input });
  });
  return getNumbering(app);
}

// ---- refunds -----------------------------------------------------------------------------------------

/** An open provider refund younger than this may still be in flight (the adapters wait 10 s, then look it up). */
const OPEN_REFUND_IN_FLIGHT_MS = 60_000;
export const REFUND_UNDER_WAY = "A refund of this payment is with the payment provider right now. Try again in a minute.";

type Business = Awaited<ReturnType<typeof loadBusiness>>;
type Rules = Awaited<ReturnType<typeof loadRules>>;
type Attempt = typeof refundAttempts.$inferSelect;
type Payment = typeof capturedPayments.$inferSelect;

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
async function refundAtProvider(
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
async function recordMadeAttempt(
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
async function settleOpenAttempt(
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

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function recordRefund(
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
      .where(and(eq(capturedPayments.client_id, client.id), inArray(capturedPayments.status, ["paid", "refunded"])))
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
  if (email) {
    const message = refundMessage(business, facts, "email", { templates, rules });
    await enqueue(tx, {
      channel: "email",
      recipient: email,
      subject: message.subject,
      body: message.body,
      kind: REFUND_KIND,
      client_id: client?.id ?? null,
      failure: message.error,
      vars,
      dedupe_key: `credit-note:${note.id}`,
      attachment: `credit_note:${number}`,
    });
  }
  if (whatsapp) {
    const message = refundMessage(business, facts, "whatsapp", { templates, rules });
    await enqueue(tx, {
      channel: "whatsapp",
      recipient: whatsapp,
      // kept for an e-mail copy the worker may make: the kind's own subject
      subject: message.subject,
      body: message.body,
      kind: REFUND_KIND,
      client_id: client?.id ?? null,
      failure: message.error,
      vars,
      dedupe_key: `credit-note:${note.id}:whatsapp`,
    });
  }
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

let cachedHosted: { config: unknown; providers: Map<HostedProviderName, HostedProvider> } | null = null;
function hostedProvidersFor(app: FastifyInstance): Map<HostedProviderName, HostedProvider> {
  if (cachedHosted?.config !== app.config) cachedHosted = { config: app.config, providers: selectHostedProviders(app.config) };
  return cachedHosted.providers;
}

let cachedProvider: { config: unknown; provider: PaymentProvider } | null = null;
function providerFor(app: FastifyInstance): PaymentProvider | null {
  if (cachedProvider?.config !== app.config) {
    const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
    cachedProvider = { config: app.config, provider: selectPaymentProvider(app.config, app.db, publicUrl).provider };
  }
  return cachedProvider.provider;
}

// ---- coupons -----------------------------------------------------------------------------------------

const couponValues = (input: CouponInput) => ({
  code: input.code,
  kind: input.kind,
  percent_off: input.kind === "percent" ? (input.percent_off ?? null) : null,
  amount_off: input.kind === "fixed" ? (input.amount_off ?? null) : null,
  package_id: input.package_id ?? null,
  expires_at: input.expires_at ? new Date(input.expires_at) : null,
  max_uses: input.max_uses ?? null,
  is_active: input.is_active,
});

const CODE_TAKEN = "That code is in use already: choose another.";

export async function listCoupons(db: Db) {
  return db.select().from(coupons).orderBy(desc(coupons.created_at));
}

export async function createCoupon(app: FastifyInstance, request: FastifyRequest, input: CouponInput) {
  return app.db.transaction(async (tx) => {
    const [row] = await tx.insert(coupons).values(couponValues(input)).onConflictDoNothing({ target: coupons.code }).returning();
    if (!row) throw badRequest(CODE_TAKEN, { code: CODE_TAKEN });
    await audit(tx, request, { action: "create", resource: "coupons", resourceId: row.id, after: row });
    return row;
  });
}

export async function updateCoupon(app: FastifyInstance, request: FastifyRequest, id: string, input: CouponInput) {
  return app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(coupons).where(eq(coupons.id, id)).for("update");
    if (!before) throw notFound("No coupon with that id.");
    const [clash] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, input.code));
    if (clash && clash.id !== id) throw badRequest(CODE_TAKEN, { code: CODE_TAKEN });
    const [after] = await tx
      .update(coupons)
      .set({ ...couponValues(input), updated_at: new Date() })
      .where(eq(coupons.id, id))
      .returning();
    await audit(tx, request, { action: "update", resource: "coupons", resourceId: id, before, after });
    return after;
  });
}

/** A used coupon is switched off rather than deleted: the invoices that name it keep their meaning. */
export async function deleteCoupon(app: FastifyInstance, request: FastifyRequest, id: string) {
  return app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(coupons).where(eq(coupons.id, id)).for("update");
    if (!before) throw notFound("No coupon with that id.");
    if (before.uses > 0) {
      await tx.update(coupons).set({ is_active: false, updated_at: new Date() }).where(eq(coupons.id, id));
    } else {
      await tx.delete(coupons).where(eq(coupons.id, id));
    }
    await audit(tx, request, { action: before.uses > 0 ? "deactivate" : "delete", resource: "coupons", resourceId: id, before });
    return { deleted: before.uses === 0 };
  });
}
