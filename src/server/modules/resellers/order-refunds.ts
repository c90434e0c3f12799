// A refund of a partner's credit order takes its credits back (issue 45). The refund itself is
// the billing module's (a credit note per refund, with the money already gone back at the
// provider or by hand); this module hears of it after its commit, as deliverOrder hears of a
// paid order: on the change feed (the payment's update) and in the minute's sweep.
//  - Per credit note, once: the credits its share of the payment bought are taken back with one
//    keyed transfer (`order-refund:<credit note>`), so a replayed refund, a second process or the
//    sweep takes nothing twice.
//  - The money has gone back already, so a partner who spent some of those credits is not a
//    reason to refuse: what their balance allows is taken back, and the rest is written in their
//    ledger as owed (`owed`, nothing moved on the panel) and the owner told, once.
//  - An order whose credits never moved (paid, refused, failed) is marked refunded: nothing is
//    taken back, and no later delivery moves them.
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { admins, capturedPayments, creditNotes, partnerCreditOrders, resellerCreditTransfers, resellers } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { alertOwner } from "@/server/lib/owner-alerts";
import { toCents } from "@/shared/money";
import { type Actor, auditAs, panelUser, type Reseller } from "./service";
import { transferCredits } from "./transfers";

type Order = typeof partnerCreditOrders.$inferSelect;
type CreditNote = typeof creditNotes.$inferSelect;

const plural = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;
const publicUrlOf = (app: FastifyInstance) => (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");

/** The ledger keys of one credit note's take-back: the transfer, and the shortfall written as owed. */
export const refundKey = (noteId: string) => `order-refund:${noteId}`;
export const owedKey = (noteId: string) => `order-refund-owed:${noteId}`;

/**
 * How many of the order's credits each refund takes back: its share of the payment, counted
 * cumulatively so that refunds adding up to the whole payment take back every credit.
 */
export function creditsPerRefund(credits: number, paidCents: number, refundCents: readonly number[]): number[] {
  let refunded = 0;
  let taken = 0;
  return refundCents.map((cents) => {
    refunded += cents;
    const through = Math.min(credits, Math.round((credits * refunded) / paidCents));
    const share = Math.max(0, through - taken);
    taken += share;
    return share;
  });
}

/** Takes back the credits of every refund of `paymentId`'s credit order, each once (no order: nothing). */
export async function takeBackRefunds(app: FastifyInstance, paymentId: string): Promise<void> {
  const [order] = await app.db.select().from(partnerCreditOrders).where(eq(partnerCreditOrders.payment_id, paymentId));
  if (!order) return;
  const notes = await app.db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.payment_id, paymentId))
    .orderBy(asc(creditNotes.issued_at), asc(creditNotes.number));
  if (notes.length === 0) return;
  const [payment] = await app.db.select().from(capturedPayments).where(eq(capturedPayments.id, paymentId));
  const [partner] = await app.db.select().from(resellers).where(eq(resellers.id, order.reseller_id));
  if (!payment || !partner) return;

  if (!(await creditsMoved(app, order))) {
    await refundUndelivered(app, order, partner, notes[0]);
    return;
  }
  const shares = creditsPerRefund(
    order.credits,
    toCents(payment.amount),
    notes.map((n) => n.incl_cents),
  );
  for (const [i, note] of notes.entries()) {
    if (shares[i] > 0) await takeBack(app, order, partner, note, shares[i], payment.external_transaction_id);
  }
  // Refunded in full and taken back: the partner's order list says so rather than "Credits added".
  if (payment.status === "refunded") {
    await app.db
      .update(partnerCreditOrders)
      .set({ status: "refunded" })
      .where(and(eq(partnerCreditOrders.id, order.id), eq(partnerCreditOrders.status, "delivered")));
  }
}

/**
 * Whether the order's credits reached the partner: delivered, or a transfer of it done (a
 * delivery that finished as the refund came in). A transfer still being sent: not known yet,
 * so this throws and the sweep comes back to it.
 */
async function creditsMoved(app: FastifyInstance, order: Order): Promise<boolean> {
  if (order.status === "delivered") return true;
  const moves = await app.db
    .select({ status: resellerCreditTransfers.status })
    .from(resellerCreditTransfers)
    .where(and(eq(resellerCreditTransfers.reseller_id, order.reseller_id), eq(resellerCreditTransfers.cause, `order:${order.id}`)));
  if (moves.some((m) => m.status === "done" || m.status === "unknown")) return true;
  if (moves.some((m) => m.status === "pending")) {
    throw new AppError(409, "transfer_in_progress", "The order's credits are being moved right now; their refund is taken back after.");
  }
  return false;
}

/** Paid, refunded, never moved: the order is closed as refunded (no delivery after it), the owner told once. */
async function refundUndelivered(app: FastifyInstance, order: Order, partner: Reseller, note: CreditNote): Promise<void> {
  const queued = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(partnerCreditOrders)
      .set({ status: "refunded", error: `Refunded (${note.number}) before its credits moved: nothing to take back.` })
      .where(and(eq(partnerCreditOrders.id, order.id), inArray(partnerCreditOrders.status, ["paid", "failed", "refused"])))
      .returning({ id: partnerCreditOrders.id });
    if (!row) return 0;
    return alertOwner(app, tx, {
      cause: "panel-failed",
      dedupeKey: `owner-alert:partner-order-refunded:${order.id}`,
      subject: `Refunded order closed: ${plural(order.credits)} for partner ${partner.name} were never moved`,
      body: [
        `You refunded ${partner.name}'s order for ${plural(order.credits)} (${note.number}) before its credits reached them, so nothing was taken back and the order will not be delivered.`,
        "If you refunded only part of it and they should still have some credits, give them by hand on " +
          `${publicUrlOf(app)}/admin/resellers.`,
      ].join("\n"),
    });
  });
  if (queued) app.outbox.nudge();
}

/** One credit note's take-back: what the balance allows, once; the rest written as owed and the owner told, once. */
async function takeBack(
  app: FastifyInstance,
  order: Order,
  partner: Reseller,
  note: CreditNote,
  owed: number,
  ref: string,
  again = false,
): Promise<void> {
  const [owedRow] = await app.db
    .select()
    .from(resellerCreditTransfers)
    .where(eq(resellerCreditTransfers.request_key, `${partner.id}:${owedKey(note.id)}`));
  if (owedRow) return; // the shortfall is written: this note was seen to its end
  const actor = await actorOf(app, note, partner);
  const key = `${partner.id}:${refundKey(note.id)}`;
  const [earlier] = await app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.request_key, key));
  let taken = 0;
  if (earlier?.status === "done") taken = -earlier.credits;
  else if (earlier?.status === "refused")
    taken = 0; // the balance fell between the read and the send: all owed
  else {
    // First time (or a failed send asked again with its own amount): as much as the partner has now.
    let take = earlier ? -earlier.credits : null;
    if (take === null) {
      const onPanel = partner.panel_user_id ? await panelUser(app, partner.panel_user_id) : null;
      if (!onPanel) throw new AppError(409, "not_on_panel", `${partner.name} is not among your sub-resellers on the panel any more.`);
      take = Math.min(owed, Math.max(0, onPanel.credits));
    }
    if (take > 0) {
      try {
        const { transfer } = await transferCredits(app, actor, partner, {
          credits: -take,
          note: `Refund ${note.number} of ${ref}`,
          cause: `order-refund:${order.id}`,
          key: refundKey(note.id),
        });
        taken = -transfer.credits;
      } catch (error) {
        const code = error instanceof AppError ? error.code : "";
        if (code === "insufficient_credits") taken = 0;
        // Another process claimed the key first with the balance it read: its amount stands.
        else if (code === "conflict" && !again) return takeBack(app, order, partner, note, owed, ref, true);
        else throw error;
      }
    }
  }
  const short = owed - taken;
  if (short <= 0) return;
  await recordOwed(app, { order, partner, note, actor, owed, taken, short, ref });
}

async function recordOwed(
  app: FastifyInstance,
  r: { order: Order; partner: Reseller; note: CreditNote; actor: Actor; owed: number; taken: number; short: number; ref: string },
) {
  const { order, partner, note, actor, owed, taken, short, ref } = r;
  const words = `Refund ${note.number} of ${ref} took back ${plural(taken)} of ${owed}: ${plural(short)} had been spent already and are owed.`;
  const queued = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(resellerCreditTransfers)
      .values({
        reseller_id: partner.id,
        request_key: `${partner.id}:${owedKey(note.id)}`,
        credits: -short,
        note: words,
        cause: `order-refund-owed:${order.id}`,
        actor: actor.kind === "admin" ? actor.email : `partner:${actor.username}`,
        status: "owed",
        done_at: new Date(),
      })
      .onConflictDoNothing({ target: resellerCreditTransfers.request_key })
      .returning();
    if (!row) return 0;
    await auditAs(tx, actor, {
      action: "credits-owed",
      resource: "reseller",
      resourceId: partner.id,
      after: { transfer: row.id, credits: row.credits, note: words, cause: row.cause, credit_note: note.number },
    });
    return alertOwner(app, tx, {
      cause: "panel-failed",
      dedupeKey: `owner-alert:partner-refund-owed:${note.id}`,
      subject: `Refund ${note.number}: partner ${partner.name} owes you ${plural(short)}`,
      body: [
        `You refunded ${partner.name} (${note.number}, payment ${ref}). ${plural(owed)} came back to you with it, but they had spent ${plural(short)} of them already, so only ${plural(taken)} could be taken back from their balance.`,
        `The ${plural(short)} still owed are written in their ledger. Take them back when they have credits again, or settle it with them: ${publicUrlOf(app)}/admin/resellers`,
      ].join("\n"),
    });
  });
  if (queued) app.outbox.nudge();
}

/** The admin who refunded (the credit note's), else the partner's own name stands in, as for a delivery. */
async function actorOf(app: FastifyInstance, note: CreditNote, partner: Reseller): Promise<Actor> {
  if (note.admin_id) {
    const [admin] = await app.db.select({ id: admins.id, email: admins.email }).from(admins).where(eq(admins.id, note.admin_id));
    if (admin) return { kind: "admin", id: admin.id, email: admin.email };
  }
  return { kind: "partner", id: partner.id, username: partner.username };
}

/** Credit orders refunded in the last 30 days, for the sweep: each is looked at again, and does nothing twice. */
export async function takeBackRecentRefunds(app: FastifyInstance): Promise<void> {
  const since = new Date(Date.now() - 30 * 86_400_000);
  const due = await app.db
    .selectDistinct({ payment: creditNotes.payment_id })
    .from(creditNotes)
    .innerJoin(partnerCreditOrders, eq(partnerCreditOrders.payment_id, creditNotes.payment_id))
    .where(and(gte(creditNotes.issued_at, since), sql`${partnerCreditOrders.status} <> 'refunded'`))
    .limit(50);
  for (const { payment } of due) {
    await takeBackRefunds(app, payment).catch((error) => app.log.warn({ err: error, payment }, "refund take-back not done yet"));
  }
}
