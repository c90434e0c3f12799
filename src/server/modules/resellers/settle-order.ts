// A partner's credit order, settled when its payment is captured (issue 45 item 4): called by
// payments/settle.ts first thing, inside the transaction that marked the payment paid, so it
// happens once per payment with the capture. Here: the order marked paid, the owner's notice,
// the tax invoice and the partner's receipt. The credits themselves move after the commit
// (credit-orders.ts, deliverOrder): a panel call never runs inside the capture's transaction.
import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { type capturedPayments, partnerCreditOrders, resellerCreditTransfers, resellers } from "@/server/db/schema";
import { signOff } from "@/server/lib/business";
import { enqueue } from "@/server/lib/outbox";
import { alertsEmail } from "@/server/lib/owner-alerts";
import { issueInvoice } from "@/server/modules/billing/documents";
import type { SettleContext } from "@/server/modules/payments/settle";
import type { PaymentCreditOrder } from "@/shared/api";
import { formatRand } from "@/shared/money";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Payment = typeof capturedPayments.$inferSelect;

/** Whether `payment` is a partner's credit order (then it is settled here, and nothing else is done for it). */
export async function settlePartnerCreditOrder(tx: Tx, context: SettleContext, payment: Payment, now: Date): Promise<boolean> {
  const [order] = await tx.select().from(partnerCreditOrders).where(eq(partnerCreditOrders.payment_id, payment.id)).for("update");
  if (!order) return false;
  const [partner] = await tx.select().from(resellers).where(eq(resellers.id, order.reseller_id));
  const { business } = context;
  // The change feed carries this update to every process once the capture commits: one of them moves the credits.
  await tx
    .update(partnerCreditOrders)
    .set({ status: "paid", paid_at: now })
    .where(and(eq(partnerCreditOrders.id, order.id), eq(partnerCreditOrders.status, "pending")));

  const what = `${order.credits} credit${order.credits === 1 ? "" : "s"}`;
  const ownerEmail = await alertsEmail(tx);
  if (ownerEmail) {
    await enqueue(tx, {
      channel: "email",
      recipient: ownerEmail,
      subject: `Payment received: ${formatRand(payment.amount)} for ${what} from partner ${partner?.name ?? ""}`.trim(),
      body: [
        `${formatRand(payment.amount)} received for ${what} at ${formatRand(order.unit_price)} each (reference ${payment.external_transaction_id}, ${payment.provider}).`,
        `Partner: ${partner ? `${partner.name} (${partner.username})` : "a partner no longer on your list"}.`,
        "",
        `The ${what} move from your panel balance to theirs now, once; if your balance is too low they wait, and you are told.`,
        `Your network: ${business.publicUrl}/admin/resellers`,
        "",
        signOff(business),
      ].join("\n"),
      kind: "payment-received",
      dedupe_key: `payment-received:${payment.id}`,
    });
  }

  // Last, the invoice (its number is taken under the series' row lock), then the partner's receipt with it.
  const invoice = await issueInvoice(tx, business, payment, null, now);
  const email = payment.client_email || partner?.email || "";
  if (email) {
    await enqueue(tx, {
      channel: "email",
      recipient: email,
      subject: `${business.companyName}: payment received for ${what} (${payment.external_transaction_id})`,
      body: [
        `Hi ${(partner?.name ?? "").split(" ")[0] || "there"},`,
        "",
        `Thank you: we received ${formatRand(payment.amount)} for ${what}. Your tax invoice ${invoice.number} is attached.`,
        "The credits are being added to your partner account now; we e-mail you again when they are in.",
        `Your portal: ${business.publicUrl}/partner`,
        "",
        signOff(business),
      ].join("\n"),
      kind: "receipt",
      dedupe_key: `receipt:${payment.id}`,
      attachment: `invoice:${invoice.number}`,
    });
  }
  return true;
}

/**
 * The credit order a payment pays for, as the shop's result page shows it (GET /api/payments/:ref):
 * its credits, where they stand, and the partner's balance just after they moved. Null: not an order.
 */
export async function creditOrderOfPayment(db: Db, paymentId: string): Promise<PaymentCreditOrder | null> {
  const [row] = await db
    .select({ credits: partnerCreditOrders.credits, status: partnerCreditOrders.status, balance: resellerCreditTransfers.partner_after })
    .from(partnerCreditOrders)
    .leftJoin(resellerCreditTransfers, eq(resellerCreditTransfers.id, partnerCreditOrders.transfer_id))
    .where(eq(partnerCreditOrders.payment_id, paymentId));
  if (!row) return null;
  return { credits: row.credits, status: row.status as PaymentCreditOrder["status"], balance: row.balance ?? null };
}
