// /admin/payments: card payments, EFTs and payments recorded by hand. Confirm an EFT once it
// reflects, link a pending EFT to its client, record cash, mark refunds, export the list. The
// Refund filter finds payments whose refund the provider has not confirmed (the owner's digest links it).
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/web/components/ui/button";
import { usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { AdminPageHeader } from "../components/admin-page-header";
import { DataTable, pageQueryProps, type SortState, tableStateProps } from "../components/data-table";
import { FilterDate, FilterSelect } from "../components/filter-field";
import { useTableParams } from "../components/use-table-params";
import { paymentsExportHref, usePayments } from "./api/get-payments";
import { paymentColumns } from "./payment-columns";
import { paymentStatusOptions, providerOptions } from "./payment-labels";
import { PaymentModeBanner } from "./payment-mode-banner";
import { RecordPaymentDialog } from "./record-payment-dialog";
import { RenewalsCard } from "./renewals-card";

const FILTERS = ["status", "provider", "refund", "from", "to"] as const;
/** A refund sent to the provider whose answer was lost: its amount is held until it is checked. */
const refundOptions = [{ value: "held", label: "Held, awaiting the provider" }];
const NEWEST_FIRST: SortState = { id: "created_at", dir: "desc" };
const columns = paymentColumns();

export function PaymentsSection() {
  const table = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const payments = usePayments(table.query);
  const [recording, setRecording] = useState(false);
  const providers = usePaymentProviders();

  return (
    <>
      <AdminPageHeader
        title="Payments"
        description="Card payments, EFTs and cash. Confirm an EFT once it shows in the bank: the client's time is added and a receipt goes out."
        actions={
          <Button onClick={() => setRecording(true)}>
            <Plus aria-hidden="true" />
            Record payment
          </Button>
        }
      />
      <PaymentModeBanner className="mb-4" />
      <RenewalsCard className="mb-4" />
      <DataTable
        caption="Payments"
        columns={columns}
        {...pageQueryProps(payments)}
        rowKey={(p) => p.id}
        loading={payments.isPending || payments.isFetching}
        {...tableStateProps(table)}
        searchPlaceholder="Reference, email or client"
        emptyMessage="No payments yet."
        exportHref={paymentsExportHref(table.exportQuery)}
        filters={
          <>
            <FilterSelect
              label="Status"
              value={table.filters.status}
              onChange={(v) => table.setFilter("status", v)}
              options={paymentStatusOptions}
            />
            <FilterSelect
              label="Method"
              value={table.filters.provider}
              onChange={(v) => table.setFilter("provider", v)}
              options={providerOptions(providers)}
            />
            <FilterSelect
              label="Refund"
              value={table.filters.refund}
              onChange={(v) => table.setFilter("refund", v)}
              options={refundOptions}
            />
            <FilterDate label="From" value={table.filters.from} onChange={(v) => table.setFilter("from", v)} />
            <FilterDate label="To" value={table.filters.to} onChange={(v) => table.setFilter("to", v)} />
          </>
        }
      />
      <RecordPaymentDialog open={recording} onOpenChange={setRecording} />
    </>
  );
}
