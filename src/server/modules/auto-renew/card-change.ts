// "Use another card" (issue 44 item 5): a client whose automatic renewal is on keeps a new card by a
// card-saving checkout of the provider's smallest documented amount for it (`cardSavingCents`, the
// adapter's; zero: an agreement started without a charge). Its payment row carries the
// renewal's consent, so the notification's token is believed (cards.ts, tokenFits), and settles
// through the one capture path with nothing but the card: no term, no invoice, no receipt
// (settleCardChange, called first by payments/settle.ts). In the capture's transaction the new
// sealed token replaces the old (keepChangedCard), audited, the customer told once; after it, the
// replaced token is cancelled at the provider once (cancelReplacedCards, the job). The change row is
// unique per payment and moves from pending once, so a replayed notification changes nothing twice.
import { and, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { providerDefinition } from "@/server/adapters/payments/registry";
import { selectHostedProviders } from "@/server/adapters/payments/select-provider";
import type { Db } from "@/server/db/client";
import { auditLog, autoRenewals, autoRenewCardChanges, capturedPayments, clients, packages, renewalCharges } from "@/server/db/schema";
import { preferredContact } from "@/server/lib/contact";
import { AppError } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { open, seal } from "@/server/lib/secret-box";
import { makeTransactionId } from "@/server/modules/payments/checkout";
import { insertPayment } from "@/server/modules/payments/insert-payment";
import { chargerFor } from "./renewals";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Payment = typeof capturedPayments.$inferSelect;

/** What the payments list and the provider's page call a card-saving checkout. */
export const CARD_CHANGE_DESCRIPTION = "New card for automatic renewals (no charge)";
export const CARD_CHANGE_NOT_ON = "Automatic renewal is off: turn it on with a card payment, then you can change the card.";
export const CARD_CHANGE_NOT_OFFERED =
  "Your card's provider cannot take a new card here: turn automatic renewal off and choose it again at your next payment.";
export const CARD_CHANGE_WHILE_CHARGING = "A renewal charge to your card is under way: you can change the card once it has gone through.";
export const CARD_CHANGE_FAILED = "We couldn't start the card change at the provider. Please try again in a few minutes.";
/** Another process is telling the provider: tried again after this. */
const CANCEL_CLAIM_MS = 10 * 60_000;

/**
 * Whether the client's renewal can take another card now: on, a card kept, and its provider keeps
 * one by a checkout without a charge. Only a zero amount is offered: a card check that took money
 * would need its refund, which this path does not make.
 */
export function canChangeCard(app: FastifyInstance, row: { enabled: boolean; token_sealed: string | null; provider: string }): boolean {
  return row.enabled && row.token_sealed !== null && chargerFor(app, row.provider)?.cardSavingCents === 0;
}

/** The card change a payment is (the result page's card_change), or null when it is none. */
export async function cardChangeOfPayment(db: Db, paymentId: string): Promise<{ status: "pending" | "done" | "dropped" } | null> {
  const [change] = await db
    .select({ status: autoRenewCardChanges.status })
    .from(autoRenewCardChanges)
    .where(eq(autoRenewCardChanges.payment_id, paymentId));
  if (!change) return null;
  return { status: change.status === "done" || change.status === "dropped" ? change.status : "pending" };
}

/** POST /api/client/auto-renew/card: the card-saving checkout's pending payment and where the browser goes. */
export async function startCardChange(app: FastifyInstance, clientId: string): Promise<{ url: string; reference: string }> {
  const [row] = await app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
  if (!row?.enabled || !row.token_sealed) throw new AppError(409, "auto_renew_off", CARD_CHANGE_NOT_ON);
  const provider = selectHostedProviders(app.config).get(row.provider as never);
  if (!provider || !canChangeCard(app, row)) throw new AppError(409, "card_change_not_offered", CARD_CHANGE_NOT_OFFERED);
  // A charge of the kept card whose answer is awaited settles only by that card's token (cards.ts, tokenFits): not replaced under it.
  const [inFlight] = await app.db
    .select({ id: renewalCharges.id })
    .from(renewalCharges)
    .where(and(eq(renewalCharges.client_id, clientId), inArray(renewalCharges.status, ["sent", "unknown"])))
    .limit(1);
  if (inFlight) throw new AppError(409, "renewal_under_way", CARD_CHANGE_WHILE_CHARGING);
  const [client] = await app.db.select().from(clients).where(eq(clients.id, clientId));
  const [pkg] = client?.package_id ? await app.db.select().from(packages).where(eq(packages.id, client.package_id)) : [];
  if (!client || !pkg) throw new AppError(409, "card_change_not_offered", CARD_CHANGE_NOT_OFFERED);
  const amountCents = provider.savedCards?.cardSavingCents ?? 0;
  const reference = makeTransactionId();
  const payment = await app.db.transaction(async (tx) => {
    const inserted = await insertPayment(tx, {
      provider: provider.name,
      reference,
      order: { pkg, price: amountCents / 100, amountCents, coupon: null, discountCents: 0 },
      payer: { client, leadId: null, email: client.email, name: client.full_name },
      input: { packageId: pkg.id, lineType: client.line_type, mac: client.line_mac },
      email: client.email,
      notes: "A new card for automatic renewals: no term is bought, no invoice issued.",
      // the renewal's own consent: the new card is charged on the terms the client agreed to
      autoRenewConsent: row.consent_text,
    });
    if (!inserted) throw new Error(`card change payment reference ${reference} already taken`);
    const [named] = await tx
      .update(capturedPayments)
      .set({ description: CARD_CHANGE_DESCRIPTION, package_name: "New card for automatic renewals" })
      .where(eq(capturedPayments.id, inserted.id))
      .returning();
    await tx.insert(autoRenewCardChanges).values({ client_id: clientId, payment_id: inserted.id, provider: provider.name });
    await tx.insert(auditLog).values({
      action: "card-change-started",
      resource: "auto_renewals",
      resource_id: clientId,
      after: { provider: provider.name, payment: reference },
    });
    return named;
  });
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
  const q = `?ref=${encodeURIComponent(reference)}`;
  try {
    const checkout = await provider.startCheckout({
      amountCents,
      description: payment.description,
      reference,
      ...(payment.client_email ? { email: payment.client_email } : {}),
      saveCard: true,
      urls: {
        notifyUrl: `${publicUrl}${providerDefinition(provider.name)?.notificationPath ?? ""}`,
        successUrl: `${publicUrl}/payment/success${q}`,
        failureUrl: `${publicUrl}/payment/failure${q}`,
        cancelUrl: `${publicUrl}/payment/cancel${q}`,
      },
    });
    if (checkout.kind === "redirect") {
      await app.db
        .update(capturedPayments)
        .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { url: checkout.url, reference };
    }
    // a form-post provider: our hand-off page posts the signed form (payments/checkout.ts, checkoutPage)
    return { url: `${publicUrl}/api/payments/checkout/${encodeURIComponent(reference)}`, reference };
  } catch (error) {
    app.log.error({ err: error, ref: reference, provider: provider.name }, "card-saving checkout not started");
    await app.db
      .update(capturedPayments)
      .set({ status: "failed", notes: `Card change not started at ${provider.label}: ${String(error)}`.slice(0, 2000) })
      .where(eq(capturedPayments.id, payment.id));
    throw new AppError(502, "payment_provider", CARD_CHANGE_FAILED);
  }
}

/** For payments/settle.ts: a card-saving checkout's payment buys nothing (no term, invoice or receipt). */
export async function settleCardChange(tx: Tx, payment: Pick<Payment, "id">): Promise<boolean> {
  const [change] = await tx
    .select({ id: autoRenewCardChanges.id })
    .from(autoRenewCardChanges)
    .where(eq(autoRenewCardChanges.payment_id, payment.id));
  return Boolean(change);
}

/** "the card ending 1234" where the provider named its last four, else the new card. */
function cardWords(label: string, provider: string): string {
  const four = /(\d{4})\b(?!.*\d{4}\b)/.exec(label.replace(/\(expires[^)]*\)/i, ""))?.[1];
  return four ? `the card ending ${four}` : `the new card you gave ${providerDefinition(provider)?.sentenceName ?? provider}`;
}

/**
 * In the capture's transaction (cards.ts, afterCapture): a card-saving checkout's card replaces
 * the kept one. False when the payment is no card change. Once: only a pending change moves.
 */
export async function keepChangedCard(
  tx: Tx,
  payment: Payment,
  savedCard: { token: string; label: string } | undefined,
  now: Date,
): Promise<boolean> {
  const [change] = await tx.select().from(autoRenewCardChanges).where(eq(autoRenewCardChanges.payment_id, payment.id)).for("update");
  if (!change) return false;
  if (change.status !== "pending") return true;
  const [renewal] = await tx.select().from(autoRenewals).where(eq(autoRenewals.client_id, change.client_id)).for("update");
  const sealed = savedCard ? await seal(tx, savedCard.token) : null;
  if (!renewal?.enabled || !sealed || !savedCard) {
    // turned off meanwhile (or no card came): a card kept by the provider is forgotten there too
    await tx
      .update(autoRenewCardChanges)
      .set({ status: "dropped", old_token_sealed: sealed, done_at: now, updated_at: now })
      .where(eq(autoRenewCardChanges.id, change.id));
    return true;
  }
  await tx
    .update(autoRenewals)
    .set({ token_sealed: sealed, card_label: savedCard.label, consent_payment_id: payment.id, updated_at: now })
    .where(eq(autoRenewals.client_id, change.client_id));
  await tx
    .update(autoRenewCardChanges)
    .set({ status: "done", old_token_sealed: renewal.token_sealed, done_at: now, updated_at: now })
    .where(eq(autoRenewCardChanges.id, change.id));
  await tx.insert(auditLog).values({
    action: "card-changed",
    resource: "auto_renewals",
    resource_id: change.client_id,
    before: { card: renewal.card_label },
    after: { card: savedCard.label, payment: payment.external_transaction_id },
  });
  const [client] = await tx.select().from(clients).where(eq(clients.id, change.client_id));
  const contact = client ? preferredContact(client) : null;
  if (client && contact) {
    await enqueue(tx, {
      ...contact,
      subject: "Your card for automatic renewals",
      body: [
        `Hi ${client.full_name},`,
        "",
        `Your card for automatic renewals is now ${cardWords(savedCard.label, change.provider)}. The old card will not be charged again.`,
      ].join("\n"),
      kind: "auto-renew-card-changed",
      client_id: client.id,
      dedupe_key: `auto-renew-card-changed:${change.id}`,
    });
  }
  return true;
}

/**
 * Cards replaced (or kept after the renewal was turned off): the provider told to forget each, once.
 * A process claims a change (cancel_tried_at) before it calls, so two processes never both call; a
 * call that failed is claimable again after CANCEL_CLAIM_MS. `paymentId`: only that checkout's
 * change (the change feed's word that it was paid). Returns how many were cancelled.
 */
export async function cancelReplacedCards(app: FastifyInstance, now: Date = new Date(), paymentId?: string): Promise<number> {
  const rows = await app.db
    .select({ id: autoRenewCardChanges.id })
    .from(autoRenewCardChanges)
    .where(and(isNotNull(autoRenewCardChanges.old_token_sealed), paymentId ? eq(autoRenewCardChanges.payment_id, paymentId) : undefined))
    .limit(100);
  let done = 0;
  for (const { id } of rows) {
    const [claimed] = await app.db
      .update(autoRenewCardChanges)
      .set({ cancel_tried_at: now, updated_at: now })
      .where(
        and(
          eq(autoRenewCardChanges.id, id),
          isNotNull(autoRenewCardChanges.old_token_sealed),
          or(
            isNull(autoRenewCardChanges.cancel_tried_at),
            lt(autoRenewCardChanges.cancel_tried_at, new Date(now.getTime() - CANCEL_CLAIM_MS)),
          ),
        ),
      )
      .returning();
    if (!claimed?.old_token_sealed) continue;
    const charger = chargerFor(app, claimed.provider);
    if (!charger) continue;
    try {
      await charger.cancel(await open(app.db, claimed.old_token_sealed));
    } catch (error) {
      app.log.warn(
        { err: error, change: id, provider: claimed.provider },
        "replaced card not cancelled at the provider: tried again later",
      );
      continue;
    }
    await app.db
      .update(autoRenewCardChanges)
      .set({ old_token_sealed: null, cancelled_at: new Date(), updated_at: new Date() })
      .where(eq(autoRenewCardChanges.id, id));
    done++;
  }
  return done;
}

/**
 * The old card is cancelled as soon as any process hears (the change feed) that its card-saving
 * checkout was paid; the hourly job sweeps what a missed notification or a failed call left.
 * Returns the stop, which waits for calls under way.
 */
export function watchCardChanges(app: FastifyInstance): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const off = app.changes.onChange((change) => {
    if (change.table !== "captured_payments" || change.op !== "UPDATE" || !change.id) return;
    const work: Promise<unknown> = cancelReplacedCards(app, new Date(), change.id)
      .catch((error) => app.log.warn({ err: error }, "replaced card cancel failed"))
      .finally(() => running.delete(work));
    running.add(work);
  });
  return async () => {
    off();
    await Promise.allSettled([...running]);
  };
}
