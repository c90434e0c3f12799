// /admin/outbox: every e-mail and WhatsApp message the server sent or is still sending (orders,
// receipts, welcomes, replies), with its state, attempts and last error. Open one to read it (a
// secret in it, like a reset link, shows masked); retry one that failed. "To send on WhatsApp"
// (status=owner, the overview's tile) is the owner's queue, one chat per person: a person's
// waiting messages are one row, oldest first; open the chat once, send, mark them all sent.
import { Mail, MessageCircle, MessagesSquare } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { OUTBOX_STATUSES } from "@/shared/admin-schemas";
import { messageKindLabel } from "@/shared/messaging";
import { Badge } from "@/web/components/ui/badge";
import { buttonClasses } from "@/web/components/ui/button";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable, pageQueryProps, tableStateProps } from "../../components/data-table";
import { FactList } from "../../components/fact-list";
import { FilterSelect } from "../../components/filter-field";
import { formatDateTime, orDash, phone } from "../../components/format";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/sheet";
import { StatusBadge } from "../../components/status-badge";
import { useTableParams } from "../../components/use-table-params";
import { type OutboxMessage, useOutbox } from "./api/get-outbox";
import { type OwnerChat, ownerChats, SendChatOnWhatsApp } from "./owner-chat";
import { canRetry, RetryButton } from "./retry-button";
import { awaitsOwner, SendOnWhatsApp } from "./send-on-whatsapp";
import { WhatsAppTemplatesButton } from "./whatsapp-templates";

const FILTERS = ["status", "channel"] as const;
const STATE_LABELS: Record<(typeof OUTBOX_STATUSES)[number], string> = {
  pending: "Waiting",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed or retrying",
  owner: "To send on WhatsApp",
  rerouted: "Sent by e-mail instead",
};
const statusOptions = OUTBOX_STATUSES.map((s) => ({ value: s, label: STATE_LABELS[s] }));
const channelOptions = [
  { value: "email", label: "Email" },
  { value: "whatsapp", label: "WhatsApp" },
];
/** The owner's queue, as the overview's tile links to it. */
export const OWNER_QUEUE_PATH = "/admin/outbox?status=owner";

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
const subject = (m: OutboxMessage) => m.subject || (m.kind ? messageKindLabel(m.kind) : "(no subject)");

/** The row's state in the owner's words; a WhatsApp delivery status beside it when the Cloud API sent one. */
function OutboxState({ message: m }: { message: OutboxMessage }) {
  const badge =
    m.status === "owner" ? (
      <Badge variant="accent" className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">
        to send
      </Badge>
    ) : m.status === "rerouted" ? (
      <Badge variant="neutral" className="px-2.5 py-0.5 text-[0.7rem] whitespace-nowrap">
        by e-mail
      </Badge>
    ) : (
      <StatusBadge status={m.status} />
    );
  const delivery = m.delivery_status && m.delivery_status !== "failed" ? m.delivery_status : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {badge}
      {delivery ? <span className="text-xs text-ink-subtle">{delivery}</span> : null}
    </span>
  );
}

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
  { id: "status", header: "State", cell: (m) => <OutboxState message={m} /> },
  { id: "attempts", header: "Tries", className: "tabular text-right", cell: (m) => m.attempts },
  {
    id: "last_error",
    header: "Last error",
    cell: (m) => (m.last_error ? <span className="line-clamp-2 max-w-xs text-xs text-bad">{m.last_error}</span> : "—"),
  },
  {
    id: "actions",
    header: "",
    card: "footer",
    cell: (m) => (awaitsOwner(m) ? <SendOnWhatsApp message={m} /> : canRetry(m) ? <RetryButton message={m} /> : null),
  },
];

/** The owner's queue: one row per person, their messages oldest first. */
const chatColumns: Column<OwnerChat>[] = [
  {
    id: "subject",
    header: "Message",
    card: "title",
    cell: (chat) =>
      chat.messages.length === 1 ? (
        columns[0].cell(chat.messages[0])
      ) : (
        <span className="flex flex-col" data-testid="owner-chat">
          <span className="font-semibold">{chat.messages.length} messages, sent as one chat</span>
          <ol className="flex flex-col text-sm font-normal">
            {chat.messages.map((m) => (
              <li key={m.id} className="line-clamp-1 max-w-sm">
                {subject(m)}
              </li>
            ))}
          </ol>
          <span className="text-xs font-normal text-ink-subtle">oldest {formatDateTime(chat.messages[0].created_at)}</span>
        </span>
      ),
  },
  { id: "channel", header: "Channel", cell: (chat) => <Channel channel={chat.messages[0].channel} /> },
  { id: "recipient", header: "To", cell: (chat) => <Recipient text={recipient(chat.messages[0])} /> },
  { id: "status", header: "State", cell: (chat) => <OutboxState message={chat.messages[0]} /> },
  {
    id: "actions",
    header: "",
    card: "footer",
    cell: (chat) =>
      awaitsOwner(chat.messages[0]) ? (
        <SendChatOnWhatsApp chat={chat} />
      ) : canRetry(chat.messages[0]) ? (
        <RetryButton message={chat.messages[0]} />
      ) : null,
  },
];

export function OutboxSection() {
  const table = useTableParams({ filters: FILTERS });
  const messages = useOutbox(table.query);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = openId ? (messages.data?.data.find((m) => m.id === openId) ?? null) : null;
  const ownerQueue = table.filters.status === "owner";
  const shared = {
    ...tableStateProps(table),
    sort: null,
    onSortChange: undefined,
    searchPlaceholder: "Recipient, subject or kind",
    emptyMessage: ownerQueue
      ? "Nothing to send on WhatsApp: you're up to date."
      : "No messages yet. Orders, payments and replies queue them here.",
    actions: (
      <>
        {ownerQueue ? null : (
          <Link to={OWNER_QUEUE_PATH} className={buttonClasses({ variant: "outline", size: "sm" })}>
            <MessagesSquare aria-hidden="true" />
            To send on WhatsApp
          </Link>
        )}
        <WhatsAppTemplatesButton />
      </>
    ),
    filters: (
      <>
        <FilterSelect label="State" value={table.filters.status} onChange={(v) => table.setFilter("status", v)} options={statusOptions} />
        <FilterSelect
          label="Channel"
          value={table.filters.channel}
          onChange={(v) => table.setFilter("channel", v)}
          options={channelOptions}
        />
      </>
    ),
  };

  return (
    <>
      <AdminPageHeader
        title="Outbox"
        description="Every email and WhatsApp message the system sends. Failed ones are retried with a growing pause; you can retry now."
      />
      {ownerQueue ? (
        // Says only what holds for every row: the buttons by their labels; whether an e-mail copy went is
        // each message's own note (not everyone has an address, nor is every message copied); one-time
        // codes never come here (lib/verification.ts sends them only where they arrive at once).
        <p
          className="mb-4 rounded-card border border-accent/40 bg-accent/5 px-4 py-3 text-sm text-ink-muted"
          data-testid="owner-queue-help"
        >
          <span className="font-semibold text-ink">To send on WhatsApp.</span> The server cannot send these itself. Tap{" "}
          <span className="font-medium text-ink">Open chat</span> (a message holding a private link shows{" "}
          <span className="font-medium text-ink">Prepare chat</span> first): WhatsApp opens with the message typed in (a person's messages
          together, oldest first). Press Send there, then <span className="font-medium text-ink">Mark sent</span> (or{" "}
          <span className="font-medium text-ink">Mark all sent</span>) here. A message's details say whether a copy also went by e-mail.
          One-time codes never wait here.
        </p>
      ) : null}
      {ownerQueue ? (
        <DataTable
          caption="Outbox"
          columns={chatColumns}
          {...pageQueryProps(messages)}
          rows={messages.data ? ownerChats(messages.data.data) : undefined}
          rowKey={(chat) => chat.id}
          onRowClick={(chat) => setOpenId(chat.id)}
          rowLabel={(chat) => `Open message to ${chat.recipient}: ${subject(chat.messages[0])}`}
          {...shared}
        />
      ) : (
        <DataTable
          caption="Outbox"
          columns={columns}
          {...pageQueryProps(messages)}
          rowKey={(m) => m.id}
          onRowClick={(m) => setOpenId(m.id)}
          rowLabel={(m) => `Open message to ${m.recipient}: ${subject(m)}`}
          {...shared}
        />
      )}
      <Sheet open={open !== null} onOpenChange={(next) => !next && setOpenId(null)}>
        <SheetContent side="right">{open ? <MessageDetails message={open} /> : null}</SheetContent>
      </Sheet>
    </>
  );
}

const SENT_VIA: Record<string, string> = {
  smtp: "E-mail (SMTP)",
  owner: "By hand, marked sent from the dashboard",
  "cloud-text": "WhatsApp Cloud API, as text",
};
const sentVia = (via: string) =>
  SENT_VIA[via] ?? (via.startsWith("cloud-template:") ? `WhatsApp Cloud API, template ${via.slice("cloud-template:".length)}` : via);

function MessageDetails({ message: m }: { message: OutboxMessage }) {
  const waiting = m.status === "owner" || m.status === "rerouted";
  const rows: [string, string][] = [
    ["To", recipient(m)],
    ["Kind", m.kind ? messageKindLabel(m.kind) : "—"],
    ["Queued", formatDateTime(m.created_at)],
    ["Tries", String(m.attempts)],
    [
      m.status === "sent" ? "Sent" : waiting ? "State" : "Next try",
      m.status === "sent"
        ? formatDateTime(m.sent_at)
        : waiting
          ? STATE_LABELS[m.status as "owner" | "rerouted"]
          : m.status === "failed"
            ? "—"
            : formatDateTime(m.next_attempt_at),
    ],
  ];
  if (m.sent_via) rows.push(["Sent by", sentVia(m.sent_via)]);
  if (m.delivery_status) rows.push(["WhatsApp says", `${m.delivery_status} (${formatDateTime(m.delivery_updated_at)})`]);
  return (
    <div className="flex flex-col gap-6 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">{subject(m)}</SheetTitle>
        <SheetDescription className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
          <OutboxState message={m} />
          <Channel channel={m.channel} />
        </SheetDescription>
      </div>
      {awaitsOwner(m) ? <SendOnWhatsApp message={m} /> : <RetryButton message={m} />}
      {m.note ? <p className="rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm text-ink-muted">{m.note}</p> : null}
      <FactList
        rows={rows}
        className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-2 rounded-xl border border-line bg-surface-raised p-4 text-sm"
      />
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
        {m.has_secret ? (
          <p className="text-xs text-ink-subtle">
            •••••• is a private link: it is kept encrypted and filled in only as the message is sent.
          </p>
        ) : null}
      </section>
    </div>
  );
}
