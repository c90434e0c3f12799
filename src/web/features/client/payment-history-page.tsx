// /payment-history: the client's own payments with status, reference, amount and date; paid ones
// have a printable receipt (?receipt=<reference>, printed with the browser's own print); below
// them, the client's invoices and credit notes as PDFs.
import { ArrowLeft, FileDown, Printer, Receipt } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import type { PaymentStatus } from "@/shared/api";
import type { ClientPayment, ClientReceipt } from "@/shared/client-schemas";
import { formatDate, formatDateTime } from "@/shared/dates";
import { formatRand, fromCents } from "@/shared/money";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { documentPdfUrl, useInvoices } from "./api/billing";
import { usePayments } from "./api/get-payments";
import { useReceipt } from "./api/get-receipt";
import { LoadError } from "./components/load-error";
import { PortalPage } from "./components/portal-page";

const STATUS: Record<PaymentStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Pending", variant: "warn" },
  paid: { label: "Paid", variant: "ok" },
  failed: { label: "Failed", variant: "bad" },
  cancelled: { label: "Cancelled", variant: "neutral" },
  refunded: { label: "Refunded", variant: "neutral" },
};

export function PaymentHistoryPage() {
  const [params] = useSearchParams();
  const receipt = params.get("receipt");
  return (
    <PortalPage title={receipt ? "Receipt" : "Payment history"} skeleton="table">
      {() =>
        receipt ? (
          <ReceiptView reference={receipt} />
        ) : (
          <>
            <PaymentList />
            <DocumentList />
          </>
        )
      }
    </PortalPage>
  );
}

function PaymentList() {
  const payments = usePayments();
  if (payments.isPending) return <PageSkeleton variant="table" />;
  if (!payments.data) return <LoadError what="your payments" onRetry={() => payments.refetch()} />;
  const list = payments.data;
  if (list.length === 0) {
    return (
      <Card className="flex flex-col items-start gap-3 p-6">
        <p className="text-ink">No payments on your account yet.</p>
        <Link to="/client?renew=1" className={buttonClasses({ size: "sm" })}>
          Renew now
        </Link>
      </Card>
    );
  }
  return (
    <>
      {/* Phones: one card per payment. */}
      <ul className="flex flex-col gap-3 md:hidden">
        {list.map((p) => (
          <li key={p.reference} className="rounded-card border border-line bg-surface p-4" data-payment={p.reference}>
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-ink">{p.package || "Payment"}</p>
                <p className="text-sm text-ink-muted">
                  {formatDate(p.date)} · {p.method}
                </p>
              </div>
              <p className="text-lg font-bold text-ink tabular-nums">{formatRand(p.amount)}</p>
            </div>
            <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
              <StatusBadge status={p.status} />
              <span className="font-mono text-xs break-all text-ink-subtle">{p.reference}</span>
            </div>
            {p.has_receipt ? <ReceiptLink payment={p} className="mt-3 w-full" /> : null}
          </li>
        ))}
      </ul>
      {/* Wider screens: a table. */}
      <div className="hidden overflow-x-auto rounded-card border border-line bg-surface md:block">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-line text-xs tracking-wide text-ink-muted uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Date
              </th>
              <th scope="col" className="px-4 py-3">
                Package
              </th>
              <th scope="col" className="px-4 py-3">
                Reference
              </th>
              <th scope="col" className="px-4 py-3">
                Method
              </th>
              <th scope="col" className="px-4 py-3 text-right">
                Amount
              </th>
              <th scope="col" className="px-4 py-3">
                Status
              </th>
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">Receipt</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {list.map((p) => (
              <tr key={p.reference} data-payment={p.reference}>
                <td className="px-4 py-3 whitespace-nowrap text-ink">{formatDate(p.date)}</td>
                <td className="px-4 py-3 text-ink">{p.package || "—"}</td>
                <td className="px-4 py-3 font-mono text-xs break-all text-ink-muted">{p.reference}</td>
                <td className="px-4 py-3 text-ink-muted">{p.method}</td>
                <td className="px-4 py-3 text-right font-semibold text-ink tabular-nums">{formatRand(p.amount)}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={p.status} />
                </td>
                <td className="px-4 py-3 text-right">{p.has_receipt ? <ReceiptLink payment={p} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Invoices and credit notes, each a PDF to download (the documents a company files). */
function DocumentList() {
  const documents = useInvoices();
  const rows = documents.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="documents-heading" className="mt-8">
      <h2 id="documents-heading" className="mb-3 text-lg font-semibold text-ink">
        Invoices and credit notes
      </h2>
      <ul className="divide-y divide-line rounded-card border border-line bg-surface">
        {rows.map((doc) => (
          <li key={doc.number} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="font-medium text-ink">
                {doc.title} <span className="font-mono">{doc.number}</span>
              </p>
              <p className="text-sm text-ink-muted">
                {formatDate(doc.issued_at)} · {doc.type === "credit_note" ? `against ${doc.invoice_number}` : doc.reference}
              </p>
            </div>
            <div className="flex items-center gap-3">
              <span className="font-semibold text-ink tabular-nums">
                {formatRand(fromCents(doc.type === "credit_note" ? -doc.incl_cents : doc.incl_cents))}
              </span>
              <a
                href={documentPdfUrl(doc)}
                target="_blank"
                rel="noreferrer"
                className={buttonClasses({ variant: "outline", size: "sm" })}
                aria-label={`Download ${doc.title} ${doc.number} (PDF)`}
              >
                <FileDown aria-hidden="true" />
                PDF
              </a>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StatusBadge({ status }: { status: PaymentStatus }) {
  const { label, variant } = STATUS[status] ?? STATUS.pending;
  return <Badge variant={variant}>{label}</Badge>;
}

function ReceiptLink({ payment, className }: { payment: ClientPayment; className?: string }) {
  return (
    <Link
      to={`/payment-history?receipt=${encodeURIComponent(payment.reference)}`}
      className={buttonClasses({ variant: "outline", size: "sm", className })}
      aria-label={`Receipt for ${payment.reference}`}
    >
      <Receipt aria-hidden="true" />
      Receipt
    </Link>
  );
}

// Printing shows the receipt alone, black on white, whatever layout is around it.
const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  #receipt, #receipt * { visibility: visible !important; }
  #receipt { position: absolute; inset: 0 auto auto 0; width: 100%; background: #fff !important; color: #000 !important; border: 0 !important; box-shadow: none !important; }
  #receipt * { color: #000 !important; border-color: #999 !important; }
}`;

function ReceiptView({ reference }: { reference: string }) {
  const receipt = useReceipt(reference);
  const back = (
    <Link to="/payment-history" className={buttonClasses({ variant: "ghost", size: "sm" })}>
      <ArrowLeft aria-hidden="true" />
      All payments
    </Link>
  );
  if (receipt.isPending) return <PageSkeleton variant="list" />;
  if (!receipt.data) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-card border border-line bg-surface p-6">
        <p className="text-ink">{receipt.error?.message ?? "We couldn't find that receipt."}</p>
        {back}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        {back}
        <Button onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print receipt
        </Button>
      </div>
      <ReceiptDocument receipt={receipt.data} />
    </div>
  );
}

function ReceiptDocument({ receipt }: { receipt: ClientReceipt }) {
  const rows: [string, string][] = [
    ["Reference", receipt.reference],
    ["Date paid", `${formatDateTime(receipt.paid_at ?? receipt.date)} (SAST)`],
    ["Package", receipt.package],
    ["Description", receipt.description],
    ["Payment method", receipt.method],
    ["Status", STATUS[receipt.status]?.label ?? receipt.status],
  ];
  return (
    <article id="receipt" className="mx-auto w-full max-w-2xl rounded-card border border-line bg-surface p-6 sm:p-8" aria-label="Receipt">
      <style>{PRINT_CSS}</style>
      <header className="flex flex-col gap-1 border-b border-line pb-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="text-xl font-bold text-ink">{receipt.business.name}</p>
          <p className="text-sm text-ink-muted">
            {[
              receipt.business.email,
              receipt.business.whatsapp ? formatPhoneForDisplay(receipt.business.whatsapp) : "",
              receipt.business.url,
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
        <p className="text-2xl font-bold tracking-tight text-ink uppercase">Receipt</p>
      </header>
      <section className="mt-4 text-sm">
        <p className="text-ink-muted">Received from</p>
        <p className="font-semibold text-ink">{receipt.client.full_name || receipt.client.username}</p>
        <p className="text-ink-muted">
          Username {receipt.client.username}
          {receipt.client.email ? ` · ${receipt.client.email}` : ""}
        </p>
      </section>
      <dl className="mt-4 divide-y divide-line border-y border-line text-sm">
        {rows
          .filter(([, v]) => v)
          .map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 py-2">
              <dt className="text-ink-muted">{label}</dt>
              <dd className="text-right break-all text-ink">{value}</dd>
            </div>
          ))}
      </dl>
      <p className="mt-4 flex items-baseline justify-between text-lg">
        <span className="font-semibold text-ink">Amount paid</span>
        <span className="font-bold text-ink tabular-nums">
          {formatRand(receipt.amount)} {receipt.currency}
        </span>
      </p>
      {receipt.vat_note ? <p className="mt-2 text-sm text-ink-muted">{receipt.vat_note}</p> : null}
      <p className="mt-6 text-xs text-ink-subtle">Thank you for your payment. Keep this receipt for your records.</p>
    </article>
  );
}
