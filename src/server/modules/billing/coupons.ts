// Coupons (docs/architecture.md, "Billing"): priced on the server when a pay link or EFT
// reference is made, counted when the money is captured. A coupon is checked (active, not
// expired, uses left, the right package, not used before by this customer) before anything is
// written, so a refused coupon costs nothing; its use is counted once per captured payment
// (coupon_redemptions.payment_id is unique), in the capture's transaction.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { type capturedPayments, couponRedemptions, coupons } from "@/server/db/schema";
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
  let usedByCustomer = false;
  if (coupon && keys.length) {
    const [used] = await db
      .select({ id: couponRedemptions.id })
      .from(couponRedemptions)
      .where(and(eq(couponRedemptions.coupon_id, coupon.id), sql`${couponRedemptions.customer_key} in ${keys}`))
      .limit(1);
    usedByCustomer = Boolean(used);
  }
  const problem = couponProblem(coupon ?? null, {
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
 * A coupon used up between the pay link and the capture is still honoured: the customer paid
 * the price we gave them.
 */
export async function redeemCoupon(tx: Tx, payment: Payment, client: ClientRow | null): Promise<boolean> {
  if (!payment.coupon_id) return false;
  // Counted against the client account the payment settled on (a returning customer is found by their number or e-mail).
  const [key] = customerKeys({ clientId: client?.id ?? payment.client_id, whatsapp: client?.whatsapp });
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
