// Pay links for the messages that carry them (jobs/reminders.ts: trial ending and ended, and the
// renewal reminders): read the key and the packages on sale once, before the transactions that
// queue the messages (PGlite has one connection, which a transaction holds).
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { packages } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import type { PayLinks } from "@/server/lib/reminder-words";
import { payLinkKey, payLinkMaker } from "./token";

export async function loadPayLinks(app: FastifyInstance, now: Date = new Date()): Promise<PayLinks> {
  const [business, key, onSale] = await Promise.all([
    loadBusiness(app),
    payLinkKey(app.db),
    app.db.select({ id: packages.id, price: packages.price }).from(packages).where(eq(packages.is_active, true)),
  ]);
  const make = payLinkMaker(business.publicUrl, key, now);
  // a free package has nothing to pay
  const ids = new Set(onSale.filter((p) => Number(p.price) > 0).map((p) => p.id));
  return (clientId, packageId) => (ids.has(packageId) ? make(clientId, packageId) : null);
}
