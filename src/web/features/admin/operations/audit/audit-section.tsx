// /admin/audit: every change an admin made — who, when, what, and the record before and after —
// filtered by what was changed, newest first. Open an entry for its field-by-field diff.
import { useState } from "react";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { cn } from "@/web/lib/cn";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable, pageQueryProps, tableStateProps } from "../../components/data-table";
import { FilterSelect } from "../../components/filter-field";
import { formatDateTime, humanise } from "../../components/format";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/sheet";
import { useTableParams } from "../../components/use-table-params";
import { type AuditEntry, useAuditLog } from "./api/get-audit-log";
import { auditDiff, type DiffRow } from "./audit-diff";

const FILTERS = ["resource"] as const;

/** What the server names in the log (the admin API's resource names and table names). */
const RESOURCES: Record<string, string> = {
  admins: "Admins",
  banners: "Banners",
  branding: "Branding",
  captured_payments: "Payments",
  clients: "Clients",
  components: "Status components",
  content: "Homepage content",
  content_requests: "Content requests",
  downloads: "Downloads",
  images: "Images",
  incidents: "Incidents",
  kb: "Knowledge base",
  leads: "Leads",
  notices: "Notices",
  outbox: "Outbox",
  packages: "Packages",
  releases: "Release notes",
  settings: "Settings",
  specials: "Specials",
  testimonials: "Testimonials",
  "trial-blackout-days": "Trial blackout days",
};
const resourceOptions = Object.entries(RESOURCES)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

const ACTION_VARIANT: Record<string, BadgeVariant> = { create: "ok", update: "accent", delete: "bad" };

/** A name for the record: its title, name, email or key when the entry carries one. */
function recordName(entry: AuditEntry): string {
  if (entry.record_name) return entry.record_name;
  const row = (entry.after ?? entry.before) as Record<string, unknown> | null;
  if (row && typeof row === "object") {
    for (const key of ["title", "name", "full_name", "email", "username", "key", "image_key", "section_name", "version"]) {
      const value = row[key];
      if (typeof value === "string" && value.trim()) return value;
    }
  }
  return entry.resource_id ? `#${entry.resource_id.slice(0, 8)}` : "";
}

const resourceLabel = (r: string) => RESOURCES[r] ?? humanise(r);

function changeSummary(entry: AuditEntry): string {
  if (entry.action === "create") return "Created";
  if (entry.action === "delete") return "Deleted";
  const fields = auditDiff(entry.before, entry.after).map((d) => d.field);
  if (!fields.length) return entry.action === "password" ? "Password changed" : "No field changes";
  return fields.length > 3 ? `${fields.slice(0, 3).join(", ")} +${fields.length - 3}` : fields.join(", ");
}

const columns: Column<AuditEntry>[] = [
  {
    id: "what",
    header: "What",
    card: "title",
    cell: (e) => (
      <span className="flex flex-col">
        <span>
          {resourceLabel(e.resource)}
          {recordName(e) ? `: ${recordName(e)}` : ""}
        </span>
        <span className="text-xs font-normal text-ink-subtle">{changeSummary(e)}</span>
      </span>
    ),
  },
  {
    id: "action",
    header: "Action",
    cell: (e) => (
      <Badge variant={ACTION_VARIANT[e.action] ?? "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
        {humanise(e.action)}
      </Badge>
    ),
  },
  { id: "admin_email", header: "Who", cell: (e) => <span className="break-all">{e.admin_email || "System"}</span> },
  { id: "created_at", header: "When", className: "whitespace-nowrap tabular", cell: (e) => `${formatDateTime(e.created_at)} SAST` },
];

export function AuditSection() {
  const table = useTableParams({ filters: FILTERS });
  const entries = useAuditLog(table.query);
  const [open, setOpen] = useState<AuditEntry | null>(null);

  return (
    <>
      <AdminPageHeader
        title="Audit log"
        description="Every change made in the dashboard: who made it, when, and what it was before and after."
      />
      <DataTable
        caption="Audit log"
        columns={columns}
        {...pageQueryProps(entries)}
        rowKey={(e) => e.id}
        {...tableStateProps(table)}
        sort={null}
        onSortChange={undefined}
        onSearchChange={undefined}
        emptyMessage="No changes recorded yet."
        onRowClick={setOpen}
        rowLabel={(e) => `Open ${humanise(e.action)} of ${resourceLabel(e.resource)} ${recordName(e)}`.trim()}
        filters={
          <FilterSelect
            label="Changed"
            value={table.filters.resource}
            onChange={(v) => table.setFilter("resource", v)}
            options={
              table.filters.resource && !RESOURCES[table.filters.resource]
                ? [...resourceOptions, { value: table.filters.resource, label: humanise(table.filters.resource) }]
                : resourceOptions
            }
            allLabel="Everything"
          />
        }
      />
      <Sheet open={open !== null} onOpenChange={(next) => !next && setOpen(null)}>
        <SheetContent side="right">{open ? <EntryDetails entry={open} /> : null}</SheetContent>
      </Sheet>
    </>
  );
}

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const diff = auditDiff(entry.before, entry.after);
  return (
    <div className="flex flex-col gap-6 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">
          {humanise(entry.action)}: {resourceLabel(entry.resource)}
          {recordName(entry) ? ` ${recordName(entry)}` : ""}
        </SheetTitle>
        <SheetDescription className="text-sm text-ink-muted">
          By {entry.admin_email || "the system"} on {formatDateTime(entry.created_at)} SAST
          {entry.resource_id ? (
            <>
              {" "}
              · <span className="font-mono text-xs break-all">{entry.resource_id}</span>
            </>
          ) : null}
        </SheetDescription>
      </div>
      {diff.length ? (
        <DiffTable rows={diff} action={entry.action} />
      ) : (
        <p className="text-sm text-ink-muted">No field values were recorded for this change.</p>
      )}
    </div>
  );
}

function DiffTable({ rows, action }: { rows: DiffRow[]; action: string }) {
  const showBefore = action !== "create" && rows.some((r) => r.before !== null);
  const showAfter = action !== "delete" && rows.some((r) => r.after !== null);
  return (
    <div className="flex flex-col gap-2" data-testid="audit-diff">
      {rows.map((row) => (
        <div
          key={row.field}
          className="grid gap-1.5 rounded-xl border border-line bg-surface-raised p-3 text-sm sm:grid-cols-[9rem_minmax(0,1fr)] sm:items-start"
        >
          <p className="font-mono text-xs font-semibold break-all text-ink-subtle sm:pt-1.5">{row.field}</p>
          <div className="flex flex-col gap-1.5">
            {showBefore ? <DiffValue side="before" value={row.before} /> : null}
            {showAfter ? <DiffValue side="after" value={row.after} /> : null}
          </div>
        </div>
      ))}
    </div>
  );
}

function DiffValue({ side, value }: { side: "before" | "after"; value: string | null }) {
  const before = side === "before";
  return (
    <p className={cn("flex gap-2 rounded-lg px-2 py-1 text-ink", before ? "bg-bad/10" : "bg-ok/10")}>
      <span className="sr-only">{before ? "Before: " : "After: "}</span>
      <span aria-hidden="true" className={cn("font-mono", before ? "text-bad" : "text-ok")}>
        {before ? "−" : "+"}
      </span>
      <span className="min-w-0 break-words whitespace-pre-wrap">
        {value === null ? <em className="text-ink-subtle">not set</em> : value || <em className="text-ink-subtle">empty</em>}
      </span>
    </p>
  );
}
