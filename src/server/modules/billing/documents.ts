// Billing documents (docs/architecture.md, "Billing"): one invoice per captured payment and a
// credit note per refund, each numbered from its own gap-free series and frozen when issued.
//
// A number is taken inside the transaction that issues the document, by
//   UPDATE document_sequences SET next = next + 1 WHERE name = … RETURNING next - 1
// The row lock serialises concurrent captures on every process; a transaction that rolls back
// gives its number back with it. So the series never skips or repeats a number, and a request
// that fails consumes none. Amounts are integer cents (docs/decisions/007-billing-documents.md).
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { type capturedPayments, creditNotes, type DocumentParty, documentSequences, invoices, packages } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import type { BusinessProfile } from "@/server/lib/business";
import {
  type BillingDocumentRow,
  billingSettings,
  formatDocumentNumber,
  INVOICE_KIND_TITLES,
  type InvoiceKind,
  invoiceKind,
  vatBreakdown,
} from "@/shared/billing";
import { toCents } from "@/shared/money";
import { packageMonths } from "@/shared/pricing";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;
type Payment = typeof capturedPayments.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;

export type Series = "invoice" | "credit_note";

/** Takes the next number of a series inside `tx` (the row stays locked until it commits). */
export async function takeNumber(tx: Tx, series: Series): Promise<number> {
  const rows = await tx
    .update(documentSequences)
    .set({ next: sql`${documentSequences.next} + 1`, updated_at: new Date() })
    .where(eq(documentSequences.name, series))
    .returning({ taken: sql<number>`${documentSequences.next} - 1` });
  if (rows[0]) return Number(rows[0].taken);
  // A database restored from before billing: start the series.
  await tx.insert(documentSequences).values({ name: series, next: 2 }).onConflictDoNothing();
  return takeNumber(tx, series);
}

/** The next number each series will give (the dashboard's numbering settings). */
export async function nextNumbers(db: Executor): Promise<Record<Series, number>> {
  const rows = await db.select().from(documentSequences);
  const next = Object.fromEntries(rows.map((r) => [r.name, r.next]));
  return { invoice: next.invoice ?? 1, credit_note: next.credit_note ?? 1 };
}

/** The seller as the business's settings describe it now (frozen onto each document). */
export function sellerOf(business: BusinessProfile): DocumentParty {
  const s = business.settings;
  const billing = billingSettings(s);
  return {
    name: s.business_legal_name?.trim() || business.companyName,
    company: business.companyName,
    address: s.business_address?.trim() ?? "",
    vat_number: billing.vatVendor ? billing.vatNumber : "",
    email: business.supportEmail,
    registration_number: s.registration_number?.trim() ?? "",
  };
}

/** The buyer: what they gave at the review step, else what their account says. */
export function buyerOf(payment: Payment, client: ClientRow | null): DocumentParty {
  return {
    name: client?.full_name || payment.client_email || "Customer",
    company: payment.buyer_company || client?.billing_company || "",
    address: payment.buyer_address || client?.billing_address || "",
    vat_number: payment.buyer_vat_number || client?.billing_vat_number || "",
    email: payment.client_email || client?.email || "",
  };
}

/**
 * Issues the invoice of a payment that was just captured, in the capture's transaction. Once
 * per payment (payment_id is unique): a replay finds the one already issued.
 */
export async function issueInvoice(
  tx: Tx,
  business: BusinessProfile,
  payment: Payment,
  client: ClientRow | null,
  now: Date,
): Promise<Invoice> {
  const [existing] = await tx.select().from(invoices).where(eq(invoices.payment_id, payment.id));
  if (existing) return existing;
  const billing = billingSettings(business.settings);
  const incl = toCents(payment.amount);
  const discount = toCents(payment.discount ?? 0);
  const rate = billing.vatVendor ? billing.vatRate : 0;
  const { excl, vat } = vatBreakdown(incl, rate);
  const [pkg] = payment.package_id
    ? await tx
        .select({ duration_months: packages.duration_months, duration: packages.duration, name: packages.name })
        .from(packages)
        .where(eq(packages.id, payment.package_id))
    : [];
  const months = packageMonths(pkg ?? { duration_months: null, duration: payment.package_name, name: payment.package_name }) ?? 0;
  const seq = await takeNumber(tx, "invoice");
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number: formatDocumentNumber(billing.invoicePrefix, seq),
      payment_id: payment.id,
      client_id: client?.id ?? payment.client_id,
      kind: invoiceKind(incl, billing.vatVendor),
      issued_at: now,
      seller: sellerOf(business),
      buyer: buyerOf(payment, client),
      description: payment.description || `${payment.package_name} IPTV Subscription`,
      term_months: months,
      list_cents: incl + discount,
      discount_cents: discount,
      coupon_code: payment.coupon_code ?? "",
      excl_cents: excl,
      vat_cents: vat,
      incl_cents: incl,
      vat_rate: String(rate),
      reference: payment.external_transaction_id,
    })
    .returning();
  return invoice;
}

export const documentTitle = (kind: string): string => INVOICE_KIND_TITLES[kind as InvoiceKind] ?? "Invoice";

/** [from, to) of a month 'YYYY-MM' in South African time (UTC+2, no daylight saving). */
export function monthRange(month: string): { from: Date; to: Date } {
  const [y, m] = month.split("-").map(Number);
  return { from: new Date(Date.UTC(y, m - 1, 1, -2)), to: new Date(Date.UTC(y, m, 1, -2)) };
}

/** Invoices and credit notes issued in a month (or all, newest first), optionally one client's. */
export async function listDocuments(db: Executor, options: { month?: string; clientId?: string; limit?: number } = {}) {
  const range = options.month ? monthRange(options.month) : null;
  const invoiceWhere = and(
    range ? gte(invoices.issued_at, range.from) : undefined,
    range ? lt(invoices.issued_at, range.to) : undefined,
    options.clientId ? eq(invoices.client_id, options.clientId) : undefined,
  );
  const noteWhere = and(
    range ? gte(creditNotes.issued_at, range.from) : undefined,
    range ? lt(creditNotes.issued_at, range.to) : undefined,
    options.clientId ? eq(creditNotes.client_id, options.clientId) : undefined,
  );
  const limit = options.limit ?? 5000;
  const [invoiceRows, noteRows] = await Promise.all([
    db.select().from(invoices).where(invoiceWhere).orderBy(desc(invoices.issued_at)).limit(limit),
    db
      .select({ note: creditNotes, invoice_number: invoices.number, buyer: invoices.buyer })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id))
      .where(noteWhere)
      .orderBy(desc(creditNotes.issued_at))
      .limit(limit),
  ]);
  const rows: BillingDocumentRow[] = [
    ...invoiceRows.map(
      (i): BillingDocumentRow => ({
        type: "invoice",
        number: i.number,
        kind: i.kind,
        title: documentTitle(i.kind),
        issued_at: i.issued_at.toISOString(),
        customer: partyName(i.buyer),
        client_id: i.client_id,
        payment_id: i.payment_id,
        reference: i.reference,
        excl_cents: i.excl_cents,
        vat_cents: i.vat_cents,
        incl_cents: i.incl_cents,
      }),
    ),
    ...noteRows.map(
      ({ note, invoice_number, buyer }): BillingDocumentRow => ({
        type: "credit_note",
        number: note.number,
        kind: "credit-note",
        title: "Credit Note",
        issued_at: note.issued_at.toISOString(),
        customer: partyName(buyer),
        client_id: note.client_id,
        payment_id: note.payment_id,
        reference: invoice_number,
        excl_cents: note.excl_cents,
        vat_cents: note.vat_cents,
        incl_cents: note.incl_cents,
        invoice_number,
        reason: note.reason,
      }),
    ),
  ];
  return rows.sort((a, b) => b.issued_at.localeCompare(a.issued_at) || b.number.localeCompare(a.number));
}

export const partyName = (party: DocumentParty): string => (party.company ? `${party.company} (${party.name})` : party.name);
