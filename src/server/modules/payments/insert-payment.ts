// The one place a payment row is written: a card pay link, a hosted checkout and an EFT
// reference all start as this pending row, priced by pricing.ts, for the payer of payer.ts; a
// partner's credit order starts the same way; a payment the owner took by hand is written paid.
import type { Db } from "@/server/db/client";
import { capturedPayments } from "@/server/db/schema";
import type { OrderInput, Payer, Payment } from "./context";
import type { PricedOrder } from "./pricing";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface NewPayment {
  /** the provider's name: the card provider's, a hosted provider's, or "eft" */
  provider: string;
  /** our reference (external_transaction_id) */
  reference: string;
  order: PricedOrder;
  payer: Payer;
  input: OrderInput;
  /** where the receipt goes (an EFT keeps only a valid address) */
  email: string;
  notes?: string;
  /** the automatic-renewal consent sentence the payer agreed to (issue 44), when they chose it */
  autoRenewConsent?: string | null;
}

/**
 * A partner's credit order (issue 45; modules/resellers/credit-orders.ts): priced there, for no
 * package, client or lead; the partner is the buyer and the receipt goes to them.
 */
export interface NewCreditOrderPayment {
  provider: string;
  reference: string;
  creditOrder: {
    /** rand */
    amount: number;
    /** what the result page and the payments list name it: "10 credits (partner)" */
    packageName: string;
    description: string;
    /** the partner's name, as the invoice's buyer */
    buyer: string;
  };
  email: string;
  notes?: string;
}

/**
 * A payment the owner took by hand (cash, a transfer seen in the bank app; modules/admin-business):
 * paid already, for a client and a package, at the amount the owner typed.
 */
export interface NewRecordedPayment {
  reference: string;
  recorded: {
    amount: number;
    pkg: { id: string; name: string };
    client: { id: string; email: string };
    paidAt: Date;
  };
  notes: string;
}

/**
 * The pending payment row for a priced order: the amount we priced, the package, the payer, the
 * ECT s44 consent, the coupon and the buyer's details. Null when the reference is taken already
 * (EFT references are short, and tried again).
 */
export async function insertPayment(db: Db | Tx, p: NewPayment | NewCreditOrderPayment | NewRecordedPayment): Promise<Payment | null> {
  if ("recorded" in p) {
    const { amount, pkg, client, paidAt } = p.recorded;
    const [row] = await db
      .insert(capturedPayments)
      .values({
        provider: "manual",
        external_transaction_id: p.reference,
        amount,
        currency: "ZAR",
        package_id: pkg.id,
        package_name: pkg.name,
        description: `${pkg.name} IPTV Subscription`,
        client_id: client.id,
        client_email: client.email,
        status: "paid",
        paid_at: paidAt,
        notes: p.notes,
      })
      .onConflictDoNothing({ target: capturedPayments.external_transaction_id })
      .returning();
    return row ?? null;
  }
  if ("creditOrder" in p) {
    const [row] = await db
      .insert(capturedPayments)
      .values({
        provider: p.provider,
        external_transaction_id: p.reference,
        amount: p.creditOrder.amount,
        currency: "ZAR",
        package_name: p.creditOrder.packageName,
        description: p.creditOrder.description,
        client_email: p.email,
        buyer_company: p.creditOrder.buyer,
        status: "pending",
        ...(p.notes !== undefined ? { notes: p.notes } : {}),
      })
      .onConflictDoNothing({ target: capturedPayments.external_transaction_id })
      .returning();
    return row ?? null;
  }
  const { order, payer, input } = p;
  const [row] = await db
    .insert(capturedPayments)
    .values({
      provider: p.provider,
      external_transaction_id: p.reference,
      amount: order.price,
      currency: "ZAR",
      package_id: order.pkg.id,
      package_name: order.pkg.name,
      description: `${order.pkg.name} IPTV Subscription`,
      client_id: payer.client?.id ?? null,
      lead_id: payer.leadId,
      client_email: p.email,
      immediate_start_consent_at: input.immediateStartConsent ? new Date() : null,
      status: "pending",
      auto_renew_consent: p.autoRenewConsent ?? null,
      ...(p.notes !== undefined ? { notes: p.notes } : {}),
      ...orderColumns(order, input),
    })
    .onConflictDoNothing({ target: capturedPayments.external_transaction_id })
    .returning();
  return row ?? null;
}

/** The order's coupon and buyer details, as the payment row keeps them. */
const orderColumns = (order: PricedOrder, input: OrderInput) => ({
  coupon_id: order.coupon?.id ?? null,
  coupon_code: order.coupon?.code ?? "",
  discount: order.discountCents / 100,
  buyer_company: input.company ?? "",
  buyer_address: input.address ?? "",
  buyer_vat_number: input.vatNumber ?? "",
  line_type: input.lineType ?? "m3u",
  line_mac: input.mac ?? "",
});
