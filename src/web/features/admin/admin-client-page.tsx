// /admin/client/:clientId: one client for staff. The subscription and what can be done to it
// (edit, grant complimentary time, record a payment, suspend or reactivate, reset the portal
// password, delete), a flagged possible duplicate and its merge or dismissal (issue 24), how to
// reach them, their line on the IPTV panel, notes, and everything on record: the history of their
// status and term, payments, leads, content requests and messages sent.
import { ArrowLeft, Gift, KeyRound, Pause, Pencil, Play, Plus, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import {
  type AdminClientDetail,
  type AdminContentRequest,
  type AdminLead,
  type AdminOutboxMessage,
  clientNotesSchema,
} from "@/shared/business-schemas";
import { DEVICE_LABELS, INTERNET_PLATFORM_LABELS } from "@/shared/options";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { useLifecycleRules } from "./api/get-lifecycle-rules";
import { useClientAction } from "./clients/api/client-action";
import { useDeleteClient } from "./clients/api/delete-client";
import { useClient } from "./clients/api/get-client";
import { autoRenewText, useClientAutoRenew } from "./clients/api/get-client-auto-renew";
import { useUpdateClient } from "./clients/api/update-client";
import { daysLeftText, SubscriptionBadge } from "./clients/client-labels";
import { DuplicateBanner } from "./clients/duplicate-banner";
import { EditClientDialog } from "./clients/edit-client-dialog";
import { GrantTimeDialog } from "./clients/grant-time-dialog";
import { LifecycleHistory } from "./clients/lifecycle-history";
import { LineCard } from "./clients/line-card";
import { LineMacDialog } from "./clients/line-mac-dialog";
import { ResetPasswordDialog } from "./clients/reset-password-dialog";
import { ConfirmDialog } from "./components/confirm-dialog";
import { DataTable } from "./components/data-table";
import { FactList } from "./components/fact-list";
import { formatDate, formatDateTime, humanise, orDash, phone } from "./components/format";
import { NotesForm } from "./components/notes-form";
import { StatusBadge } from "./components/status-badge";
import { WhatsAppButton } from "./components/whatsapp-button";
import { FORM_TYPE_LABELS } from "./leads/lead-labels";
import { paymentColumns } from "./payments/payment-columns";
import { RecordPaymentDialog } from "./payments/record-payment-dialog";

const clientPaymentColumns = paymentColumns({ showClient: false });

export function AdminClientPage() {
  const { clientId = "" } = useParams();
  const { data: client, isPending, error, refetch } = useClient(clientId);

  if (isPending) return <PageSkeleton variant="table" />;
  if (error || !client) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <div className="flex flex-col items-center gap-4 rounded-card border border-line bg-surface px-6 py-14 text-center">
        <h1 className="text-xl font-bold text-ink">{missing ? "Client not found" : "This client couldn't load"}</h1>
        <p className="text-ink-muted">{missing ? "They may have been deleted." : error?.message}</p>
        <div className="flex flex-wrap justify-center gap-3">
          {missing ? null : (
            <Button variant="outline" size="sm" onClick={() => refetch()}>
              Try Again
            </Button>
          )}
          <Link to="/admin/clients" className="inline-flex min-h-11 items-center px-3 text-sm text-accent-ink hover:underline">
            All clients
          </Link>
        </div>
      </div>
    );
  }
  return <ClientDetail client={client} />;
}

type Open = "edit" | "grant" | "suspend" | "reactivate" | "reset" | "delete" | "payment" | "mac" | null;

function ClientDetail({ client }: { client: AdminClientDetail }) {
  const [open, setOpen] = useState<Open>(null);
  const action = useClientAction();
  const remove = useDeleteClient();
  const navigate = useNavigate();
  const close = (next: boolean) => !next && setOpen(null);
  const firstName = client.full_name.split(/\s+/)[0] ?? client.full_name;
  const whatsappUrl = client.whatsapp ? buildWhatsAppLink(client.whatsapp, `Hi ${firstName}`) : null;
  const suspended = client.status === "suspended";
  const rules = useLifecycleRules();
  const renewal = autoRenewText(useClientAutoRenew(client.id).data);

  const runStatusAction = (kind: "suspend" | "reactivate") =>
    action.mutate(
      { id: client.id, action: kind },
      {
        onSuccess: () => {
          toast.success(kind === "suspend" ? "Client suspended" : "Client reactivated", {
            description:
              kind === "suspend"
                ? `${client.full_name} is signed out and sees only a page saying their account is suspended.`
                : `${client.full_name} can use the client portal again.`,
          });
          setOpen(null);
        },
        onError: (error) => toast.error(kind === "suspend" ? "Not suspended" : "Not reactivated", { description: error.message }),
      },
    );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <Link to="/admin/clients" className="inline-flex min-h-11 w-fit items-center gap-2 text-sm text-ink-muted hover:text-ink">
          <ArrowLeft aria-hidden="true" className="size-4" />
          All clients
        </Link>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="flex min-w-0 flex-col gap-1">
            <h1 className="text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">{client.full_name}</h1>
            <p className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
              <span className="font-mono">{client.username}</span>
              <SubscriptionBadge client={client} />
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <WhatsAppButton url={whatsappUrl} name={client.full_name} />
            <Button variant="outline" size="sm" onClick={() => setOpen("edit")}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </div>
        </div>
      </div>

      <DuplicateBanner client={client} />

      <div className="grid gap-4 lg:grid-cols-3">
        <Panel title="Subscription" className="lg:col-span-2">
          <Facts
            rows={[
              ["Status", <SubscriptionBadge key="s" client={client} />],
              ["Package", orDash(client.package_name)],
              ["Started", orDash(formatDate(client.subscription_start))],
              ["Ends", client.subscription_end ? `${formatDate(client.subscription_end)} · ${daysLeftText(client, rules)}` : "—"],
              ...(renewal ? [["Renewal", renewal] as [string, string]] : []),
            ]}
          />
          <div className="mt-5 flex flex-wrap gap-2">
            <Button size="sm" onClick={() => setOpen("payment")}>
              <Plus aria-hidden="true" />
              Record payment
            </Button>
            <Button size="sm" variant="outline" onClick={() => setOpen("grant")}>
              <Gift aria-hidden="true" />
              Grant complimentary time
            </Button>
            {suspended ? (
              <Button size="sm" variant="outline" onClick={() => setOpen("reactivate")}>
                <Play aria-hidden="true" />
                Reactivate
              </Button>
            ) : (
              <Button size="sm" variant="outline" onClick={() => setOpen("suspend")}>
                <Pause aria-hidden="true" />
                Suspend
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => setOpen("reset")}>
              <KeyRound aria-hidden="true" />
              Reset portal password
            </Button>
            <Button size="sm" variant="ghost" className="text-bad hover:bg-bad/10 hover:text-bad" onClick={() => setOpen("delete")}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </div>
        </Panel>

        <Panel title="Contact">
          <Facts
            stacked
            rows={[
              [
                "Email",
                client.email ? (
                  <a key="e" href={`mailto:${client.email}`} className="text-accent-ink [overflow-wrap:anywhere] hover:underline">
                    {client.email}
                  </a>
                ) : (
                  "—"
                ),
              ],
              ["WhatsApp", phone(client.whatsapp)],
              ["Prefers", client.communication_method === "email" ? "Email" : "WhatsApp"],
              ["Device", orDash(DEVICE_LABELS[client.device as keyof typeof DEVICE_LABELS] ?? client.device)],
              [
                "Internet",
                orDash(
                  INTERNET_PLATFORM_LABELS[client.internet_platform as keyof typeof INTERNET_PLATFORM_LABELS] ?? client.internet_platform,
                ),
              ],
              ["Marketing", client.marketing_opt_in ? "Agreed to offers" : "No marketing"],
              ["Client since", formatDate(client.created_at)],
            ]}
          />
        </Panel>

        <Panel title="Line" className="lg:col-span-2">
          <LineCard client={client} onEdit={() => setOpen("edit")} onMac={() => setOpen("mac")} />
        </Panel>

        <Panel title="Notes">
          <ClientNotes client={client} />
        </Panel>
      </div>

      <Panel title="History" count={client.lifecycle.length}>
        <LifecycleHistory events={client.lifecycle} clientName={client.full_name} />
      </Panel>

      <Panel title="Payments" count={client.payments.length}>
        <DataTable
          caption={`${client.full_name}'s payments`}
          columns={clientPaymentColumns}
          rows={client.payments}
          rowKey={(p) => p.id}
          pageSize={10}
          sort={{ id: "created_at", dir: "desc" }}
          emptyMessage="No payments yet."
        />
      </Panel>

      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Leads" count={client.leads.length}>
          <RecordList items={client.leads} empty="No website submissions linked." render={(lead) => <LeadItem lead={lead} />} />
        </Panel>
        <Panel title="Content requests" count={client.content_requests.length}>
          <RecordList
            items={client.content_requests}
            empty="No requests for channels, films or series."
            render={(r) => <RequestItem request={r} />}
          />
        </Panel>
      </div>

      <Panel title="Messages sent" count={client.messages.length}>
        <RecordList items={client.messages} empty="No messages yet." render={(m) => <MessageItem message={m} />} />
      </Panel>

      <EditClientDialog client={client} open={open === "edit"} onOpenChange={close} />
      <GrantTimeDialog client={client} open={open === "grant"} onOpenChange={close} />
      <LineMacDialog client={client} open={open === "mac"} onOpenChange={close} />
      <ResetPasswordDialog client={client} open={open === "reset"} onOpenChange={close} />
      <RecordPaymentDialog client={client} open={open === "payment"} onOpenChange={close} />
      <ConfirmDialog
        open={open === "suspend"}
        onOpenChange={close}
        title={`Suspend ${client.full_name}?`}
        description="They're signed out of the client portal at once. If they sign in, they see only a page saying their account is suspended and how to reach you. A payment adds time but doesn't lift the suspension: only Reactivate does. Their dates stay as they are."
        confirmLabel="Suspend"
        pendingLabel="Suspending..."
        destructive
        pending={action.isPending}
        onConfirm={() => runStatusAction("suspend")}
      />
      <ConfirmDialog
        open={open === "reactivate"}
        onOpenChange={close}
        title={`Reactivate ${client.full_name}?`}
        description="They can use the client portal again, with the status their term gives them now: active while it runs, then grace or expired."
        confirmLabel="Reactivate"
        pendingLabel="Reactivating..."
        pending={action.isPending}
        onConfirm={() => runStatusAction("reactivate")}
      />
      <ConfirmDialog
        open={open === "delete"}
        onOpenChange={close}
        title={`Delete ${client.full_name}?`}
        description="Their portal account and notes are removed for good. Their payments stay on the books, without a client. This can't be undone."
        confirmLabel="Delete client"
        pendingLabel="Deleting..."
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(client.id, {
            onSuccess: () => {
              toast.success("Client deleted", { description: `${client.full_name} was removed.` });
              navigate("/admin/clients", { replace: true });
            },
            onError: (error) => toast.error("Not deleted", { description: error.message }),
          })
        }
      />
    </div>
  );
}

function Panel({ title, count, className, children }: { title: string; count?: number; className?: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className={cn("min-w-0 rounded-card border border-line bg-surface p-5 sm:p-6", className)}>
      <h2 id={id} className="mb-4 flex items-center gap-2 text-base font-semibold text-ink">
        {title}
        {count !== undefined ? (
          <span className="rounded-full bg-surface-overlay px-2 py-0.5 text-xs text-ink-muted tabular">{count}</span>
        ) : null}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows, stacked }: { rows: [string, ReactNode][]; stacked?: boolean }) {
  if (stacked) {
    return (
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm lg:grid-cols-1">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-ink-subtle">{label}</dt>
            <dd className="break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return <FactList rows={rows} className="grid grid-cols-[minmax(6.5rem,auto)_1fr] gap-x-4 gap-y-2.5 text-sm" />;
}

function ClientNotes({ client }: { client: AdminClientDetail }) {
  const update = useUpdateClient();
  return (
    <NotesForm
      notes={client.notes}
      schema={clientNotesSchema}
      save={(notes) => update.mutateAsync({ id: client.id, patch: { notes } })}
      label={`Notes about ${client.full_name}`}
      hideLabel
      rows={5}
      placeholder="Anything the team should know"
      className="gap-3"
    />
  );
}

function RecordList<T extends { id: string }>({ items, empty, render }: { items: T[]; empty: string; render: (item: T) => ReactNode }) {
  if (!items.length) return <p className="text-sm text-ink-muted">{empty}</p>;
  return (
    <ul className="flex flex-col divide-y divide-line">
      {items.map((item) => (
        <li key={item.id} className="py-3 first:pt-0 last:pb-0">
          {render(item)}
        </li>
      ))}
    </ul>
  );
}

function LeadItem({ lead }: { lead: AdminLead }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <div className="flex min-w-0 flex-col">
        <span className="font-medium text-ink">
          {FORM_TYPE_LABELS[lead.form_type] ?? humanise(lead.form_type)}
          {lead.package_name ? ` · ${lead.package_name}` : ""}
        </span>
        <span className="text-xs text-ink-subtle">{formatDateTime(lead.created_at)}</span>
      </div>
      <StatusBadge status={lead.status} />
    </div>
  );
}

function RequestItem({ request }: { request: AdminContentRequest }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium text-ink">
          {humanise(request.request_type)}: {request.title}
        </span>
        <StatusBadge status={request.status} />
      </div>
      {request.details ? <p className="text-ink-muted">{request.details}</p> : null}
      {request.reply ? <p className="text-ink-muted">Reply: {request.reply}</p> : null}
      <span className="text-xs text-ink-subtle">{formatDateTime(request.created_at)}</span>
    </div>
  );
}

function MessageItem({ message }: { message: AdminOutboxMessage }) {
  return (
    <details className="group text-sm">
      <summary className="flex min-h-11 cursor-pointer list-none flex-wrap items-center justify-between gap-2">
        <span className="flex min-w-0 flex-col">
          <span className="font-medium text-ink">
            {message.channel === "email" ? "Email" : "WhatsApp"}
            {message.subject ? `: ${message.subject}` : message.kind ? `: ${humanise(message.kind)}` : ""}
          </span>
          <span className="text-xs text-ink-subtle">
            {message.recipient} · {formatDateTime(message.sent_at ?? message.created_at)}
          </span>
        </span>
        <StatusBadge status={message.status} />
      </summary>
      <pre className="mt-2 rounded-xl bg-surface-raised p-3 font-sans text-sm whitespace-pre-wrap text-ink-muted">{message.body}</pre>
      {message.last_error ? <p className="mt-2 text-xs text-bad">Last error: {message.last_error}</p> : null}
    </details>
  );
}
