// Billing documents as PDF files: a client's or the owner's download, and the outbox's attachment.
import { and, eq } from "drizzle-orm";
import type { EmailAttachment } from "@/server/adapters/email";
import type { Db } from "@/server/db/client";
import { creditNotes, invoices } from "@/server/db/schema";
import { AppError, notFound } from "@/server/lib/errors";
import { creditNotePdf, invoicePdf } from "./pdf";

/** 'INV-000001.pdf' → 'INV-000001' (a name that is not a document's is a 404). */
export function documentNumberOf(file: string): string {
  const match = /^([A-Za-z0-9/-]{1,40})\.pdf$/.exec(file);
  if (!match) throw notFound("No such document.");
  return match[1];
}

/** An invoice as PDF; with `clientId`, only that client's (another's number is a 404, as if it did not exist). */
export async function invoicePdfFor(db: Db, number: string, clientId?: string) {
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.number, number), clientId ? eq(invoices.client_id, clientId) : undefined));
  if (!invoice) throw notFound("No invoice with that number.");
  return { filename: `${invoice.number}.pdf`, content: await invoicePdf(invoice) };
}

export async function creditNotePdfFor(db: Db, number: string, clientId?: string) {
  const [row] = await db
    .select({ note: creditNotes, invoice: invoices })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id))
    .where(and(eq(creditNotes.number, number), clientId ? eq(creditNotes.client_id, clientId) : undefined));
  if (!row) throw notFound("No credit note with that number.");
  return { filename: `${row.note.number}.pdf`, content: await creditNotePdf(row.note, row.invoice) };
}

/**
 * The outbox's attachment renderer: 'invoice:INV-000001' or 'credit_note:CN-000001'. Null only
 * when there is no such document (sending again cannot make it); any other failure (the database,
 * the PDF builder) is thrown, so the outbox logs it and tries the message again later.
 */
export async function renderAttachment(db: Db, ref: string): Promise<EmailAttachment | null> {
  const [type, number] = ref.split(":");
  try {
    const file = type === "invoice" ? await invoicePdfFor(db, number) : type === "credit_note" ? await creditNotePdfFor(db, number) : null;
    return file ? { ...file, contentType: "application/pdf" } : null;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return null;
    throw error;
  }
}
