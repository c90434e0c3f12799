// The client's and the owner's view of automatic renewals (issue 44), and turning one off.

import { and, asc, count, desc, eq, gte, inArray, isNotNull, lte } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { providerDefinition } from "@/server/adapters/payments/registry";
import { autoRenewals, clients, packages, renewalCharges } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { AUTO_RENEW_CHARGE_DAYS, type AutoRenewView, type RenewalsOverview } from "@/shared/auto-renew";
import { toCents } from "@/shared/money";
import { canChangeCard } from "./card-change";
import { disableAutoRenew } from "./cards";
import { chargerFor, renewsByCard } from "./renewals";

const DAY_MS = 86_400_000;

/** What the portal and the owner see: never the token. Null when the client never chose it. */
export async function autoRenewView(app: FastifyInstance, clientId: string): Promise<AutoRenewView | null> {
  const [row] = await app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, clientId));
  if (!row) return null;
  const via = providerDefinition(row.provider)?.sentenceName ?? row.provider;
  return {
    enabled: row.enabled,
    provider: row.provider,
    card: `${row.card_label || "card"} via ${via}`,
    consent: row.consent_text,
    consentAt: row.consent_at?.toISOString() ?? null,
    ready: row.enabled && row.token_sealed !== null,
    canChangeCard: canChangeCard(app, row),
  };
}

/**
 * Off: no later charge (the term's unsent charge is dropped in the same transaction), and the
 * provider told to forget the card. A provider that cannot be reached is tried again by the job.
 */
export async function stopAutoRenew(app: FastifyInstance, clientId: string, reason: string): Promise<AutoRenewView | null> {
  await app.db.transaction((tx) => disableAutoRenew(tx, clientId, reason));
  await cancelAtProvider(app, clientId);
  return autoRenewView(app, clientId);
}

/** Tells the provider to forget the card of a renewal that is off, then forgets the token; false when the provider could not be told. */
export async function cancelAtProvider(app: FastifyInstance, clientId: string): Promise<boolean> {
  const [row] = await app.db
    .select()
    .from(autoRenewals)
    .where(and(eq(autoRenewals.client_id, clientId), eq(autoRenewals.enabled, false), isNotNull(autoRenewals.token_sealed)));
  if (!row?.token_sealed) return true;
  const charger = chargerFor(app, row.provider);
  if (!charger) return false;
  try {
    await charger.cancel(await open(app.db, row.token_sealed));
  } catch (error) {
    app.log.warn({ err: error, client: clientId, provider: row.provider }, "saved card not cancelled at the provider: tried again later");
    return false;
  }
  await app.db
    .update(autoRenewals)
    .set({ token_sealed: null, updated_at: new Date() })
    .where(and(eq(autoRenewals.client_id, clientId), eq(autoRenewals.enabled, false)));
  return true;
}

/** Renewals turned off whose card the provider still keeps (a refund, a suspension, a failed cancel): told now. */
export async function cancelPending(app: FastifyInstance): Promise<number> {
  const rows = await app.db
    .select({ id: autoRenewals.client_id })
    .from(autoRenewals)
    .where(and(eq(autoRenewals.enabled, false), isNotNull(autoRenewals.token_sealed)))
    .limit(100);
  let done = 0;
  for (const { id } of rows) if (await cancelAtProvider(app, id)) done++;
  return done;
}

/** GET /api/admin/renewals: how many renew by card, what is charged in the next 7 days, what failed. */
export async function renewalsOverview(app: FastifyInstance, now: Date = new Date()): Promise<RenewalsOverview> {
  const [{ n }] = await app.db.select({ n: count() }).from(autoRenewals).where(renewsByCard());
  const due = await app.db
    .select({ id: clients.id, name: clients.full_name, end: clients.subscription_end, price: packages.price })
    .from(autoRenewals)
    .innerJoin(clients, eq(clients.id, autoRenewals.client_id))
    .innerJoin(packages, eq(packages.id, clients.package_id))
    .where(
      renewsByCard(
        eq(clients.status, "active"),
        gte(clients.subscription_end, now),
        lte(clients.subscription_end, new Date(now.getTime() + (7 + AUTO_RENEW_CHARGE_DAYS) * DAY_MS)),
      ),
    )
    .orderBy(asc(clients.subscription_end))
    .limit(200);
  const failures = await app.db
    .select({ charge: renewalCharges, name: clients.full_name })
    .from(renewalCharges)
    .innerJoin(clients, eq(clients.id, renewalCharges.client_id))
    .where(
      and(inArray(renewalCharges.status, ["declined", "unknown"]), gte(renewalCharges.updated_at, new Date(now.getTime() - 30 * DAY_MS))),
    )
    .orderBy(desc(renewalCharges.updated_at))
    .limit(50);
  return {
    autoRenewing: Number(n),
    due: due
      .map((d) => ({ ...d, chargeOn: new Date((d.end as Date).getTime() - AUTO_RENEW_CHARGE_DAYS * DAY_MS) }))
      .filter((d) => d.chargeOn.getTime() <= now.getTime() + 7 * DAY_MS)
      .map((d) => ({
        clientId: d.id,
        name: d.name,
        amount: toCents(d.price) / 100,
        chargeOn: d.chargeOn.toISOString(),
        termEnd: (d.end as Date).toISOString(),
      })),
    failures: failures.map(({ charge, name }) => ({
      clientId: charge.client_id,
      name,
      status: charge.status,
      reason: charge.last_error,
      termEnd: charge.term_end.toISOString(),
      at: charge.updated_at.toISOString(),
    })),
  };
}
