// /admin/content-requests: clients asking for a channel, film or series. Filter by status,
// open one to change its status and reply; a new reply goes to the client on their channel.

import { zodResolver } from "@hookform/resolvers/zod";
import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import {
  type AdminContentRequest,
  CONTENT_REQUEST_STATUSES,
  type ContentRequestForm,
  type ContentRequestPatch,
  contentRequestFormSchema,
} from "@/shared/business-schemas";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable, pageQueryProps, type SortState, tableStateProps } from "../../components/data-table";
import { FilterSelect } from "../../components/filter-field";
import { Field, FormError, setServerErrors } from "../../components/form-field";
import { formatDateTime, humanise } from "../../components/format";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/sheet";
import { StatusBadge } from "../../components/status-badge";
import { useTableParams } from "../../components/use-table-params";
import { useContentRequests } from "./api/get-content-requests";
import { useUpdateContentRequest } from "./api/update-content-request";

const FILTERS = ["status"] as const;
const NEWEST_FIRST: SortState = { id: "created_at", dir: "desc" };
const statusOptions = CONTENT_REQUEST_STATUSES.map((s) => ({ value: s, label: humanise(s) }));

const who = (r: AdminContentRequest) => r.client_full_name || r.client_username || "A removed client";

const columns: Column<AdminContentRequest>[] = [
  {
    id: "title",
    header: "Request",
    sortable: true,
    card: "title",
    cell: (r) => (
      <span className="flex flex-col">
        <span>{r.title}</span>
        <span className="text-xs font-normal text-ink-subtle">{humanise(r.request_type)}</span>
      </span>
    ),
  },
  { id: "client", header: "Client", cell: (r) => who(r) },
  { id: "status", header: "Status", sortable: true, cell: (r) => <StatusBadge status={r.status} /> },
  {
    id: "reply",
    header: "Replied",
    card: "hidden",
    cell: (r) => (r.reply.trim() ? "Yes" : "—"),
  },
  {
    id: "created_at",
    header: "Asked",
    sortable: true,
    sortLabels: ["Oldest first", "Newest first"],
    className: "whitespace-nowrap tabular",
    cell: (r) => formatDateTime(r.created_at),
  },
];

export function ContentRequestsSection() {
  const table = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const requests = useContentRequests(table.query);
  const [openId, setOpenId] = useState<string | null>(null);
  // the open request as the list has it now (refreshed after a save or a change elsewhere)
  const open = openId ? (requests.data?.data.find((r) => r.id === openId) ?? null) : null;

  return (
    <>
      <AdminPageHeader
        title="Content requests"
        description="Channels, films and series clients asked for. Reply and they hear back on WhatsApp or email."
      />
      <DataTable
        caption="Content requests"
        columns={columns}
        {...pageQueryProps(requests)}
        rowKey={(r) => r.id}
        loading={requests.isPending || requests.isFetching}
        {...tableStateProps(table)}
        searchPlaceholder="Search titles"
        emptyMessage="No content requests yet. Clients ask from their portal."
        onRowClick={(r) => setOpenId(r.id)}
        rowLabel={(r) => `Open request ${r.title}`}
        filters={
          <FilterSelect
            label="Status"
            value={table.filters.status}
            onChange={(v) => table.setFilter("status", v)}
            options={statusOptions}
          />
        }
      />
      <Sheet open={open !== null} onOpenChange={(next) => !next && setOpenId(null)}>
        <SheetContent side="right">{open ? <RequestDetails key={open.id} request={open} /> : null}</SheetContent>
      </Sheet>
    </>
  );
}

function RequestDetails({ request }: { request: AdminContentRequest }) {
  const update = useUpdateContentRequest();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ContentRequestForm>({
    resolver: zodResolver(contentRequestFormSchema),
    defaultValues: { status: request.status as ContentRequestForm["status"], reply: request.reply },
  });

  const submit = handleSubmit(async ({ status, reply }) => {
    const patch: ContentRequestPatch = {};
    if (status !== request.status) patch.status = status;
    if (reply.trim() !== request.reply.trim()) patch.reply = reply;
    if (!Object.keys(patch).length) {
      toast.info("Nothing to save", { description: "Change the status or write a reply first." });
      return;
    }
    try {
      await update.mutateAsync({ id: request.id, patch });
      toast.success("Request updated", {
        description: patch.reply ? `Your reply is on its way to ${who(request)}.` : `"${request.title}" is now ${humanise(status)}.`,
      });
    } catch (error) {
      setServerErrors(error, setError, ["status", "reply"]);
      toast.error("Request not updated", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">{request.title}</SheetTitle>
        <SheetDescription className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
          <StatusBadge status={request.status} />
          <span>
            {humanise(request.request_type)} asked by {who(request)} on {formatDateTime(request.created_at)}
          </span>
        </SheetDescription>
      </div>
      {request.client_id ? (
        <Link
          to={`/admin/client/${request.client_id}`}
          className={buttonClasses({ variant: "outline", size: "sm", className: "self-start" })}
        >
          <ExternalLink aria-hidden="true" />
          Open client
        </Link>
      ) : null}
      <section aria-labelledby="request-details" className="flex flex-col gap-2">
        <h3 id="request-details" className="text-sm font-semibold tracking-wide text-ink-subtle uppercase">
          Details
        </h3>
        <p className="rounded-xl border border-line bg-surface-raised p-4 text-sm whitespace-pre-wrap text-ink">
          {request.details.trim() || "No details given."}
        </p>
      </section>
      <FormError message={errors.root?.server?.message} />
      <Field label="Status" error={errors.status?.message}>
        {(control) => (
          <Select {...control} {...register("status")}>
            {statusOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Reply to the client"
        error={errors.reply?.message}
        hint={
          request.client_id
            ? "A new reply is sent to them on their preferred channel and shows in their portal."
            : "This client was removed: the reply is kept but not sent."
        }
      >
        {(control) => <Textarea {...control} {...register("reply")} rows={5} />}
      </Field>
      <Button type="submit" disabled={update.isPending} className="self-start">
        {update.isPending ? "Saving..." : "Save"}
      </Button>
    </form>
  );
}
