// Coupons as the owner manages them: list, create, update, delete (a used one is switched off).
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { coupons } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { badRequest, notFound } from "@/server/lib/errors";
import type { CouponInput } from "@/shared/billing";

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
