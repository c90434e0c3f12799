// Automatic renewals by a kept card (issue 44). For each client whose renewal is on and whose card
// is kept, per term (renewal_charges, unique client + term end):
//   - 3 days before the end: one notice, on their channel and by e-mail, of what will be charged when;
//   - the day before the end: one charge. The row is claimed (status 'sent', attempts + 1, a new
//     pending payment for it) in one transaction before the provider is asked, so two processes or
//     a retry never charge twice. The provider's notification settles that payment through the one
//     capture path (payments/intake.ts), which extends the term through the lifecycle module.
//   - declined: no term change; the customer gets the pay link and the reason; one retry the next
//     day; the owner is alerted.
//   - unknown (no answer, 5xx): never sent again; the provider is asked what it holds, the owner
//     is alerted, and the charge's notification settles it if it was made.

import { and, eq, gte, inArray, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { providerDefinition } from "@/server/adapters/payments/registry";
import type { SavedCardCharger } from "@/server/adapters/payments/saved-card";
import { selectHostedProviders } from "@/server/adapters/payments/select-provider";
import type { Db } from "@/server/db/client";
import { autoRenewals, capturedPayments, clients, packages, renewalCharges } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { enqueue } from "@/server/lib/outbox";
import { alertOwner } from "@/server/lib/owner-alerts";
import { type PayLinks, renewLinkFor } from "@/server/lib/reminder-words";
import { loadPayLinks } from "@/server/modules/pay-links/links";
import { makeTransactionId } from "@/server/modules/payments/checkout";
import { createPaymentsContext } from "@/server/modules/payments/context";
import { insertPayment } from "@/server/modules/payments/insert-payment";
import { captureIfConfirmed } from "@/server/modules/payments/intake";
import { AUTO_RENEW_CHARGE_DAYS, AUTO_RENEW_NOTICE_DAYS } from "@/shared/auto-renew";
import { formatDate } from "@/shared/dates";
import { formatRand, toCents } from "@/shared/money";
import { packageMonths } from "@/shared/pricing";
import { cardEmail, keptToken } from "./cards";

const DAY_MS = 86_400_000;
/** A declined charge is tried once more, this long after. */
const RETRY_AFTER_MS = DAY_MS;
/** Attempts per term: the first and one retry. */
const MAX_ATTEMPTS = 2;
/** Statuses whose term is renewed: a running term, or its grace days (a retry the day after a decline); never a suspended one. */
const RENEWED_STATUSES = ["active", "grace"];
/** A term that ended longer ago than this is not charged (the retry falls on the end day). */
const RETRY_WINDOW_MS = 2 * DAY_MS;
const BATCH = 200;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type ClientRow = typeof clients.$inferSelect;
type ChargeRow = typeof renewalCharges.$inferSelect;

/** A provider's name as the owner knows it (the registry's), for messages. */
const providerName = (name: string) => providerDefinition(name)?.sentenceName ?? name;

/** The saved-card charger of a provider, as configured (those whose registry entry can charge a saved card). */
export function chargerFor(app: FastifyInstance, provider: string): SavedCardCharger | null {
  const hosted = selectHostedProviders(app.config);
  for (const p of hosted.values()) if (p.name === provider && p.savedCards) return p.savedCards;
  return null;
}

const periodWords = (months: number) => (months <= 1 ? "another month" : `another ${months} months`);

/** "We'll charge R650 to your card on 2 March for another month; turn it off in your portal: …" */
export function noticeBody(facts: { name: string; amountCents: number; chargeOn: Date; months: number; portal: string }): string {
  return [
    `Hi ${facts.name},`,
    "",
    `We'll charge ${formatRand(facts.amountCents / 100)} to your card on ${formatDate(facts.chargeOn)} for ${periodWords(facts.months)}; turn it off in your portal: ${facts.portal}`,
  ].join("\n");
}

/** A provider's decline, in plain words for the customer. */
export function plainReason(reason: string): string {
  const r = reason.toLowerCase();
  if (/insufficient|funds/.test(r)) return "your bank said there was not enough money on the card";
  if (/expired/.test(r)) return "the card has expired";
  if (/cancel|not found|invalid token|no such/.test(r)) return "the card is no longer kept for us";
  return "your bank declined the charge";
}

/** Renewals that will charge (switched on, the card kept) and meet `more`. */
export const renewsByCard = (...more: SQL[]) => and(eq(autoRenewals.enabled, true), isNotNull(autoRenewals.token_sealed), ...more);

interface Due {
  client: ClientRow;
  provider: string;
  amountCents: number;
  months: number;
  packageId: string;
  packageName: string;
}

/** Clients whose renewal is on, whose card is kept and whose term ends within the notice days. */
async function dueClients(app: FastifyInstance, now: Date): Promise<Due[]> {
  const rows = await app.db
    .select({ client: clients, provider: autoRenewals.provider, pkg: packages })
    .from(autoRenewals)
    .innerJoin(clients, eq(clients.id, autoRenewals.client_id))
    .innerJoin(packages, eq(packages.id, clients.package_id))
    .where(
      renewsByCard(
        inArray(clients.status, RENEWED_STATUSES),
        isNotNull(clients.subscription_end),
        lte(clients.subscription_end, new Date(now.getTime() + AUTO_RENEW_NOTICE_DAYS * DAY_MS)),
        gte(clients.subscription_end, new Date(now.getTime() - RETRY_WINDOW_MS)),
      ),
    )
    .limit(BATCH);
  return rows.map((r) => ({
    client: r.client,
    provider: r.provider,
    amountCents: toCents(r.pkg.price),
    months: packageMonths(r.pkg) ?? 1,
    packageId: r.pkg.id,
    packageName: r.pkg.name,
  }));
}

export interface RenewalRun {
  noticed: number;
  charged: number;
  declined: number;
  unknown: number;
}

/** One pass at `now` (tests move the clock). Safe to run in any number of processes at once. */
export async function runAutoRenewals(app: FastifyInstance, now: Date = new Date()): Promise<RenewalRun> {
  const run: RenewalRun = { noticed: 0, charged: 0, declined: 0, unknown: 0 };
  const due = await dueClients(app, now);
  if (due.length) {
    const business = await loadBusiness(app);
    const payLinks = await loadPayLinks(app, now);
    for (const d of due) {
      if (await notice(app, business, d, now)) run.noticed++;
      const outcome = await chargeIfDue(app, business, payLinks, d, now);
      if (outcome) run[outcome]++;
    }
  }
  run.unknown += await lookUpUnknown(app, now);
  if (run.noticed || run.declined || run.unknown) app.outbox.nudge();
  if (run.noticed || run.charged || run.declined || run.unknown) app.log.info(run, "automatic renewals");
  return run;
}

/** The term's row made and its notice queued, once (the row's uniqueness). */
async function notice(app: FastifyInstance, business: BusinessProfile, d: Due, now: Date): Promise<boolean> {
  const end = d.client.subscription_end as Date;
  // A term already over gets no notice and no first charge (only a declined charge's retry).
  if (end.getTime() <= now.getTime()) return false;
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(renewalCharges)
      .values({
        client_id: d.client.id,
        term_end: end,
        provider: d.provider,
        amount_cents: d.amountCents,
        package_id: d.packageId,
        notice_sent_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: renewalCharges.id });
    if (!row) return false;
    const body = noticeBody({
      name: d.client.full_name,
      amountCents: d.amountCents,
      chargeOn: new Date(end.getTime() - AUTO_RENEW_CHARGE_DAYS * DAY_MS),
      months: d.months,
      portal: `${business.publicUrl}/client`,
    });
    await toCustomer(tx, d.client, {
      subject: "Your automatic renewal",
      body,
      kind: "auto-renew-notice",
      key: `auto-renew-notice:${row.id}`,
    });
    return true;
  });
}

/** On the client's channel, and by e-mail too when that is not their channel. */
async function toCustomer(tx: Tx, client: ClientRow, m: { subject: string; body: string; kind: string; key: string }): Promise<void> {
  const contact = preferredContact(client);
  if (contact) await enqueue(tx, { ...contact, subject: m.subject, body: m.body, kind: m.kind, client_id: client.id, dedupe_key: m.key });
  if (contact?.channel !== "email" && client.email) {
    await enqueue(tx, {
      channel: "email",
      recipient: client.email,
      subject: m.subject,
      body: m.body,
      kind: m.kind,
      client_id: client.id,
      dedupe_key: `${m.key}:email`,
    });
  }
}

/**
 * The claim: in one transaction the term's row moves to 'sent' (attempts + 1) only from pending,
 * or from declined once its retry is due, and its payment row is written. Whoever's UPDATE
 * matched sends; every other process finds nothing to claim.
 */
async function claim(app: FastifyInstance, d: Due, now: Date): Promise<{ charge: ChargeRow; reference: string } | null> {
  const end = d.client.subscription_end as Date;
  return app.db.transaction(async (tx) => {
    const [charge] = await tx
      .update(renewalCharges)
      .set({ status: "sent", attempts: sql`${renewalCharges.attempts} + 1`, next_attempt_at: null, updated_at: now })
      .where(
        and(
          eq(renewalCharges.client_id, d.client.id),
          eq(renewalCharges.term_end, end),
          sql`(${renewalCharges.status} = 'pending' or (${renewalCharges.status} = 'declined' and ${renewalCharges.attempts} < ${MAX_ATTEMPTS} and ${renewalCharges.next_attempt_at} <= ${now}))`,
        ),
      )
      .returning();
    if (!charge) return null;
    const reference = makeTransactionId(now.getTime());
    const [pkg] = await tx.select().from(packages).where(eq(packages.id, d.packageId));
    const payment = await insertPayment(tx, {
      provider: d.provider,
      reference,
      order: { pkg, price: charge.amount_cents / 100, amountCents: charge.amount_cents, coupon: null, discountCents: 0 },
      payer: { client: d.client, leadId: null, email: d.client.email, name: d.client.full_name },
      input: { packageId: d.packageId, lineType: d.client.line_type, mac: d.client.line_mac },
      email: d.client.email,
      notes: `Automatic renewal of the term ending ${formatDate(end)} (attempt ${charge.attempts}).`,
    });
    if (!payment) throw new Error(`renewal payment reference ${reference} already taken`);
    const [claimed] = await tx.update(renewalCharges).set({ payment_id: payment.id }).where(eq(renewalCharges.id, charge.id)).returning();
    return { charge: claimed, reference };
  });
}

async function chargeIfDue(
  app: FastifyInstance,
  business: BusinessProfile,
  payLinks: PayLinks,
  d: Due,
  now: Date,
): Promise<"charged" | "declined" | "unknown" | null> {
  const end = d.client.subscription_end as Date;
  if (now.getTime() < end.getTime() - AUTO_RENEW_CHARGE_DAYS * DAY_MS) return null;
  const charger = chargerFor(app, d.provider);
  if (!charger) return null;
  const claimed = await claim(app, d, now);
  if (!claimed) return null;
  const { charge, reference } = claimed;
  const token = await keptToken(app.db, d.client.id);
  const payer = { email: await cardEmail(app.db, d.client.id, d.client.email) };
  const result = token
    ? await charger.charge(token, charge.amount_cents, `${d.packageName} renewal`, reference, payer)
    : ({ outcome: "declined", reason: "no card is kept" } as const);
  if (result.outcome === "paid") {
    await app.db
      .update(renewalCharges)
      .set({ provider_reference: result.providerReference ?? null, last_error: "", updated_at: new Date() })
      .where(eq(renewalCharges.id, charge.id));
    return "charged";
  }
  if (result.outcome === "unknown") {
    await app.db.transaction(async (tx) => {
      await tx
        .update(renewalCharges)
        .set({ status: "unknown", last_error: result.reason.slice(0, 500), updated_at: now })
        .where(eq(renewalCharges.id, charge.id));
    });
    await alertOwner(app, app.db, {
      cause: "renewal-failed",
      dedupeKey: `renewal-unknown:${charge.id}`,
      subject: `${d.client.full_name}'s automatic renewal: no answer from the card provider`,
      body: [
        `We asked ${providerName(d.provider)} to charge ${formatRand(charge.amount_cents / 100)} to ${d.client.full_name}'s card for the term ending ${formatDate(end)}, and got no clear answer (${result.reason}).`,
        `It is not tried again: if the charge went through, its notification renews the line. Check the payment in your ${providerName(d.provider)} dashboard.`,
        "",
        `${business.publicUrl}/admin/payments`,
      ].join("\n"),
    });
    return "unknown";
  }
  const retry = charge.attempts < MAX_ATTEMPTS;
  await app.db.transaction(async (tx) => {
    await tx
      .update(renewalCharges)
      .set({
        status: "declined",
        last_error: result.reason.slice(0, 500),
        next_attempt_at: retry ? new Date(now.getTime() + RETRY_AFTER_MS) : null,
        updated_at: new Date(),
      })
      .where(eq(renewalCharges.id, charge.id));
    if (charge.payment_id) {
      await tx
        .update(capturedPayments)
        .set({ status: "failed", notes: `Automatic renewal declined: ${result.reason}`.slice(0, 2000), updated_at: new Date() })
        .where(and(eq(capturedPayments.id, charge.payment_id), eq(capturedPayments.status, "pending")));
    }
    await tellDeclined(tx, business, payLinks, d.client, { ...d, charge, reason: result.reason, retry });
  });
  await alertDeclined(app, d.client, { charge, provider: d.provider, reason: result.reason, retry });
  return "declined";
}

/** The customer's decline message (the pay link, the reason in plain words), once per attempt (its dedupe key), in the caller's transaction. */
async function tellDeclined(
  tx: Tx,
  business: BusinessProfile,
  payLinks: PayLinks,
  client: ClientRow,
  d: { packageId: string; packageName: string; charge: ChargeRow; reason: string; retry: boolean },
): Promise<void> {
  const end = d.charge.term_end;
  const link = renewLinkFor(business, { trial: false, packageId: d.packageId, clientId: client.id, payLinks }).url;
  const body = [
    `Hi ${client.full_name},`,
    "",
    `We couldn't renew your ${d.packageName} with your card: ${plainReason(d.reason)}.`,
    `To keep watching, pay here before ${formatDate(end)}: ${link}`,
    d.retry ? "We'll try the card once more tomorrow." : "We won't try the card again for this term.",
  ].join("\n");
  await toCustomer(tx, client, {
    subject: "Your automatic renewal did not go through",
    body,
    kind: "auto-renew-declined",
    key: `auto-renew-declined:${d.charge.id}:${d.charge.attempts}`,
  });
}

/** The owner's alert of a declined charge, once per attempt. */
async function alertDeclined(
  app: FastifyInstance,
  client: ClientRow,
  d: { charge: ChargeRow; provider: string; reason: string; retry: boolean },
): Promise<void> {
  await alertOwner(app, app.db, {
    cause: "renewal-failed",
    dedupeKey: `renewal-declined:${d.charge.id}:${d.charge.attempts}`,
    subject: `${client.full_name}'s automatic renewal was declined`,
    body: [
      `${providerName(d.provider)} declined ${formatRand(d.charge.amount_cents / 100)} on ${client.full_name}'s card for the term ending ${formatDate(d.charge.term_end)}: ${d.reason}.`,
      d.retry ? "It is tried once more tomorrow; the customer has the pay link." : "It is not tried again; the customer has the pay link.",
    ].join("\n"),
  });
}

/** What a decline found by a lookup is told with: the client, the package, the business and its pay links (read before the transaction). */
async function declineFacts(app: FastifyInstance, charge: ChargeRow, payment: typeof capturedPayments.$inferSelect | null, now: Date) {
  const [client] = await app.db.select().from(clients).where(eq(clients.id, charge.client_id));
  if (!client) return null;
  const [pkg] = charge.package_id
    ? await app.db.select({ name: packages.name }).from(packages).where(eq(packages.id, charge.package_id))
    : [];
  return {
    client,
    packageId: charge.package_id ?? client.package_id ?? "",
    packageName: pkg?.name ?? payment?.package_name ?? "subscription",
    business: await loadBusiness(app),
    payLinks: await loadPayLinks(app, now),
  };
}

/**
 * Charges whose answer was lost: the provider is asked (never charged again blindly), once each.
 * Where it can say what became of the charge by its reference (a verify by reference): paid → settled
 * through the one capture path; declined → as a decline (the retry rule holds); never made → free to
 * be sent again, with a new reference, at the next pass. Otherwise what it holds for the card is
 * noted for the owner, and the charge's notification settles it if it was made. Returns how many
 * were looked up.
 */
async function lookUpUnknown(app: FastifyInstance, now: Date): Promise<number> {
  const rows = await app.db
    .select({ charge: renewalCharges, payment: capturedPayments })
    .from(renewalCharges)
    .leftJoin(capturedPayments, eq(capturedPayments.id, renewalCharges.payment_id))
    .where(
      and(
        eq(renewalCharges.status, "unknown"),
        // once each: what the provider holds is then on the owner's list; the charge's notification still settles it
        sql`${renewalCharges.last_error} not like '%| looked up:%'`,
        sql`${renewalCharges.updated_at} <= ${new Date(now.getTime() - 60 * 60_000)}`,
      ),
    )
    .limit(BATCH);
  let still = 0;
  for (const { charge: row, payment } of rows) {
    const charger = chargerFor(app, row.provider);
    const token = await keptToken(app.db, row.client_id);
    if (!charger || !token) continue;
    const lostWhy = row.last_error.split(" | looked up:")[0];
    try {
      const found = await charger.lookup(token, payment?.external_transaction_id);
      const said = found.charge;
      if (said?.outcome === "paid" && payment) {
        // the one capture path: amount checked, the term extended once, the charge marked paid (afterCapture)
        await captureIfConfirmed(
          createPaymentsContext(app),
          payment,
          { status: "paid", amountCents: said.amountCents, providerPaymentId: said.providerPaymentId },
          { source: "renewal-lookup", status: found.status },
          said.providerPaymentId,
        );
        continue;
      }
      if (said && said.outcome !== "paid") {
        const again = said.outcome === "none" || row.attempts < MAX_ATTEMPTS;
        // a charge made and declined is told to the customer and the owner as a first-answer decline is (same keys: once)
        const told = said.outcome === "declined" ? await declineFacts(app, row, payment, now) : null;
        const moved = await app.db.transaction(async (tx) => {
          const [moved] = await tx
            .update(renewalCharges)
            .set({
              status: "declined",
              // never made: the attempt did not count
              ...(said.outcome === "none" ? { attempts: sql`greatest(${renewalCharges.attempts} - 1, 0)` } : {}),
              last_error: `${lostWhy} | looked up: ${said.outcome === "none" ? "no charge was made" : said.reason}`.slice(0, 500),
              next_attempt_at: again ? new Date(now.getTime() + (said.outcome === "none" ? 0 : RETRY_AFTER_MS)) : null,
              updated_at: new Date(),
            })
            .where(and(eq(renewalCharges.id, row.id), eq(renewalCharges.status, "unknown")))
            .returning({ id: renewalCharges.id });
          if (moved && payment) {
            await tx
              .update(capturedPayments)
              .set({
                status: "failed",
                notes: `Automatic renewal ${said.outcome === "none" ? "not made" : `declined: ${said.reason}`}`.slice(0, 2000),
                updated_at: new Date(),
              })
              .where(and(eq(capturedPayments.id, payment.id), eq(capturedPayments.status, "pending")));
          }
          if (moved && told && said.outcome === "declined") {
            await tellDeclined(tx, told.business, told.payLinks, told.client, { ...told, charge: row, reason: said.reason, retry: again });
          }
          return Boolean(moved);
        });
        if (moved && told && said.outcome === "declined") {
          await alertDeclined(app, told.client, { charge: row, provider: row.provider, reason: said.reason, retry: again });
          app.outbox.nudge();
        }
        still++;
        continue;
      }
      await app.db
        .update(renewalCharges)
        .set({
          // the lost answer's reason kept, the provider's word on the card beside it
          last_error: `${lostWhy} | looked up: the card is ${found.status || "unknown"} at ${row.provider}`.slice(0, 500),
          updated_at: new Date(),
        })
        .where(and(eq(renewalCharges.id, row.id), eq(renewalCharges.status, "unknown")));
    } catch (error) {
      app.log.warn({ err: error, charge: row.id }, "renewal charge lookup failed");
    }
    still++;
  }
  return still;
}
