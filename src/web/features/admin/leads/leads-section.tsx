// /admin/leads: every order and interest submission, newest first. Search, filter by status,
// form and day; change a status in place; WhatsApp a lead in one tap; open one for every detail
// and 'Convert to client'; export exactly the filtered list as CSV.
import { useState } from "react";
import type { AdminLead } from "@/shared/business-schemas";
import { AdminPageHeader } from "../components/admin-page-header";
import { type Column, DataTable, pageQueryProps, type SortState, tableStateProps } from "../components/data-table";
import { FilterDate, FilterSelect } from "../components/filter-field";
import { formatDateTime, humanise, phone } from "../components/format";
import { useTableParams } from "../components/use-table-params";
import { WhatsAppButton } from "../components/whatsapp-button";
import { leadsExportHref, useLeads } from "./api/get-leads";
import { LeadDrawer } from "./lead-drawer";
import { FORM_TYPE_LABELS, formTypeOptions, leadStatusOptions, returningClient } from "./lead-labels";
import { LeadStatusSelect } from "./lead-status-select";
import { ReturningClientNote } from "./returning-client-note";

const FILTERS = ["status", "form_type", "from", "to"] as const;
const NEWEST_FIRST: SortState = { id: "created_at", dir: "desc" };

const columns: Column<AdminLead>[] = [
  {
    id: "name",
    header: "Name",
    sortable: true,
    card: "title",
    cell: (lead) => {
      const returning = returningClient(lead);
      return (
        <span className="flex flex-col">
          <span>{lead.name}</span>
          <span className="text-xs font-normal text-ink-subtle">{lead.email || phone(lead.whatsapp)}</span>
          {returning ? <ReturningClientNote client={returning} compact /> : null}
        </span>
      );
    },
  },
  {
    id: "form_type",
    header: "Form",
    sortable: true,
    cell: (lead) => FORM_TYPE_LABELS[lead.form_type] ?? humanise(lead.form_type),
  },
  {
    id: "package_name",
    header: "Package",
    sortable: true,
    cell: (lead) =>
      lead.package_name ? `${lead.package_name}${lead.duration && lead.duration !== lead.package_name ? ` · ${lead.duration}` : ""}` : "—",
  },
  { id: "status", header: "Status", sortable: true, cell: (lead) => <LeadStatusSelect lead={lead} /> },
  {
    id: "created_at",
    header: "Received",
    sortable: true,
    sortLabels: ["Oldest first", "Newest first"],
    className: "whitespace-nowrap tabular",
    cell: (lead) => formatDateTime(lead.created_at),
  },
  {
    id: "whatsapp",
    header: "Contact",
    cell: (lead) => (lead.whatsapp_url ? <WhatsAppButton url={lead.whatsapp_url} name={lead.name} compact /> : "—"),
  },
];

export function LeadsSection() {
  const table = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const leads = useLeads(table.query);
  const [openId, setOpenId] = useState<string | null>(null);
  const [snapshot, setSnapshot] = useState<AdminLead | null>(null);
  // The open lead follows the list as it refreshes (a status change, the live feed).
  const open = openId ? (leads.data?.data.find((l) => l.id === openId) ?? snapshot) : null;

  return (
    <>
      <AdminPageHeader
        title="Leads"
        description="Orders, free-trial requests and interest from the website. Reply fast: most people choose whoever answers first."
      />
      <DataTable
        caption="Leads"
        columns={columns}
        {...pageQueryProps(leads)}
        rowKey={(lead) => lead.id}
        loading={leads.isPending || leads.isFetching}
        {...tableStateProps(table)}
        searchPlaceholder="Name, email, phone or package"
        emptyMessage="No leads yet. Orders and interest from the website land here."
        exportHref={leadsExportHref(table.exportQuery)}
        onRowClick={(lead) => {
          setSnapshot(lead);
          setOpenId(lead.id);
        }}
        rowLabel={(lead) => `Open ${lead.name}'s lead${returningClient(lead) ? " (a returning client)" : ""}`}
        filters={
          <>
            <FilterSelect
              label="Status"
              value={table.filters.status}
              onChange={(v) => table.setFilter("status", v)}
              options={leadStatusOptions}
            />
            <FilterSelect
              label="Form"
              value={table.filters.form_type}
              onChange={(v) => table.setFilter("form_type", v)}
              options={formTypeOptions}
            />
            <FilterDate label="From" value={table.filters.from} onChange={(v) => table.setFilter("from", v)} />
            <FilterDate label="To" value={table.filters.to} onChange={(v) => table.setFilter("to", v)} />
          </>
        }
      />
      <LeadDrawer lead={open} onOpenChange={(next) => !next && setOpenId(null)} />
    </>
  );
}
