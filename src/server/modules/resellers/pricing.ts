// What the owner charges partners for credits (issue 45 item 4): a price per credit and volume
// tiers, kept in site_settings (partner_credit_pricing, JSON) beside the shop's other settings.
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "@/server/db/client";
import { siteSettings } from "@/server/db/schema";
import { type CreditPricing, creditPricingSchema } from "@/shared/reseller-schemas";
import { type Actor, auditAs, MEMBER_GROUP_SETTING } from "./service";

export const CREDIT_PRICING_SETTING = "partner_credit_pricing";

/** The owner's price list, or null when none is set (or what is stored no longer reads as one). */
export async function loadPricing(db: Pick<Db, "select">): Promise<CreditPricing | null> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, CREDIT_PRICING_SETTING));
  if (!row?.value) return null;
  try {
    const parsed = creditPricingSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? sortTiers(parsed.data) : null;
  } catch {
    return null;
  }
}

const sortTiers = (pricing: CreditPricing): CreditPricing => ({
  ...pricing,
  tiers: [...pricing.tiers].sort((a, b) => a.min_credits - b.min_credits),
});

export async function savePricing(app: FastifyInstance, actor: Actor, pricing: CreditPricing): Promise<CreditPricing> {
  const value = JSON.stringify(sortTiers(pricing));
  await app.db.transaction(async (tx) => {
    await tx
      .insert(siteSettings)
      .values({ key: CREDIT_PRICING_SETTING, value, description: "What partners pay per credit (issue 45)", is_active: false })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
    await auditAs(tx, actor, { action: "update", resource: "setting", resourceId: CREDIT_PRICING_SETTING, after: JSON.parse(value) });
  });
  return sortTiers(pricing);
}

/** The resellers settings form's values: the member group and the price list. */
export async function resellerSettings(app: FastifyInstance): Promise<{ member_group_id: string; pricing: CreditPricing | null }> {
  const [group] = await app.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, MEMBER_GROUP_SETTING));
  return { member_group_id: group?.value ?? "", pricing: await loadPricing(app.db) };
}
