// /admin/clients: everyone with a portal account. Search by name, username, e-mail or phone;
// filter by status or by subscriptions ending soon; add a client; open one for the details.
import { UserPlus } from "lucide-react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import type { AdminClient } from "@/shared/business-schemas";
import type { LifecycleRules } from "@/shared/lifecycle";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { useLifecycleRules } from "../api/get-lifecycle-rules";
import { AdminPageHeader } from "../components/admin-page-header";
import { type Column, DataTable, pageQueryProps, type SortState, tableStateProps } from "../components/data-table";
import { FilterSelect } from "../components/filter-field";
import { formatDate, phone } from "../components/format";
import { useTableParams } from "../components/use-table-params";
import { clientsExportHref, useClients } from "./api/get-clients";
import { clientStatusOptions, daysLeftText, expiringOptions, SubscriptionBadge } from "./client-labels";
import { CreateClientDialog } from "./create-client-dialog";

const FILTERS = ["status", "expiring"] as const;
const NEWEST_FIRST: SortState = { id: "created_at", dir: "desc" };

const clientColumns = (rules: Pick<LifecycleRules, "graceDays">): Column<AdminClient>[] => [
  {
    id: "full_name",
    header: "Client",
    sortable: true,
    card: "title",
    cell: (c) => (
      <span className="flex flex-col">
        <span>{c.full_name}</span>
        <span className="font-mono text-xs font-normal text-ink-subtle">{c.username}</span>
      </span>
    ),
  },
  {
    id: "status",
    header: "Status",
    sortable: true,
    cell: (c) => (
      <span className="flex flex-wrap items-center gap-1.5">
        <SubscriptionBadge client={c} />
        {c.possible_duplicate_of && !c.merged_into ? (
          <Badge variant="warn" data-testid="possible-duplicate" className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">
            Possible duplicate
          </Badge>
        ) : null}
        {c.merged_into ? <Badge className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">Merged</Badge> : null}
      </span>
    ),
  },
  { id: "package_name", header: "Package", sortable: true, cell: (c) => c.package_name || "—" },
  {
    id: "subscription_end",
    header: "Ends",
    sortable: true,
    sortLabels: ["Soonest first", "Latest first"],
    className: "whitespace-nowrap tabular",
    cell: (c) =>
      c.subscription_end ? (
        <span className="flex flex-col">
          <span>{formatDate(c.subscription_end)}</span>
          <span className="text-xs text-ink-subtle">{daysLeftText(c, rules)}</span>
        </span>
      ) : (
        "—"
      ),
  },
  {
    id: "contact",
    header: "Contact",
    // a number stays on one line; an e-mail address may break (a narrow or zoomed screen)
    cell: (c) =>
      c.whatsapp ? (
        <span className="whitespace-nowrap">{phone(c.whatsapp)}</span>
      ) : (
        <span className="[overflow-wrap:anywhere]">{c.email || "—"}</span>
      ),
  },
  {
    id: "created_at",
    header: "Added",
    sortable: true,
    sortLabels: ["Oldest first", "Newest first"],
    className: "whitespace-nowrap tabular",
    card: "hidden",
    cell: (c) => formatDate(c.created_at),
  },
];

export function ClientsSection() {
  const table = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const clients = useClients(table.query);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const { graceDays } = useLifecycleRules();
  const columns = useMemo(() => clientColumns({ graceDays }), [graceDays]);

  return (
    <>
      <AdminPageHeader
        title="Clients"
        description="Everyone with a client portal account: their package, when it ends and how to reach them."
        actions={
          <Button onClick={() => setCreating(true)}>
            <UserPlus aria-hidden="true" />
            New client
          </Button>
        }
      />
      <DataTable
        caption="Clients"
        columns={columns}
        {...pageQueryProps(clients)}
        rowKey={(c) => c.id}
        loading={clients.isPending || clients.isFetching}
        {...tableStateProps(table)}
        searchPlaceholder="Name, username, email or phone"
        emptyMessage="No clients yet. Convert a lead or add one with New client."
        exportHref={clientsExportHref(table.exportQuery)}
        onRowClick={(c) => navigate(`/admin/client/${c.id}`)}
        rowLabel={(c) => `Open ${c.full_name}`}
        filters={
          <>
            <FilterSelect
              label="Status"
              value={table.filters.status}
              onChange={(v) => table.setFilter("status", v)}
              options={clientStatusOptions}
            />
            <FilterSelect
              label="Expiring"
              value={table.filters.expiring}
              onChange={(v) => table.setFilter("expiring", v)}
              options={
                table.filters.expiring && !expiringOptions.some((o) => o.value === table.filters.expiring)
                  ? [...expiringOptions, { value: table.filters.expiring, label: `Within ${table.filters.expiring} days` }]
                  : expiringOptions
              }
              allLabel="Any time"
            />
          </>
        }
      />
      <CreateClientDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
