// Pricing an order: the active package at today's price (special included), less its coupon.
// The server prices every payment; an amount from the browser is never read.
import { and, eq } from "drizzle-orm";
import { packages } from "@/server/db/schema";
import { AppError, badRequest } from "@/server/lib/errors";
import { matchContact } from "@/server/lib/identity";
import { alertOwner } from "@/server/lib/owner-alerts";
import { PACKAGE_UNAVAILABLE_MESSAGE, unavailablePackages } from "@/server/lib/sellable";
import { priceCoupon } from "@/server/modules/billing/coupons";
import { listActiveSpecials, specialsAt } from "@/server/modules/catalogue/service";
import { type CouponQuote, couponQuoteSchema } from "@/shared/billing";
import { saDay } from "@/shared/dates";
import { toCents } from "@/shared/money";
import { findSpecial } from "@/shared/pricing";
import { type OrderInput, type PayerSession, type PaymentsContext, validationError } from "./context";

export type PricedOrder = Awaited<ReturnType<typeof priceOrder>>;

/** The active package with today's special applied (same window rule as GET /api/specials). */
export async function priceActivePackage(ctx: PaymentsContext, packageId: string) {
  const { db } = ctx;
  const [pkg] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, packageId), eq(packages.is_active, true)))
    .limit(1);
  if (!pkg) {
    const message = "That package is not available. Please choose another package.";
    throw badRequest(message, { packageId: message });
  }
  // No money for a line that cannot be made (lib/sellable.ts): refused before any payment row, the owner told.
  if ((await unavailablePackages(db, ctx.app.provisioning.panel.mode)).has(pkg.id)) {
    await tellOwnerUnsellable(ctx, pkg);
    throw new AppError(409, "package_unavailable", PACKAGE_UNAVAILABLE_MESSAGE, { packageId: PACKAGE_UNAVAILABLE_MESSAGE });
  }
  const special = findSpecial(pkg, specialsAt(await listActiveSpecials(db), Date.now()));
  const price = special ? special.special_price : pkg.price;
  const amountCents = toCents(price);
  if (amountCents <= 0) throw badRequest("This package is free: there is nothing to pay.", { packageId: "This package is free" });
  return { pkg, price: amountCents / 100, amountCents };
}

/** Once a day per package: a customer tried to buy it, and the panel has no package for it. */
async function tellOwnerUnsellable(ctx: PaymentsContext, pkg: { id: string; name: string }) {
  const { app } = ctx;
  const queued = await alertOwner(app, ctx.db, {
    cause: "unsellable-package",
    dedupeKey: `unsellable-package:${pkg.id}:${saDay(new Date())}`,
    subject: `A customer could not buy ${pkg.name}`,
    body: [
      `A customer tried to pay for ${pkg.name}, but no panel package is mapped to it, so no line could be made. They were told it is not available yet and asked to choose another package or contact you.`,
      "",
      `Map it to one of your panel's packages so it can be sold again: ${ctx.publicUrl}/admin/panel`,
    ].join("\n"),
  }).catch((error) => {
    app.log.warn({ err: error }, "unsellable package alert not queued");
    return 0;
  });
  if (queued) app.outbox.nudge();
}

/**
 * The package's price today less the coupon, when one is given: a refused coupon is a 400 on
 * `coupon` before anything is written. The coupon's one-per-customer rule counts the signed-in
 * client, else the client the WhatsApp number or e-mail already belongs to.
 */
export async function priceOrder(ctx: PaymentsContext, input: OrderInput, session: PayerSession) {
  const priced = await priceActivePackage(ctx, input.packageId);
  if (!input.coupon) return { ...priced, coupon: null, discountCents: 0 };
  let clientId = session.clientId ?? null;
  // One per customer counts whoever the number or address may be: a guess only ever refuses here.
  if (!clientId && input.whatsapp)
    clientId = (await matchContact(ctx.db, { whatsapp: input.whatsapp, email: input.email ?? "" }))?.client.id ?? null;
  const { coupon, discountCents } = await priceCoupon(ctx.db, input.coupon, {
    packageId: priced.pkg.id,
    listCents: priced.amountCents,
    customer: { clientId, whatsapp: input.whatsapp },
  });
  const amountCents = priced.amountCents - discountCents;
  return { pkg: priced.pkg, price: amountCents / 100, amountCents, coupon, discountCents };
}

/** POST /api/payments/coupon: what a coupon does to a package's price, for the review step. */
export async function checkCoupon(ctx: PaymentsContext, body: unknown, session: PayerSession = { clientId: null }): Promise<CouponQuote> {
  const parsed = couponQuoteSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  const order = await priceOrder(ctx, parsed.data, session);
  return {
    code: order.coupon?.code ?? "",
    discount: order.discountCents / 100,
    price: order.price,
    list_price: (order.amountCents + order.discountCents) / 100,
  };
}
