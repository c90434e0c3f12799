// /admin/blackout-days: sport event days on which free trials are refused (spec §1: "not
// available on sport event days"). Add a day with its reason; remove one.
import { CalendarPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { blackoutDayInputSchema } from "@/shared/admin-schemas";
import { formatDate, saDay } from "@/shared/dates";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable } from "../../components/data-table";
import { Field, FormError } from "../../components/form-field";
import { useCreateResource, useDeleteResource, useResourceList } from "../api/resources";
import type { BlackoutDay } from "../api/types";
import { DeleteAction } from "../components/delete-action";
import { useSave } from "../components/use-save";

export function BlackoutDaysSection() {
  const { data, isPending, isFetching, error, refetch } = useResourceList<BlackoutDay>("trial-blackout-days");
  const remove = useDeleteResource("trial-blackout-days");
  const today = saDay(new Date());

  const columns: Column<BlackoutDay>[] = [
    {
      id: "day",
      header: "Day",
      card: "title",
      sortable: true,
      className: "whitespace-nowrap",
      cell: (d) => (
        <span className="flex items-center gap-2">
          {formatDate(`${d.day}T12:00:00+02:00`)}
          {d.day === today ? (
            <Badge variant="warn" className="px-2 py-0.5 text-[0.7rem]">
              Today
            </Badge>
          ) : d.day < today ? (
            <Badge variant="neutral" className="px-2 py-0.5 text-[0.7rem]">
              Past
            </Badge>
          ) : null}
        </span>
      ),
    },
    { id: "reason", header: "Reason", cell: (d) => d.reason || "—" },
    {
      id: "actions",
      header: "Actions",
      card: "footer",
      className: "text-right",
      cell: (d) => (
        <DeleteAction
          label="Remove"
          what={`the blackout day ${formatDate(`${d.day}T12:00:00+02:00`)}`}
          description="Free trials are granted on that day again."
          onDelete={() => remove.mutateAsync(d.id)}
        />
      ),
    },
  ];

  return (
    <>
      <AdminPageHeader
        title="Trial blackout days"
        description="Sport event days: no free trials are granted on these days (South African time)."
      />
      <div className="flex flex-col gap-6">
        <AddDayForm />
        <DataTable
          caption="Blackout days"
          columns={columns}
          rows={data}
          rowKey={(d) => d.id}
          loading={isPending || isFetching}
          error={error}
          onRetry={() => refetch()}
          emptyMessage="No blackout days: free trials are available every day."
        />
      </div>
    </>
  );
}

function AddDayForm() {
  const [values, setValues] = useState({ day: "", reason: "" });
  const create = useCreateResource<BlackoutDay>("trial-blackout-days");
  const { errors, pending, save } = useSave();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await save({
      schema: blackoutDayInputSchema,
      body: values,
      send: (body) => create.mutateAsync(body),
      success: "Blackout day added",
      description: `No free trials on ${values.day ? formatDate(`${values.day}T12:00:00+02:00`) : "that day"}.`,
      failure: "Blackout day not added",
    });
    if (ok) setValues({ day: "", reason: "" });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-4 sm:p-6"
      aria-label="Add a blackout day"
    >
      <FormError errors={errors} />
      <div className="grid items-start gap-4 sm:grid-cols-[12rem_1fr_auto]">
        <Field label="Day" required error={errors.day}>
          {(control) => (
            <Input {...control} type="date" value={values.day} onChange={(e) => setValues({ ...values, day: e.target.value })} />
          )}
        </Field>
        <Field label="Reason" error={errors.reason} hint="e.g. Rugby World Cup final">
          {(control) => <Input {...control} value={values.reason} onChange={(e) => setValues({ ...values, reason: e.target.value })} />}
        </Field>
        <Button type="submit" disabled={pending} className="sm:mt-7">
          <CalendarPlus aria-hidden="true" />
          {pending ? "Adding..." : "Add day"}
        </Button>
      </div>
    </form>
  );
}
