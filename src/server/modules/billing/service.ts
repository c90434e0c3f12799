// Billing as the business and its clients use it (docs/architecture.md, "Billing"): refunds
// with credit notes, coupons, the numbering settings, the documents as PDF and the monthly CSV.
// Each document has its file: invoices (documents.ts), credit notes (credit-notes.ts, refunds.ts,
// provider-refunds.ts), their PDFs (document-pdfs.ts), the month's CSV (document-csv.ts), the
// numbering (numbering.ts) and coupons (coupon-admin.ts). This file is the module's public face.
export { createCoupon, deleteCoupon, listCoupons, updateCoupon } from "./coupon-admin";
export { REFUND_KIND } from "./credit-notes";
export { monthCsv } from "./document-csv";
export { creditNotePdfFor, documentNumberOf, invoicePdfFor, renderAttachment } from "./document-pdfs";
export { getNumbering, setNumbering } from "./numbering";
export { refundPayment } from "./refunds";
