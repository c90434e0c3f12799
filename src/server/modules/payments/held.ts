// A payment held for the owner (issue 46, docs/decisions/015): paid from a suspended client's
// number without the code that proves the payer is that client. The checkout went on exactly as a
// stranger's would (so it told nobody the number is a suspended client's); once paid, it makes no
// account, adds no time and asks nothing of the panel. The owner is told at once and decides:
// refund it, or reactivate the client. The payer gets their receipt and tax invoice (money was
// taken), which promise only that the business will be in touch. Runs in the transaction that
// marked the payment paid, so it happens once, however often the notification is replayed.
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { capturedPayments, clients, leads } from "@/server/db/schema";
import { type BusinessProfile, signOff } from "@/server/lib/business";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueue } from "@/server/lib/outbox";
import { loadAlertRoute, type OwnerAlert, queueOwnerAlert } from "@/server/lib/owner-alerts";
import { redeemCoupon } from "@/server/modules/billing/coupons";
import { issueInvoice } from "@/server/modules/billing/documents";
import { formatRand } from "@/shared/money";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { receiptEmail } from "./messages";
import { queueReceipt } from "./receipt";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Payment = typeof capturedPayments.$inferSelect;

/**
 * The suspended client a just-paid payment is to be held for: its payer is a lead (never proved
 * to be a client) whose WhatsApp number is that suspended client's own (payer.ts flagged the lead
 * `possible_duplicate_of` them). Null for anyone else, whose payment settles as usual.
 */
async function suspendedOwnerOf(tx: Tx, payment: Payment) {
  if (payment.client_id || !payment.lead_id) return null;
  const [lead] = await tx.select().from(leads).where(eq(leads.id, payment.lead_id));
  if (!lead || lead.client_id || !lead.possible_duplicate_of) return null;
  const [client] = await tx.select().from(clients).where(eq(clients.id, lead.possible_duplicate_of));
  if (client?.status !== "suspended" || !lead.whatsapp_digits || client.whatsapp !== lead.whatsapp_digits) return null;
  return { lead, client };
}

/** The owner's alert: who, what was (not) done, and where to act. Once per payment. */
function heldPaymentAlert(
  publicUrl: string,
  payment: Pick<Payment, "id" | "external_transaction_id" | "amount" | "package_name">,
  client: { id: string; full_name: string; username: string },
  payer: { name: string; whatsapp: string },
): OwnerAlert {
  const amount = formatRand(payment.amount);
  return {
    cause: "payment-held",
    dedupeKey: `owner-alert:payment-held:${payment.id}`,
    subject: `Payment held: ${amount} from the number of suspended client ${client.full_name}`,
    body: [
      `A payment came in from a number that belongs to a suspended client: ${client.full_name} (${client.username}). Nothing was set up. Refund it, or reactivate the client and add the time it paid for with Grant time on their page.`,
      "",
      `${amount} for ${payment.package_name}, reference ${payment.external_transaction_id}, paid by ${payer.name} (WhatsApp ${formatPhoneForDisplay(payer.whatsapp) || payer.whatsapp}), who did not prove they are the client. No account was made, no time added and nothing asked of the panel; they were sent their receipt, which says you will be in touch.`,
      "",
      `The payment: ${publicUrl}/admin/payments?q=${encodeURIComponent(payment.external_transaction_id)}`,
      `The client: ${publicUrl}/admin/client/${client.id}`,
    ].join("\n"),
  };
}

/**
 * Holds the payment when it is a suspended client's number paying unproved: marks it held, tells
 * the owner, and sends the payer their receipt and invoice. True when held (the caller settles
 * nothing else); false for every other payment.
 */
export async function holdForSuspendedClient(
  tx: Tx,
  context: { business: BusinessProfile; cloudApi?: boolean },
  payment: Payment,
  now: Date,
): Promise<boolean> {
  const found = await suspendedOwnerOf(tx, payment);
  if (!found) return false;
  const { lead, client } = found;
  const { business } = context;
  const note = `Held for you: paid from the number of suspended client ${client.full_name} (${client.username}), unproved. Nothing was set up: refund it, or reactivate the client and add the time it paid for with Grant time on their page.`;
  await tx
    .update(capturedPayments)
    .set({ held_for_client_id: client.id, notes: payment.notes ? `${payment.notes}\n${note}` : note, updated_at: now })
    .where(eq(capturedPayments.id, payment.id));

  const alert = heldPaymentAlert(business.publicUrl, payment, client, { name: lead.name, whatsapp: lead.whatsapp_digits });
  const route = await loadAlertRoute(tx, context.cloudApi ?? false);
  // With the alert switched off, the payment notice every payment gets still tells the owner.
  if (!(await queueOwnerAlert(tx, route, alert)) && route.email) {
    await enqueue(tx, {
      channel: "email",
      recipient: route.email,
      subject: `Payment received: ${formatRand(payment.amount)} for ${payment.package_name} from ${lead.name} (held)`,
      body: [alert.body, "", signOff(business)].join("\n"),
      kind: "payment-received",
      lead_id: lead.id,
      dedupe_key: `payment-received:${payment.id}`,
    });
  }

  // The payer's receipt and tax invoice, as for any payment: the money was taken.
  const invoice = await issueInvoice(tx, business, payment, null, now);
  await redeemCoupon(tx, payment, null);
  const receipt = receiptEmail(
    business,
    {
      name: lead.name,
      reference: payment.external_transaction_id,
      packageName: payment.package_name,
      amount: payment.amount,
      paidAt: payment.paid_at ?? now,
      subscriptionEnd: null,
      invoice: invoice.number,
    },
    await loadTemplates(tx),
  );
  const email = payment.client_email || lead.email;
  const target = email
    ? { channel: "email" as const, recipient: email }
    : lead.whatsapp_digits
      ? { channel: "whatsapp" as const, recipient: lead.whatsapp_digits }
      : null;
  await queueReceipt(tx, target, receipt, { paymentId: payment.id, invoice: invoice.number, lead_id: lead.id });
  return true;
}
