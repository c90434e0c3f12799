// Payments as the business manages them: the list (and its CSV), confirming an EFT (or any
// pending payment), recording a payment taken by hand, and linking a payment to a (refunds: modules/billing)
// client. Money that is confirmed is settled the one way every payment is (payments/settle.ts:
// the account, the term through the lifecycle module, one receipt), in the same transaction as
// the status change, so nothing happens twice or without the rest.
import { randomInt } from "node:crypto";
import { and, count, eq, getTableColumns, gte, ilike, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { capturedPayments, clients, packages, refundAttempts } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { badRequest, conflict, notFound } from "@/server/lib/errors";
import { loadRules } from "@/server/lib/lifecycle";
import { containsPattern, dateRange, ordering, pageWindow } from "@/server/lib/list-query";
import { appendNote as appendLine } from "@/server/lib/notes";
import { insertPayment } from "@/server/modules/payments/insert-payment";
import { settlePayment } from "@/server/modules/payments/settle";
import type { PAYMENT_SORTS, PaymentCreate, PaymentListQuery, PaymentPatch } from "@/shared/business-schemas";

type Payment = typeof capturedPayments.$inferSelect;

export const ALREADY_PAID = "Already paid";
export const REFUNDED_ALREADY = "This payment was refunded: record a new payment instead.";
/** Statuses an admin may confirm as paid: a card payment the provider reported failed may still have been paid by other means. */
const CONFIRMABLE = ["pending", "failed", "cancelled"];

const { raw_payload: _payload, ...listColumns } = getTableColumns(capturedPayments);

/** A refund attempt of this payment still open: being sent, or sent and its answer lost (modules/billing/provider-refunds.ts). */
const openRefundOfPayment = sql`${refundAttempts.payment_id} = ${capturedPayments.id} and ${refundAttempts.state} in ('pending', 'made')`;

/**
 * What of the payment's refunded_amount is only held (rand): refunds sent to the provider and
 * not yet confirmed (modules/billing/provider-refunds.ts). The amount is reserved, not refunded.
 */
const refundHeldAmount =
  sql<number>`coalesce((select sum(${refundAttempts.amount_cents}) from ${refundAttempts} where ${openRefundOfPayment}), 0) / 100.0`.mapWith(
    Number,
  );

/** A payment as the dashboard lists it (the payments list, a client's page): with its client and its held refund. */
export const paymentRowColumns = {
  ...listColumns,
  client_username: clients.username,
  client_full_name: clients.full_name,
  refund_held: refundHeldAmount,
};

const SORT_COLUMNS = {
  created_at: capturedPayments.created_at,
  paid_at: capturedPayments.paid_at,
  amount: capturedPayments.amount,
  status: capturedPayments.status,
  provider: capturedPayments.provider,
} satisfies Record<(typeof PAYMENT_SORTS)[number], unknown>;

/**
 * The payment has a refund still open (modules/billing/provider-refunds.ts): being sent, or sent and its
 * answer lost, so its amount stays held on the payment until the provider confirms it either way.
 */
export const refundHeld = sql`exists (select 1 from ${refundAttempts} where ${openRefundOfPayment})`;

export function paymentWhere(query: Omit<PaymentListQuery, "page" | "pageSize" | "sort" | "dir">): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(
      or(
        ilike(capturedPayments.external_transaction_id, pattern),
        ilike(capturedPayments.provider_reference, pattern),
        ilike(capturedPayments.client_email, pattern),
        ilike(capturedPayments.package_name, pattern),
        // EFT notes carry the name and number the customer gave.
        ilike(capturedPayments.notes, pattern),
        ilike(clients.full_name, pattern),
        ilike(clients.username, pattern),
      ),
    );
  }
  if (query.status) conditions.push(eq(capturedPayments.status, query.status));
  if (query.provider) conditions.push(eq(capturedPayments.provider, query.provider));
  if (query.refund === "held") conditions.push(refundHeld);
  const { from, toExclusive } = dateRange(query.from, query.to);
  if (from) conditions.push(gte(capturedPayments.created_at, from));
  if (toExclusive) conditions.push(lt(capturedPayments.created_at, toExclusive));
  return and(...conditions);
}

export async function listPayments(app: FastifyInstance, query: PaymentListQuery, all = false) {
  const where = paymentWhere(query);
  const { limit, offset } = pageWindow(query, all);
  const rows = app.db
    .select(paymentRowColumns)
    .from(capturedPayments)
    .leftJoin(clients, eq(clients.id, capturedPayments.client_id))
    .where(where)
    .orderBy(...ordering(SORT_COLUMNS[query.sort], query.dir, capturedPayments.id))
    .offset(offset)
    .$dynamic();
  const [data, [{ n }]] = await Promise.all([
    limit ? rows.limit(limit) : rows,
    app.db.select({ n: count() }).from(capturedPayments).leftJoin(clients, eq(clients.id, capturedPayments.client_id)).where(where),
  ]);
  return { data, total: n };
}

/**
 * One payment with the provider's raw payload (for the detail view). `db`: a transaction that
 * has just changed it, so the answer is read before the commit: once the money is recorded, no
 * wait for another pooled connection may turn the answer into a 503 that invites a second click.
 */
export async function getPayment(app: FastifyInstance, id: string, db: Pick<FastifyInstance["db"], "select"> = app.db) {
  const [row] = await db
    .select({ ...paymentRowColumns, raw_payload: capturedPayments.raw_payload })
    .from(capturedPayments)
    .leftJoin(clients, eq(clients.id, capturedPayments.client_id))
    .where(eq(capturedPayments.id, id));
  if (!row) throw notFound("No payment with that id.");
  return row;
}

async function findPayment(app: FastifyInstance, id: string): Promise<Payment> {
  const [row] = await app.db.select().from(capturedPayments).where(eq(capturedPayments.id, id));
  if (!row) throw notFound("No payment with that id.");
  return row;
}

const appendNote = (note: string) => (note.trim() ? appendLine(capturedPayments.notes, note.trim()) : capturedPayments.notes);

/** Confirms money received (an EFT that reflected, or any pending payment). A second call is 409 'Already paid'. */
export async function markPaid(app: FastifyInstance, request: FastifyRequest, id: string, note: string) {
  const context = {
    business: await loadBusiness(app),
    rules: await loadRules(app),
    panelMode: app.provisioning.panel.mode,
    cloudApi: app.outbox.cloudApi,
  };
  const result = await app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(capturedPayments).where(eq(capturedPayments.id, id)).for("update");
    if (!before) throw notFound("No payment with that id.");
    if (before.status === "paid") throw conflict(ALREADY_PAID);
    if (before.status === "refunded") throw conflict(REFUNDED_ALREADY);
    const now = new Date();
    const [after] = await tx
      .update(capturedPayments)
      .set({ status: "paid", paid_at: now, notes: appendNote(note ? `Marked paid: ${note}` : ""), updated_at: now })
      .where(and(eq(capturedPayments.id, id), inArray(capturedPayments.status, CONFIRMABLE)))
      .returning();
    // The row lock makes this unreachable unless the status changed between read and write.
    if (!after) throw conflict(ALREADY_PAID);
    await settlePayment(tx, context, after, now);
    await audit(tx, request, { action: "mark-paid", resource: "captured_payments", resourceId: id, before, after });
    return getPayment(app, after.id, tx);
  });
  app.outbox.nudge();
  return result;
}

function manualReference(now = Date.now()): string {
  const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  let code = "";
  for (let i = 0; i < 6; i++) code += alphabet[randomInt(alphabet.length)];
  return `MANUAL_${now}_${code}`;
}

/** A payment the admin took by hand (cash, a transfer seen in the bank app): paid now, extends, receipt. */
export async function recordPayment(app: FastifyInstance, request: FastifyRequest, input: PaymentCreate) {
  const [client] = await app.db.select({ id: clients.id, email: clients.email }).from(clients).where(eq(clients.id, input.client_id));
  if (!client) throw badRequest("That client does not exist.", { client_id: "That client does not exist." });
  const [pkg] = await app.db.select().from(packages).where(eq(packages.id, input.package_id));
  if (!pkg) throw badRequest("That package does not exist.", { package_id: "That package does not exist." });
  const paidAt = input.paid_at ? new Date(input.paid_at) : new Date();
  if (paidAt.getTime() > Date.now() + 60_000) {
    throw badRequest("A payment cannot be paid in the future.", { paid_at: "A payment cannot be paid in the future." });
  }
  const context = {
    business: await loadBusiness(app),
    rules: await loadRules(app),
    panelMode: app.provisioning.panel.mode,
    cloudApi: app.outbox.cloudApi,
  };
  const created = await app.db.transaction(async (tx) => {
    const row = await insertPayment(tx, {
      reference: manualReference(),
      recorded: { amount: input.amount, pkg, client, paidAt },
      notes: input.note ? `Recorded by hand: ${input.note}` : "Recorded by hand",
    });
    // The reference is made of the time and six random characters: taken only by a twin click.
    if (!row) throw conflict("That payment was just recorded. Refresh to see it.");
    // Time is added from now (or the current end), whenever the money came in.
    await settlePayment(tx, context, row, new Date());
    await audit(tx, request, { action: "create", resource: "captured_payments", resourceId: row.id, after: row });
    return getPayment(app, row.id, tx);
  });
  app.outbox.nudge();
  return created;
}

/** Link a payment (typically a pending EFT) to a client, and/or edit its notes. Linking alone buys no time. */
export async function patchPayment(app: FastifyInstance, request: FastifyRequest, id: string, patch: PaymentPatch) {
  const before = await findPayment(app, id);
  const changes: Partial<Payment> = { updated_at: new Date() };
  if (patch.notes !== undefined) changes.notes = patch.notes;
  if (patch.client_id !== undefined) {
    if (patch.client_id) {
      const [client] = await app.db.select({ id: clients.id, email: clients.email }).from(clients).where(eq(clients.id, patch.client_id));
      if (!client) throw badRequest("That client does not exist.", { client_id: "That client does not exist." });
      changes.client_id = client.id;
      // The receipt needs an address: take the client's when the payment came without one.
      if (!before.client_email) changes.client_email = client.email;
    } else changes.client_id = null;
  }
  await app.db.transaction(async (tx) => {
    const [after] = await tx.update(capturedPayments).set(changes).where(eq(capturedPayments.id, id)).returning();
    if (!after) throw notFound("No payment with that id.");
    await audit(tx, request, { action: "update", resource: "captured_payments", resourceId: id, before, after });
  });
  return getPayment(app, id);
}
