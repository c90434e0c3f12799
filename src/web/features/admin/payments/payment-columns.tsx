// The payment table's columns, used by the payments list and a client's page.
import { Link } from "react-router";
import type { AdminPayment } from "@/shared/business-schemas";
import { formatRand } from "@/shared/money";
import { usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { actionsColumn, type Column } from "../components/data-table";
import { formatDateTime } from "../components/format";
import { StatusBadge } from "../components/status-badge";
import { hasPaymentActions, PaymentActions } from "./payment-actions";
import { confirmedRefund, methodLabel, paymentStatus } from "./payment-labels";

export function paymentColumns({ showClient = true }: { showClient?: boolean } = {}): Column<AdminPayment>[] {
  const columns: Column<AdminPayment>[] = [
    {
      id: "created_at",
      header: "Payment",
      sortable: true,
      sortLabels: ["Oldest first", "Newest first"],
      card: "title",
      cell: (p) => (
        <span className="flex flex-col">
          <span className="font-mono text-xs break-all">{p.external_transaction_id}</span>
          <span className="text-xs font-normal text-ink-subtle">{formatDateTime(p.created_at)}</span>
        </span>
      ),
    },
    {
      id: "client",
      header: "Client",
      cell: (p) =>
        p.client_id ? (
          <Link
            to={`/admin/client/${p.client_id}`}
            className="inline-flex min-h-10 max-w-full items-center text-accent-ink wrap-anywhere hover:underline"
          >
            {p.client_full_name || p.client_username || "Client"}
          </Link>
        ) : (
          <span className="flex flex-col">
            <span className="text-ink-muted">Not linked</span>
            {p.client_email ? <span className="text-xs text-ink-subtle">{p.client_email}</span> : null}
          </span>
        ),
    },
    { id: "package_name", header: "Package", cell: (p) => p.package_name || "—" },
    {
      id: "amount",
      header: "Amount",
      sortable: true,
      sortLabels: ["Lowest first", "Highest first"],
      className: "text-right whitespace-nowrap tabular",
      cell: (p) => (
        <>
          {formatRand(p.amount)}
          {p.coupon_code ? <span className="block text-xs break-all whitespace-normal text-ink-subtle">coupon {p.coupon_code}</span> : null}
          {p.status === "paid" && confirmedRefund(p) > 0 ? (
            <span className="block text-xs whitespace-normal text-ink-subtle">{formatRand(confirmedRefund(p))} refunded</span>
          ) : null}
          {(p.refund_held ?? 0) > 0 ? (
            <span className="block text-xs whitespace-normal text-special">
              {formatRand(p.refund_held ?? 0)} held: refund not yet confirmed
            </span>
          ) : null}
        </>
      ),
    },
    { id: "provider", header: "Method", sortable: true, cell: (p) => <MethodLabel provider={p.provider} /> },
    {
      id: "status",
      header: "Status",
      sortable: true,
      cell: (p) => <StatusBadge status={paymentStatus(p)} />,
    },
    actionsColumn((p) => (hasPaymentActions(p) ? <PaymentActions payment={p} /> : null)),
  ];
  return showClient ? columns : columns.filter((c) => c.id !== "client");
}

/** The way a payment was made, in the registry's words. */
function MethodLabel({ provider }: { provider: string }) {
  return <>{methodLabel(usePaymentProviders(), provider)}</>;
}
