// /admin/privacy-requests: clients' correction and deletion requests (POPIA s24; issue 46 item 7),
// open ones first by due date (30 days from the request), an overdue one marked. Each open one is
// answered once: a correction applied (the client edit, audited), refused with a reason the client
// is told, or — for a deletion — erased: the person de-identified, the tax records kept, the line
// left on or switched off as the owner chooses.
import { zodResolver } from "@hookform/resolvers/zod";
import { ExternalLink } from "lucide-react";
import { type FormEventHandler, type ReactNode, useState } from "react";
import { type FieldValues, type Path, type UseFormSetError, useForm } from "react-hook-form";
import { Link } from "react-router";
import {
  type AdminDataRequestView,
  CORRECTABLE_FIELD_LABELS,
  CORRECTABLE_FIELDS,
  DATA_REQUEST_KIND_LABELS,
  DATA_REQUEST_STATUS_LABELS,
  type DataRequestCorrectForm,
  type DataRequestErase,
  type DataRequestRefuse,
  dataRequestCorrectFormSchema,
  dataRequestEraseSchema,
  dataRequestRefuseSchema,
  ERASURE_KEEPS,
} from "@/shared/data-request-schemas";
import { formatDate } from "@/shared/dates";
import { Badge } from "@/web/components/ui/badge";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { Field, FormError, showServerErrors } from "../../components/form-field";
import { type DataRequestAnswer, useAdminDataRequests, useAnswerDataRequest } from "./api/data-requests";

export function PrivacyRequestsSection() {
  const requests = useAdminDataRequests();
  const rows = requests.data?.data ?? [];
  return (
    <>
      <AdminPageHeader
        title="Privacy requests"
        description="Clients asking to correct or delete their data (POPIA section 24). Answer each by its due date; the client is told what you did."
      />
      {requests.isPending ? (
        <p className="text-sm text-ink-muted">Loading...</p>
      ) : requests.isError ? (
        <p className="text-sm text-ink-muted">Sync Error</p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-ink-muted">No privacy requests yet. Clients ask from their portal's account page.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Privacy requests">
          {rows.map((r) => (
            <RequestItem key={r.id} request={r} />
          ))}
        </ul>
      )}
    </>
  );
}

function RequestItem({ request }: { request: AdminDataRequestView }) {
  const [answering, setAnswering] = useState<null | "correct" | "refuse" | "erase">(null);
  const open = request.status === "open";
  return (
    <li
      className="rounded-xl border border-line bg-surface-raised p-4"
      aria-label={`${DATA_REQUEST_KIND_LABELS[request.kind]} from ${request.client_name}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-ink">
          {DATA_REQUEST_KIND_LABELS[request.kind]} · {request.client_name}
        </p>
        <span className="flex items-center gap-2">
          {request.overdue ? <Badge variant="bad">Overdue</Badge> : null}
          <Badge variant={open ? "warn" : "neutral"}>{DATA_REQUEST_STATUS_LABELS[request.status]}</Badge>
        </span>
      </div>
      <p className="mt-1 text-sm text-ink-muted">
        Asked {formatDate(request.created_at)} ·{" "}
        {open ? `due ${formatDate(request.due_at)}` : `answered ${formatDate(request.resolved_at)}`}
      </p>
      {request.details ? <p className="mt-2 text-sm whitespace-pre-wrap text-ink">What is wrong: {request.details}</p> : null}
      {request.correction ? <p className="mt-1 text-sm whitespace-pre-wrap text-ink">Should say: {request.correction}</p> : null}
      {request.outcome ? <p className="mt-2 text-sm text-ink-muted">Told the client: {request.outcome}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={`/admin/client/${request.client_id}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
          <ExternalLink aria-hidden="true" />
          Open client
        </Link>
        {open ? (
          <>
            {request.kind === "correction" ? (
              <Button size="sm" variant="outline" onClick={() => setAnswering("correct")}>
                Apply correction
              </Button>
            ) : (
              <Button size="sm" variant="outline" onClick={() => setAnswering("erase")}>
                Erase
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => setAnswering("refuse")}>
              Refuse
            </Button>
          </>
        ) : null}
      </div>
      {open && answering === "correct" ? <CorrectForm request={request} /> : null}
      {open && answering === "refuse" ? <RefuseForm request={request} /> : null}
      {open && answering === "erase" ? <EraseForm request={request} /> : null}
    </li>
  );
}

/**
 * Sends one answer, says so in a toast, and puts what the server refused on the form: on its
 * fields where it names one of them, above them otherwise.
 */
function useAnswer<T extends FieldValues>(request: AdminDataRequestView, setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  const answer = useAnswerDataRequest();
  return {
    pending: answer.isPending,
    send: async (body: DataRequestAnswer, done: string) => {
      try {
        await answer.mutateAsync({ id: request.id, answer: body });
        toast.success("Request answered", { description: done });
      } catch (error) {
        showServerErrors(error, setError, fields, "Please try again.");
      }
    },
  };
}

/** An answer's form under its request: what it does, the server's refusal, its fields, its one button. */
function AnswerForm({
  label,
  onSubmit,
  error,
  pending,
  variant = "primary",
  submit,
  busyLabel = "Saving...",
  intro,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  error: string | undefined;
  pending: boolean;
  variant?: "outline" | "primary";
  submit: string;
  busyLabel?: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-3" aria-label={label}>
      {intro}
      <FormError message={error} />
      {children}
      <Button type="submit" size="sm" variant={variant} disabled={pending} className="self-start">
        {pending ? busyLabel : submit}
      </Button>
    </form>
  );
}

function CorrectForm({ request }: { request: AdminDataRequestView }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DataRequestCorrectForm>({
    resolver: zodResolver(dataRequestCorrectFormSchema),
    defaultValues: { field: "full_name", value: request.correction, note: "" },
  });
  const answer = useAnswer(request, setError, ["field", "value", "note"]);
  const submit = handleSubmit(({ field, value, note }) =>
    answer.send({ action: "correct", body: { changes: { [field]: value }, note } }, `${request.client_name}'s details were corrected.`),
  );
  return (
    <AnswerForm
      label="Apply the correction"
      onSubmit={submit}
      error={errors.root?.server?.message}
      pending={answer.pending}
      submit="Apply correction"
    >
      <Field label="Detail to correct" error={errors.field?.message}>
        {(control) => (
          <Select {...control} {...register("field")}>
            {CORRECTABLE_FIELDS.map((f) => (
              <option key={f} value={f}>
                {CORRECTABLE_FIELD_LABELS[f]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Corrected value" error={errors.value?.message}>
        {(control) => <Input {...control} {...register("value")} />}
      </Field>
      <Field
        label="What to tell the client (optional)"
        error={errors.note?.message}
        hint="Empty: “We corrected your details as you asked.”"
      >
        {(control) => <Textarea {...control} {...register("note")} rows={2} />}
      </Field>
    </AnswerForm>
  );
}

function RefuseForm({ request }: { request: AdminDataRequestView }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DataRequestRefuse>({ resolver: zodResolver(dataRequestRefuseSchema), defaultValues: { reason: "" } });
  const answer = useAnswer(request, setError, ["reason"]);
  const submit = handleSubmit((body) => answer.send({ action: "refuse", body }, `${request.client_name} is told why.`));
  return (
    <AnswerForm
      label="Refuse the request"
      onSubmit={submit}
      error={errors.root?.server?.message}
      pending={answer.pending}
      variant="outline"
      submit="Refuse"
    >
      <Field label="Your reason (the client is told)" error={errors.reason?.message}>
        {(control) => <Textarea {...control} {...register("reason")} rows={3} />}
      </Field>
    </AnswerForm>
  );
}

function EraseForm({ request }: { request: AdminDataRequestView }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DataRequestErase>({ resolver: zodResolver(dataRequestEraseSchema), defaultValues: { line: "disable" } });
  const answer = useAnswer(request, setError, ["line"]);
  const submit = handleSubmit((body) =>
    answer.send({ action: "erase", body }, "The client's personal data was erased; their invoices and payments are kept."),
  );
  return (
    <AnswerForm
      label="Erase the client's data"
      onSubmit={submit}
      error={errors.root?.server?.message}
      pending={answer.pending}
      submit="Erase their data"
      busyLabel="Erasing..."
      intro={
        <p className="text-sm text-ink-muted">
          Removes their name, contacts, notes, MAC, message contents, orders and enquiries, and signs them out. It cannot be undone.{" "}
          {ERASURE_KEEPS}
        </p>
      }
    >
      <Field label="Their line on the panel" error={errors.line?.message}>
        {(control) => (
          <Select {...control} {...register("line")}>
            <option value="disable">Switch it off</option>
            <option value="keep">Leave it as it is</option>
          </Select>
        )}
      </Field>
    </AnswerForm>
  );
}
