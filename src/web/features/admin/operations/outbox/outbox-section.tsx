// /admin/outbox: every e-mail and WhatsApp message the server sent or is still sending (orders,
// receipts, welcomes, replies), with its state, attempts and last error. Open one to read it;
// retry one that failed.
import { Mail, MessageCircle } from "lucide-react";
import { useState } from "react";
import { OUTBOX_STATUSES } from "@/shared/admin-schemas";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable, tableStateProps } from "../../components/data-table";
import { FilterSelect } from "../../components/filter-field";
import { formatDateTime, humanise, orDash, phone } from "../../components/format";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/sheet";
import { StatusBadge } from "../../components/status-badge";
import { useTableParams } from "../../components/use-table-params";
import { type OutboxMessage, useOutbox } from "./api/get-outbox";
import { canRetry, RetryButton } from "./retry-button";

const FILTERS = ["status", "channel"] as const;
const statusOptions = OUTBOX_STATUSES.map((s) => ({ value: s, label: humanise(s) }));
const channelOptions = [
  { value: "email", label: "Email" },
  { value: "whatsapp", label: "WhatsApp" },
];

const recipient = (m: OutboxMessage) => (m.channel === "whatsapp" ? phone(m.recipient) : m.recipient);

/** An address wraps after its '@' when the column is narrow, never inside a word. */
function Recipient({ text }: { text: string }) {
  const at = text.indexOf("@");
  if (at < 0) return <span className="whitespace-nowrap">{text}</span>;
  return (
    <span className="break-words">
      {text.slice(0, at + 1)}
      <wbr />
      {text.slice(at + 1)}
    </span>
  );
}
const subject = (m: OutboxMessage) => m.subject || (m.kind ? humanise(m.kind) : "(no subject)");

function Channel({ channel }: { channel: string }) {
  const Icon = channel === "whatsapp" ? MessageCircle : Mail;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Icon aria-hidden="true" className="size-4 text-ink-subtle" />
      {channel === "whatsapp" ? "WhatsApp" : "Email"}
    </span>
  );
}

const columns: Column<OutboxMessage>[] = [
  {
    id: "subject",
    header: "Message",
    card: "title",
    cell: (m) => (
      <span className="flex flex-col">
        <span className="line-clamp-2 max-w-sm">{subject(m)}</span>
        <span className="text-xs font-normal text-ink-subtle">{formatDateTime(m.created_at)}</span>
      </span>
    ),
  },
  { id: "channel", header: "Channel", cell: (m) => <Channel channel={m.channel} /> },
  { id: "recipient", header: "To", cell: (m) => <Recipient text={recipient(m)} /> },
  { id: "status", header: "State", cell: (m) => <StatusBadge status={m.status} /> },
  { id: "attempts", header: "Tries", className: "tabular text-right", cell: (m) => m.attempts },
  {
    id: "last_error",
    header: "Last error",
    cell: (m) => (m.last_error ? <span className="line-clamp-2 max-w-xs text-xs text-bad">{m.last_error}</span> : "—"),
  },
  { id: "actions", header: "", card: "footer", cell: (m) => (canRetry(m) ? <RetryButton message={m} /> : null) },
];

export function OutboxSection() {
  const table = useTableParams({ filters: FILTERS });
  const { data, isPending, error, refetch } = useOutbox(table.query);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = openId ? (data?.data.find((m) => m.id === openId) ?? null) : null;

  return (
    <>
      <AdminPageHeader
        title="Outbox"
        description="Every email and WhatsApp message the system sends. Failed ones are retried with a growing pause; you can retry now."
      />
      <DataTable
        caption="Outbox"
        columns={columns}
        rows={data?.data}
        total={data?.total}
        rowKey={(m) => m.id}
        loading={isPending}
        error={error}
        onRetry={() => refetch()}
        {...tableStateProps(table)}
        sort={null}
        onSortChange={undefined}
        searchPlaceholder="Recipient, subject or kind"
        emptyMessage="No messages yet. Orders, payments and replies queue them here."
        onRowClick={(m) => setOpenId(m.id)}
        rowLabel={(m) => `Open message to ${m.recipient}: ${subject(m)}`}
        filters={
          <>
            <FilterSelect
              label="State"
              value={table.filters.status}
              onChange={(v) => table.setFilter("status", v)}
              options={statusOptions}
            />
            <FilterSelect
              label="Channel"
              value={table.filters.channel}
              onChange={(v) => table.setFilter("channel", v)}
              options={channelOptions}
            />
          </>
        }
      />
      <Sheet open={open !== null} onOpenChange={(next) => !next && setOpenId(null)}>
        <SheetContent side="right">{open ? <MessageDetails message={open} /> : null}</SheetContent>
      </Sheet>
    </>
  );
}

function MessageDetails({ message: m }: { message: OutboxMessage }) {
  const rows: [string, string][] = [
    ["To", recipient(m)],
    ["Kind", m.kind ? humanise(m.kind) : "—"],
    ["Queued", formatDateTime(m.created_at)],
    ["Tries", String(m.attempts)],
    [
      m.status === "sent" ? "Sent" : "Next try",
      m.status === "sent" ? formatDateTime(m.sent_at) : m.status === "failed" ? "—" : formatDateTime(m.next_attempt_at),
    ],
  ];
  return (
    <div className="flex flex-col gap-6 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">{subject(m)}</SheetTitle>
        <SheetDescription className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
          <StatusBadge status={m.status} />
          <Channel channel={m.channel} />
        </SheetDescription>
      </div>
      <RetryButton message={m} />
      <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-2 rounded-xl border border-line bg-surface-raised p-4 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-subtle">{label}</dt>
            <dd className="min-w-0 break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      {m.last_error ? (
        <section aria-labelledby="outbox-error" className="flex flex-col gap-2">
          <h3 id="outbox-error" className="text-sm font-semibold tracking-wide text-ink-subtle uppercase">
            Last error
          </h3>
          <p className="rounded-xl border border-bad/40 bg-bad/10 p-4 font-mono text-xs break-words text-bad">{m.last_error}</p>
        </section>
      ) : null}
      <section aria-labelledby="outbox-body" className="flex flex-col gap-2">
        <h3 id="outbox-body" className="text-sm font-semibold tracking-wide text-ink-subtle uppercase">
          Message
        </h3>
        <pre className="rounded-xl border border-line bg-surface-raised p-4 font-sans text-sm break-words whitespace-pre-wrap text-ink">
          {orDash(m.body)}
        </pre>
      </section>
    </div>
  );
}
