// Scheduled maintenance on the status page (issue 13 item 5): schedule a window (start, end,
// affected components, details), edit it, cancel it. Subscribers are told when it is scheduled,
// when it starts or changes, and when it is completed or cancelled; the server moves it to in
// progress and completed by the clock.
import { CalendarClock, CalendarX2, Pencil } from "lucide-react";
import { useState } from "react";
import { MAINTENANCE_STATUSES, maintenanceInputSchema, maintenancePatchSchema } from "@/shared/admin-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { actionsColumn, type Column, DataTable, listQueryProps } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { formatDateTime, humanise } from "../../components/format";
import { StatusBadge } from "../../components/status-badge";
import { useResourceList } from "../api/get-resource-list";
import { useSaveResource } from "../api/save-resource";
import { EditorDialog, useEditor } from "../components/editor-dialog";
import { fromSastInput, RowActions, toSastInput } from "../components/fields";
import { AffectedComponentsField, PanelHeader, TitleWithComponents, useComponents } from "./panel-parts";
import { type AdminMaintenance, maintenanceResource } from "./status-types";

interface MaintenanceValues {
  title: string;
  body: string;
  status: string;
  component_keys: string[];
  started_at: string;
  ends_at: string;
}

const valuesOf = (m?: AdminMaintenance): MaintenanceValues => ({
  title: m?.title ?? "",
  body: m?.body ?? "",
  status: m?.status ?? "scheduled",
  component_keys: m?.component_keys ?? [],
  started_at: toSastInput(m?.started_at),
  ends_at: toSastInput(m?.ends_at),
});

// The times typed in SAST, sent with their offset; a blank one is left out (the schema asks for it).
const toBody = ({ started_at, ends_at, ...v }: MaintenanceValues) => ({
  ...v,
  ...(fromSastInput(started_at) ? { started_at: fromSastInput(started_at) } : {}),
  ...(fromSastInput(ends_at) ? { ends_at: fromSastInput(ends_at) } : {}),
});

const isOver = (m: AdminMaintenance) => m.status === "completed" || m.status === "cancelled";

export function MaintenancePanel() {
  const windows = useResourceList<AdminMaintenance>(maintenanceResource);
  const { components, nameOf } = useComponents();
  const { current, edit, create, dialog } = useEditor<AdminMaintenance>();
  const [cancelling, setCancelling] = useState<AdminMaintenance | null>(null);
  const save = useSaveResource<AdminMaintenance>(maintenanceResource);

  const columns: Column<AdminMaintenance>[] = [
    {
      id: "title",
      header: "Maintenance",
      card: "title",
      cell: (m) => <TitleWithComponents title={m.title} keys={m.component_keys} nameOf={nameOf} />,
    },
    { id: "status", header: "Status", cell: (m) => <StatusBadge status={m.status} /> },
    {
      id: "window",
      header: "When (SAST)",
      className: "whitespace-nowrap tabular",
      cell: (m) => (
        <span className="flex flex-col">
          <span>{formatDateTime(m.started_at)}</span>
          {m.ends_at ? <span className="text-xs text-ink-subtle">to {formatDateTime(m.ends_at)}</span> : null}
        </span>
      ),
    },
    actionsColumn((m) => (
      <RowActions>
        <Button variant="outline" size="sm" onClick={() => edit(m)}>
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> {m.title}</span>
        </Button>
        {!isOver(m) ? (
          <Button variant="outline" size="sm" onClick={() => setCancelling(m)}>
            <CalendarX2 aria-hidden="true" />
            Cancel<span className="sr-only"> {m.title}</span>
          </Button>
        ) : null}
      </RowActions>
    )),
  ];

  return (
    <section aria-labelledby="status-maintenance" className="flex flex-col gap-4">
      <PanelHeader
        id="status-maintenance"
        title="Scheduled maintenance"
        icon={CalendarClock}
        action="Schedule maintenance"
        onAction={create}
      />
      <DataTable
        caption="Scheduled maintenance"
        columns={columns}
        {...listQueryProps(windows)}
        rowKey={(m) => m.id}
        pageSize={10}
        onRowClick={edit}
        rowLabel={(m) => `Open ${m.title}`}
        emptyMessage="No maintenance planned. Schedule it here and subscribers hear of it in advance."
      />
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title="Cancel this maintenance?"
        description={cancelling ? `"${cancelling.title}" leaves the status page, and subscribers are told it is cancelled.` : ""}
        confirmLabel="Cancel maintenance"
        pendingLabel="Cancelling..."
        pending={save.isPending}
        onConfirm={() =>
          cancelling &&
          save.mutate(
            { id: cancelling.id, body: { status: "cancelled" } },
            {
              onSuccess: () => {
                toast.success("Maintenance cancelled", { description: `"${cancelling.title}" is cancelled.` });
                setCancelling(null);
              },
              onError: (error) => toast.error("Not cancelled", { description: error.message }),
            },
          )
        }
      />
      <EditorDialog
        resource={maintenanceResource}
        {...dialog}
        title={current ? "Edit maintenance" : "Schedule maintenance"}
        description="Shown on the public status page; subscribers are told now, when it starts and when it's done. Times are South African time (SAST)."
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={maintenanceInputSchema}
        patchSchema={maintenancePatchSchema}
        saved={(v) => `"${v.title}" is ${humanise(v.status).toLowerCase()}.`}
        fields={(v, set, errors) => (
          <>
            <Field label="Title" required error={errors.title}>
              {(control) => (
                <Input {...control} value={v.title} onChange={(e) => set("title", e.target.value)} placeholder="Streaming server upgrade" />
              )}
            </Field>
            <Field label="Details" error={errors.body} hint="What clients see: what changes for them while it runs.">
              {(control) => <Textarea {...control} value={v.body} onChange={(e) => set("body", e.target.value)} rows={3} />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Starts (SAST)" required error={errors.started_at}>
                {(control) => (
                  <Input {...control} type="datetime-local" value={v.started_at} onChange={(e) => set("started_at", e.target.value)} />
                )}
              </Field>
              <Field label="Ends (SAST)" required error={errors.ends_at}>
                {(control) => (
                  <Input {...control} type="datetime-local" value={v.ends_at} onChange={(e) => set("ends_at", e.target.value)} />
                )}
              </Field>
              {current ? (
                <Field label="Status" error={errors.status} hint="It starts and completes by the clock on its own.">
                  {(control) => (
                    <Select {...control} value={v.status} onChange={(e) => set("status", e.target.value)}>
                      {MAINTENANCE_STATUSES.map((s) => (
                        <option key={s} value={s}>
                          {humanise(s)}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              ) : null}
            </div>
            <AffectedComponentsField components={components} values={v} set={set} errors={errors} />
          </>
        )}
      />
    </section>
  );
}
