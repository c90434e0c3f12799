// The kept card of a client's automatic renewal (issue 44): the provider's token arrives with the
// notification of the payment whose payer consented, and is sealed (lib/secret-box.ts) before it is
// written. It is opened only to charge or cancel it, and never logged or returned by an API.
import { and, eq, inArray } from "drizzle-orm";
import type { SavedCardCharger } from "@/server/adapters/payments/saved-card";
import type { Db } from "@/server/db/client";
import { autoRenewals, capturedPayments, renewalCharges } from "@/server/db/schema";
import { open, seal } from "@/server/lib/secret-box";
import { keepChangedCard } from "./card-change";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;
type Payment = typeof capturedPayments.$inferSelect;

/**
 * Whether a notification carrying a card token may be believed for this payment (checked before
 * capture). A provider that names the card of every payment (`cardOnEveryPayment`) may carry one
 * the payer never asked to keep: that payment is believed, and the card is not kept (afterCapture).
 */
export async function tokenFits(
  db: Executor,
  payment: Pick<Payment, "id" | "client_id" | "auto_renew_consent">,
  token: string,
  charger?: Pick<SavedCardCharger, "cardOnEveryPayment">,
): Promise<{ ok: true } | { ok: false; why: string }> {
  const [charge] = await db
    .select({ client_id: renewalCharges.client_id })
    .from(renewalCharges)
    .where(eq(renewalCharges.payment_id, payment.id))
    .limit(1);
  if (!charge) {
    // A first payment: only one whose payer chose automatic renewal asked the provider to keep the card.
    if (payment.auto_renew_consent !== null || charger?.cardOnEveryPayment) return { ok: true };
    return { ok: false, why: "it carries a card token this payment did not ask for" };
  }
  const kept = await keptToken(db, charge.client_id);
  if (kept === null || kept !== token) return { ok: false, why: "its card token is not the one kept for this client" };
  return { ok: true };
}

/** The e-mail the kept card was saved with (its consent payment's), else the client's: a provider may charge the card only with it. */
export async function cardEmail(db: Executor, clientId: string, fallback: string | null): Promise<string | null> {
  const [row] = await db
    .select({ email: capturedPayments.client_email })
    .from(autoRenewals)
    .innerJoin(capturedPayments, eq(capturedPayments.id, autoRenewals.consent_payment_id))
    .where(eq(autoRenewals.client_id, clientId));
  return row?.email || fallback;
}

/** The client's kept token, opened; null when none is kept. */
export async function keptToken(db: Executor, clientId: string): Promise<string | null> {
  const [row] = await db.select({ sealed: autoRenewals.token_sealed }).from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
  if (!row?.sealed) return null;
  return open(db, row.sealed);
}

/**
 * In the capture's transaction: the payment the payer consented with keeps its card for the
 * client it settled for (on, with the consent); a renewal charge's payment marks its charge paid.
 */
export async function afterCapture(
  tx: Tx,
  payment: Payment,
  clientId: string | null,
  provider: string,
  savedCard: { token: string; label: string } | undefined,
  now: Date,
): Promise<void> {
  // a card-saving checkout ("Use another card"): its card replaces the kept one, nothing else
  if (await keepChangedCard(tx, payment, savedCard, now)) return;
  await tx
    .update(renewalCharges)
    .set({ status: "paid", updated_at: now })
    .where(and(eq(renewalCharges.payment_id, payment.id)));
  if (!savedCard || payment.auto_renew_consent === null || !clientId) return;
  const [charge] = await tx.select({ id: renewalCharges.id }).from(renewalCharges).where(eq(renewalCharges.payment_id, payment.id));
  if (charge) return; // a renewal's own notification: the card is kept already
  const values = {
    enabled: true,
    provider,
    token_sealed: await seal(tx, savedCard.token),
    card_label: savedCard.label,
    consent_text: payment.auto_renew_consent,
    consent_at: payment.created_at,
    consent_payment_id: payment.id,
    disabled_reason: "",
    updated_at: now,
  };
  await tx
    .insert(autoRenewals)
    .values({ client_id: clientId, ...values })
    .onConflictDoUpdate({ target: autoRenewals.client_id, set: values });
}

/**
 * Turns a client's automatic renewal off in the caller's transaction (the portal, a refund, a
 * suspension), and drops the term's charge not yet sent. The provider is told afterwards
 * (cancelAtProvider), so a transaction never waits on the network. Returns whether it was on.
 */
export async function disableAutoRenew(tx: Executor, clientId: string, reason: string, now: Date = new Date()): Promise<boolean> {
  const [row] = await tx
    .update(autoRenewals)
    .set({ enabled: false, disabled_reason: reason.slice(0, 200), updated_at: now })
    .where(and(eq(autoRenewals.client_id, clientId), eq(autoRenewals.enabled, true)))
    .returning({ id: autoRenewals.client_id });
  await tx
    .update(renewalCharges)
    .set({ status: "cancelled", next_attempt_at: null, updated_at: now })
    .where(and(eq(renewalCharges.client_id, clientId), inArray(renewalCharges.status, ["pending", "declined"])));
  return Boolean(row);
}
