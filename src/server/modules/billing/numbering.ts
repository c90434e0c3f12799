// The numbering settings: the next number of each document series, and its prefix.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { documentSequences } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { badRequest } from "@/server/lib/errors";
import { billingSettings, formatDocumentNumber, type NumberingInput } from "@/shared/billing";
import { nextNumbers } from "./documents";

export async function getNumbering(app: FastifyInstance) {
  const next = await nextNumbers(app.db);
  const billing = billingSettings((await loadBusiness(app)).settings);
  return {
    invoice_next: next.invoice,
    credit_note_next: next.credit_note,
    invoice_prefix: billing.invoicePrefix,
    credit_note_prefix: billing.creditNotePrefix,
    invoice_example: formatDocumentNumber(billing.invoicePrefix, next.invoice),
    credit_note_example: formatDocumentNumber(billing.creditNotePrefix, next.credit_note),
  };
}

/** A series may move forward (e.g. to continue an earlier system's numbering), never back onto a number in use. */
export async function setNumbering(app: FastifyInstance, request: FastifyRequest, input: NumberingInput) {
  await app.db.transaction(async (tx) => {
    const rows = await tx.select().from(documentSequences).for("update");
    const before = Object.fromEntries(rows.map((r) => [r.name, r.next]));
    const fields: Record<string, string> = {};
    if (input.invoice_next < (before.invoice ?? 1))
      fields.invoice_next = `Invoices are numbered up to ${(before.invoice ?? 1) - 1} already: the next must be ${before.invoice ?? 1} or more.`;
    if (input.credit_note_next < (before.credit_note ?? 1))
      fields.credit_note_next = `Credit notes are numbered up to ${(before.credit_note ?? 1) - 1} already: the next must be ${before.credit_note ?? 1} or more.`;
    if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0], fields);
    for (const [name, next] of [
      ["invoice", input.invoice_next],
      ["credit_note", input.credit_note_next],
    ] as const) {
      await tx
        .insert(documentSequences)
        .values({ name, next })
        .onConflictDoUpdate({ target: documentSequences.name, set: { next, updated_at: new Date() } });
    }
    await audit(tx, request, { action: "update", resource: "document_sequences", before, after: input });
  });
  return getNumbering(app);
}
