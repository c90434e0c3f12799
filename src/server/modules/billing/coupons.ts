// Coupons (docs/architecture.md, "Billing"): priced on the server when a pay link or EFT
// reference is made, counted when the money is captured. A coupon is checked (active, not
// expired, uses left, the right package, not used before by this customer) before anything is
// written, so a refused coupon costs nothing; its use is counted once per captured payment
// (coupon_redemptions.payment_id is unique), in the capture's transaction.
//
// Limits at capture (issue 30: a 3-use coupon was paid 30 times by opening 30 links first, and a
// one-per-customer coupon 5 times by one client). The rule, the simplest that is exact:
//  1. A pay link or EFT reference made with a coupon holds one of its uses while it is pending
//     (for COUPON_HOLD_MINUTES): pricing counts `uses` plus those holds against `max_uses`, so
//     links beyond the limit are refused with the usual 400 on `coupon`. A hold lapses by itself
//     when the payment fails, is cancelled or gets old — nothing has to release it. This is what
//     stops the "open 30 links, then pay them" trick; it is a read, so links made in the same
//     instant can still slip past it, which is why the count itself is made at capture:
//  2. At capture the coupon row is locked (FOR UPDATE, in the capture's transaction) and the use
//     is counted only while `uses < max_uses` and no earlier redemption belongs to this customer
//     (their client account, their WhatsApp number, or a client/lead with that number). So
//     `uses` never exceeds `max_uses` and a customer is counted once, however many payments
//     arrive together.
//  3. A payment captured over a limit is still captured and settled at the price it was quoted:
//     the money has already moved at that amount (the provider confirms exactly our amount), and
//     refusing it would leave a customer who paid without service. Its coupon is simply not
//     counted a second time; the payment row keeps coupon_code/discount, so the owner can see it.
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
import { capturedPayments, couponRedemptions, coupons } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import { badRequest } from "@/server/lib/errors";
import { couponDiscount, couponProblem } from "@/shared/billing";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";
import type { Tx } from "./documents";

type Payment = typeof capturedPayments.$inferSelect;
export type Coupon = typeof coupons.$inferSelect;

/** Who a coupon's one-per-customer rule counts: their client account, and their WhatsApp number. */
export function customerKeys(who: { clientId?: string | null; whatsapp?: string | null }): string[] {
  const keys: string[] = [];
  if (who.clientId) keys.push(`client:${who.clientId}`);
  const digits = who.whatsapp ? normaliseWhatsAppNumber(who.whatsapp) : "";
  if (digits) keys.push(`wa:${digits}`);
  return keys;
}

/** How long a pending pay link or EFT reference holds one of a coupon's uses. */
export const COUPON_HOLD_MINUTES = 60;

type Executor = Db | Tx;

/**
 * Whether this customer has had the coupon counted before: a redemption under one of their
 * keys, or one whose payment's client or lead has the same WhatsApp number (a stranger paying
 * with a client's number becomes a new, flagged account, and still counts as that customer).
 */
async function redeemedByCustomer(
  db: Executor,
  couponId: string,
  keys: string[],
  digits: string,
  exceptPaymentId?: string,
): Promise<boolean> {
  if (!keys.length && !digits) return false;
  const result = await db.execute(sql`
    SELECT 1 FROM coupon_redemptions r
      JOIN captured_payments p ON p.id = r.payment_id
      LEFT JOIN clients c ON c.id = p.client_id
      LEFT JOIN leads l ON l.id = p.lead_id
    WHERE r.coupon_id = ${couponId}
      ${exceptPaymentId ? sql`AND r.payment_id <> ${exceptPaymentId}` : sql``}
      AND (${keys.length ? sql`r.customer_key IN ${keys}` : sql`false`}
        ${digits ? sql`OR c.whatsapp = ${digits} OR l.whatsapp_digits = ${digits}` : sql``})
    LIMIT 1`);
  return rowsOf(result).length > 0;
}

/** Pending payments made with the coupon in the last COUPON_HOLD_MINUTES (rule 1 above). */
async function heldUses(db: Executor, couponId: string, exceptPaymentId?: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(capturedPayments)
    .where(
      and(
        eq(capturedPayments.coupon_id, couponId),
        eq(capturedPayments.status, "pending"),
        sql`${capturedPayments.created_at} > now() - make_interval(mins => ${COUPON_HOLD_MINUTES})`,
        exceptPaymentId ? ne(capturedPayments.id, exceptPaymentId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

export interface PricedCoupon {
  coupon: Coupon;
  discountCents: number;
}

/**
 * The coupon `code` applied to a package's price, or a 400 naming the `coupon` field. Reads
 * only: nothing is counted until the payment is captured.
 */
export async function priceCoupon(
  db: Db,
  code: string,
  at: { packageId: string; listCents: number; customer: { clientId?: string | null; whatsapp?: string | null }; now?: Date },
): Promise<PricedCoupon> {
  const [coupon] = await db.select().from(coupons).where(eq(coupons.code, code.trim().toUpperCase()));
  const keys = customerKeys(at.customer);
  const digits = at.customer.whatsapp ? normaliseWhatsAppNumber(at.customer.whatsapp) : "";
  const usedByCustomer = coupon ? await redeemedByCustomer(db, coupon.id, keys, digits) : false;
  // Uses held by pending links count as used (rule 1): the 4th link of a 3-use coupon is refused.
  const held = coupon && coupon.max_uses !== null ? await heldUses(db, coupon.id) : 0;
  const problem = couponProblem(coupon ? { ...coupon, uses: coupon.uses + held } : null, {
    now: at.now ?? new Date(),
    packageId: at.packageId,
    listCents: at.listCents,
    usedByCustomer,
  });
  if (problem || !coupon)
    throw badRequest(problem ?? "That coupon code is not valid.", { coupon: problem ?? "That coupon code is not valid." });
  return { coupon, discountCents: couponDiscount(at.listCents, coupon) };
}

/**
 * Counts the coupon of a payment that was just captured: one redemption row per payment, and
 * one more use on the coupon only when that row is new (a replayed capture counts nothing).
 * Under the coupon's row lock, and only while it has uses left and this customer has not been
 * counted before (rules 2 and 3 above): a payment captured over a limit is honoured at the price
 * it was quoted, and not counted. True when the use was counted.
 */
export async function redeemCoupon(tx: Tx, payment: Payment, client: ClientRow | null): Promise<boolean> {
  if (!payment.coupon_id) return false;
  // Every capture of this coupon waits here for the one before it to commit.
  const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, payment.coupon_id)).for("update");
  if (!coupon) return false;
  const [replayed] = await tx
    .select({ id: couponRedemptions.id })
    .from(couponRedemptions)
    .where(eq(couponRedemptions.payment_id, payment.id));
  if (replayed) return false;
  if (coupon.max_uses !== null && coupon.uses >= coupon.max_uses) return false;
  // Counted against the client account the payment settled on (a returning customer is found by their number or e-mail).
  const keys = customerKeys({ clientId: client?.id ?? payment.client_id, whatsapp: client?.whatsapp });
  let digits = client?.whatsapp ? normaliseWhatsAppNumber(client.whatsapp) : "";
  if (!digits && payment.lead_id) {
    const lead = await tx.execute(sql`SELECT whatsapp_digits FROM leads WHERE id = ${payment.lead_id}`);
    digits = String(rowsOf<{ whatsapp_digits?: string }>(lead)[0]?.whatsapp_digits ?? "");
  }
  if (await redeemedByCustomer(tx, coupon.id, keys, digits, payment.id)) return false;
  const [key] = keys;
  const inserted = await tx
    .insert(couponRedemptions)
    .values({ coupon_id: payment.coupon_id, payment_id: payment.id, customer_key: key ?? `payment:${payment.id}` })
    .onConflictDoNothing()
    .returning({ id: couponRedemptions.id });
  if (!inserted.length) return false;
  await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1`, updated_at: new Date() })
    .where(eq(coupons.id, payment.coupon_id));
  return true;
}
