// The month's billing documents as CSV, for the bookkeeper.
import type { Db } from "@/server/db/client";
import { csvDateTime, toCsv } from "@/server/modules/admin-business/csv";
import type { BillingDocumentRow } from "@/shared/billing";
import { fromCents } from "@/shared/money";
import { listDocuments } from "./documents";

const CSV_COLUMNS = [
  { header: "type", value: (r: BillingDocumentRow) => (r.type === "invoice" ? r.title : "Credit Note") },
  { header: "number", value: (r: BillingDocumentRow) => r.number },
  { header: "date", value: (r: BillingDocumentRow) => csvDateTime(new Date(r.issued_at)) },
  { header: "customer", value: (r: BillingDocumentRow) => r.customer },
  // Credit notes count against the month: negative amounts, as a bookkeeper enters them.
  { header: "excl_vat", value: (r: BillingDocumentRow) => signed(r, r.excl_cents) },
  { header: "vat", value: (r: BillingDocumentRow) => signed(r, r.vat_cents) },
  { header: "incl_vat", value: (r: BillingDocumentRow) => signed(r, r.incl_cents) },
  { header: "reference", value: (r: BillingDocumentRow) => r.reference },
];

/** Rand as a number cell (a spreadsheet sums it); a credit note's negative. */
function signed(row: BillingDocumentRow, cents: number): number {
  return fromCents(row.type === "credit_note" ? -cents : cents);
}

/** The month's invoices and credit notes as CSV, oldest first. */
export async function monthCsv(db: Db, month: string) {
  const rows = (await listDocuments(db, { month })).reverse();
  return {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="billing-${month}.csv"`,
      "cache-control": "no-store",
    },
    body: toCsv(CSV_COLUMNS, rows),
  };
}
