// A client's lifecycle history: every change of status or term the server recorded (payments,
// trials, grants, suspensions, the scheduled job), newest first, with who did it and why.
import type { LifecycleEvent } from "@/shared/business-schemas";
import { CLIENT_STATUS_LABELS, isClientStatus } from "@/shared/lifecycle";
import { type Column, DataTable } from "../components/data-table";
import { formatDate, formatDateTime, humanise } from "../components/format";

const statusLabel = (status: string | null) =>
  status === null ? "—" : isClientStatus(status) ? CLIENT_STATUS_LABELS[status] : humanise(status);

/** 'A → B' (breaking after the arrow when narrow), or just 'B' when nothing changed. */
function change(before: string, after: string) {
  if (before === after) return <span>{after}</span>;
  return (
    <span>
      <span className="whitespace-nowrap text-ink-subtle">
        {before}
        <span aria-hidden="true" className="px-1">
          →
        </span>
        <span className="sr-only"> to </span>
      </span>{" "}
      <span className="whitespace-nowrap">{after}</span>
    </span>
  );
}

const columns: Column<LifecycleEvent>[] = [
  {
    id: "created_at",
    header: "What",
    card: "title",
    cell: (e) => (
      <span className="flex flex-col">
        <span>{e.label}</span>
        <span className="text-xs font-normal text-ink-subtle tabular">{formatDateTime(e.created_at)}</span>
      </span>
    ),
  },
  { id: "status", header: "Status", cell: (e) => change(statusLabel(e.status_before), statusLabel(e.status_after)) },
  {
    id: "end",
    header: "Term ends",
    className: "tabular",
    cell: (e) => change(formatDate(e.end_before) || "—", formatDate(e.end_after) || "—"),
  },
  {
    id: "reason",
    header: "Reason",
    cell: (e) => (
      <span className="flex flex-col gap-0.5">
        {e.reason ? <span>{e.reason}</span> : null}
        <span className="text-xs text-ink-subtle [overflow-wrap:anywhere]">{e.actor ? `by ${e.actor}` : "—"}</span>
      </span>
    ),
  },
];

export function LifecycleHistory({ events, clientName }: { events: LifecycleEvent[]; clientName: string }) {
  return (
    <DataTable
      caption={`${clientName}'s status and term history`}
      columns={columns}
      rows={events}
      rowKey={(e) => e.id}
      pageSize={10}
      emptyMessage="No changes recorded yet."
    />
  );
}
