// Invoices and credit notes as PDF (docs/decisions/007-billing-documents.md): pdfkit with its
// built-in Helvetica, so there are no font files to ship and no browser to run. Everything on
// the page comes from the frozen document row, so a PDF made today matches the one first sent.
import PDFDocument from "pdfkit";
import type { creditNotes, DocumentParty } from "@/server/db/schema";
import { type InvoiceKind, VAT_INCLUSIVE_NOTE } from "@/shared/billing";
import { formatDate } from "@/shared/dates";
import { documentTitle, type Invoice } from "./documents";

type CreditNote = typeof creditNotes.$inferSelect;

/** R1,234.50: always rand and cents on a document. */
export function documentRand(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const rand = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}R${rand}.${String(abs % 100).padStart(2, "0")}`;
}

const INK = "#0f172a";
const MUTED = "#475569";
const LEFT = 50;
const RIGHT = 545;
/** The amounts' column, right-aligned to the margin. */
const AMOUNT_X = 455;
const AMOUNT_COLUMN = { width: RIGHT - AMOUNT_X, align: "right" } as const;

function render(draw: (doc: PDFKit.PDFDocument) => void, title: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: title, Producer: "StreamDesk" } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    draw(doc);
    doc.end();
  });
}

function partyLines(party: DocumentParty, withTaxDetails: boolean): string[] {
  return [
    party.company && party.company !== party.name ? party.company : "",
    party.name,
    party.address ?? "",
    withTaxDetails && party.vat_number ? `VAT number: ${party.vat_number}` : "",
    party.registration_number ? `Registration number: ${party.registration_number}` : "",
    party.email ?? "",
  ].filter(Boolean);
}

function header(doc: PDFKit.PDFDocument, title: string, facts: [string, string][], seller: DocumentParty) {
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(22).text(title, LEFT, 50);
  doc.font("Helvetica").fontSize(10).fillColor(MUTED);
  let y = 82;
  for (const [label, value] of facts) {
    doc.text(`${label}: `, LEFT, y, { continued: true }).fillColor(INK).text(value).fillColor(MUTED);
    y += 15;
  }
  doc.font("Helvetica-Bold").fillColor(INK).text("From", 330, 50);
  doc
    .font("Helvetica")
    .fillColor(MUTED)
    .text(partyLines(seller, true).join("\n"), 330, 65, { width: RIGHT - 330 });
  return Math.max(y, doc.y) + 20;
}

function totals(doc: PDFKit.PDFDocument, y: number, rows: [string, string, boolean?][]): number {
  for (const [label, value, bold] of rows) {
    doc
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fillColor(INK)
      .fontSize(10);
    doc.text(label, 300, y, { width: 150, align: "right" });
    doc.text(value, AMOUNT_X, y, AMOUNT_COLUMN);
    y += 16;
  }
  return y;
}

/** The buyer under 'To'; returns where the page goes on. */
function buyerBlock(doc: PDFKit.PDFDocument, y: number, buyer: Invoice["buyer"]): number {
  doc.font("Helvetica-Bold").fillColor(INK).text("To", LEFT, y);
  doc
    .font("Helvetica")
    .fillColor(MUTED)
    .text(partyLines(buyer, true).join("\n"), LEFT, y + 15, { width: 260 });
  return doc.y + 24;
}

/** The small print under the totals. */
function footnote(doc: PDFKit.PDFDocument, y: number, text: string) {
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(MUTED)
    .text(text, LEFT, y + 24, { width: RIGHT - LEFT });
}

function rule(doc: PDFKit.PDFDocument, y: number) {
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor("#cbd5e1").stroke();
}

export function invoicePdf(invoice: Invoice): Promise<Buffer> {
  const title = documentTitle(invoice.kind);
  const vatVendor = invoice.kind !== "invoice";
  return render((doc) => {
    let y = header(
      doc,
      title,
      [
        ["Number", invoice.number],
        ["Date", formatDate(invoice.issued_at)],
        ["Payment reference", invoice.reference],
      ],
      invoice.seller,
    );
    y = buyerBlock(doc, y, invoice.buyer);

    rule(doc, y);
    doc
      .font("Helvetica-Bold")
      .fillColor(INK)
      .text("Description", LEFT, y + 8)
      .text("Amount", AMOUNT_X, y + 8, AMOUNT_COLUMN);
    y += 28;
    rule(doc, y);
    const term = invoice.term_months > 0 ? ` (${invoice.term_months} month${invoice.term_months === 1 ? "" : "s"})` : "";
    doc.font("Helvetica").text(`${invoice.description}${term}`, LEFT, y + 8, { width: 380 });
    doc.text(documentRand(invoice.list_cents), AMOUNT_X, y + 8, AMOUNT_COLUMN);
    y = Math.max(doc.y, y + 24) + 8;
    if (invoice.discount_cents > 0) {
      doc.text(`Coupon ${invoice.coupon_code}`, LEFT, y, { width: 380 });
      doc.text(documentRand(-invoice.discount_cents), AMOUNT_X, y, AMOUNT_COLUMN);
      y += 20;
    }
    rule(doc, y);
    y += 10;
    y = totals(
      doc,
      y,
      vatVendor
        ? [
            ["Total excluding VAT", documentRand(invoice.excl_cents)],
            [`VAT at ${invoice.vat_rate}%`, documentRand(invoice.vat_cents)],
            ["Total including VAT", documentRand(invoice.incl_cents), true],
          ]
        : [["Total", documentRand(invoice.incl_cents), true]],
    );
    footnote(
      doc,
      y,
      ["Paid in full. Amounts in South African rand.", vatVendor ? VAT_INCLUSIVE_NOTE : "", kindNote(invoice.kind as InvoiceKind)]
        .filter(Boolean)
        .join(" "),
    );
  }, `${title} ${invoice.number}`);
}

function kindNote(kind: InvoiceKind): string {
  if (kind === "tax-abridged") return "Abridged tax invoice (R5,000 or less, VAT included).";
  if (kind === "invoice") return "The seller is not registered for VAT.";
  return "";
}

export function creditNotePdf(note: CreditNote, invoice: Invoice): Promise<Buffer> {
  const vatVendor = invoice.kind !== "invoice";
  return render((doc) => {
    let y = header(
      doc,
      "Credit Note",
      [
        ["Number", note.number],
        ["Date", formatDate(note.issued_at)],
        ["Against invoice", invoice.number],
        ["Payment reference", invoice.reference],
      ],
      invoice.seller,
    );
    y = buyerBlock(doc, y, invoice.buyer);
    rule(doc, y);
    doc
      .font("Helvetica")
      .fillColor(INK)
      .text(`Refund: ${note.reason}`, LEFT, y + 8, { width: 380 });
    doc.text(documentRand(note.incl_cents), AMOUNT_X, y + 8, AMOUNT_COLUMN);
    y = Math.max(doc.y, y + 24) + 8;
    rule(doc, y);
    y = totals(
      doc,
      y + 10,
      vatVendor
        ? [
            ["Credit excluding VAT", documentRand(note.excl_cents)],
            [`VAT at ${invoice.vat_rate}%`, documentRand(note.vat_cents)],
            ["Credit including VAT", documentRand(note.incl_cents), true],
          ]
        : [["Credit", documentRand(note.incl_cents), true]],
    );
    footnote(
      doc,
      y,
      note.method === "provider" ? "Refunded to the card that paid." : "Refunded outside the card provider (recorded by the business).",
    );
  }, `Credit Note ${note.number}`);
}
