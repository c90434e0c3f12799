// /admin/blackout-days: sport event days on which free trials are refused (spec §1: "not
// available on sport event days"). Add a day with its reason; remove one.
import { zodResolver } from "@hookform/resolvers/zod";
import { CalendarPlus } from "lucide-react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type BlackoutDayInput, blackoutDayInputSchema } from "@/shared/admin-schemas";
import { formatDate, saDay } from "@/shared/dates";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { actionsColumn, type Column, DataTable, listQueryProps } from "../../components/data-table";
import { Field, FormError, setServerErrors } from "../../components/form-field";
import { useCreateResource, useDeleteResource, useResourceList } from "../api/resources";
import type { BlackoutDay } from "../api/types";
import { DeleteAction } from "../components/delete-action";

export function BlackoutDaysSection() {
  const days = useResourceList<BlackoutDay>("trial-blackout-days");
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
    actionsColumn(
      (d) => (
        <DeleteAction
          label="Remove"
          what={`the blackout day ${formatDate(`${d.day}T12:00:00+02:00`)}`}
          description="Free trials are granted on that day again."
          onDelete={() => remove.mutateAsync(d.id)}
        />
      ),
      "text-right",
    ),
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
          {...listQueryProps(days)}
          rowKey={(d) => d.id}
          loading={days.isPending || days.isFetching}
          emptyMessage="No blackout days: free trials are available every day."
        />
      </div>
    </>
  );
}

const EMPTY = { day: "", reason: "" };
type BlackoutDayValues = z.input<typeof blackoutDayInputSchema>;
const FIELDS = ["day", "reason"] as const;

function AddDayForm() {
  const create = useCreateResource<BlackoutDay>("trial-blackout-days");
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<BlackoutDayValues, unknown, BlackoutDayInput>({ resolver: zodResolver(blackoutDayInputSchema), defaultValues: EMPTY });

  const submit = handleSubmit(
    async (body) => {
      try {
        await create.mutateAsync(body);
        toast.success("Blackout day added", { description: `No free trials on ${formatDate(`${body.day}T12:00:00+02:00`)}.` });
        reset(EMPTY);
      } catch (error) {
        setServerErrors(error, setError, FIELDS);
        toast.error("Blackout day not added", { description: error instanceof Error ? error.message : "Please try again." });
      }
    },
    () => toast.error("Blackout day not added", { description: "Please check the highlighted fields." }),
  );

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-4 sm:p-6"
      aria-label="Add a blackout day"
    >
      <FormError message={errors.root?.server?.message} />
      <div className="grid items-start gap-4 sm:grid-cols-[12rem_1fr_auto]">
        <Field label="Day" required error={errors.day?.message}>
          {(control) => <Input {...control} {...register("day")} type="date" />}
        </Field>
        <Field label="Reason" error={errors.reason?.message} hint="e.g. Rugby World Cup final">
          {(control) => <Input {...control} {...register("reason")} />}
        </Field>
        <Button type="submit" disabled={isSubmitting} className="sm:mt-7">
          <CalendarPlus aria-hidden="true" />
          {isSubmitting ? "Adding..." : "Add day"}
        </Button>
      </div>
    </form>
  );
}
