// Incidents on the status page: open one, post updates (status and details), resolve it.
import { CheckCircle2, Pencil, Siren } from "lucide-react";
import { useState } from "react";
import { INCIDENT_IMPACTS, INCIDENT_STATUSES, incidentInputSchema, incidentPatchSchema } from "@/shared/admin-schemas";
import { Badge } from "@/web/components/ui/badge";
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
import { DeleteRowButton } from "../components/delete-row";
import { EditorDialog, useEditor } from "../components/editor-dialog";
import { fromSastInput, RowActions, toSastInput } from "../components/fields";
import { useResolveIncident } from "./api/resolve-incident";
import { AffectedComponentsField, PanelHeader, TitleWithComponents, useComponents } from "./panel-parts";
import { type AdminIncident, IMPACT_VARIANT, incidentsResource } from "./status-types";

/** The editor's values: the incident's own fields (its start as typed, in SAST). */
type IncidentValues = Omit<AdminIncident, "id" | "resolved_at">;

const valuesOf = (i?: AdminIncident): IncidentValues => ({
  title: i?.title ?? "",
  body: i?.body ?? "",
  impact: i?.impact ?? "minor",
  status: i?.status ?? "investigating",
  component_keys: i?.component_keys ?? [],
  started_at: toSastInput(i?.started_at),
});

// A blank start on a new incident means now (left out); an existing one keeps its start.
const toBody = ({ started_at, ...v }: IncidentValues) => {
  const start = fromSastInput(started_at);
  return start ? { ...v, started_at: start } : v;
};

export function IncidentsPanel() {
  const incidents = useResourceList<AdminIncident>(incidentsResource);
  const { components, nameOf } = useComponents();
  const { current, edit, create, dialog } = useEditor<AdminIncident>();
  const [resolving, setResolving] = useState<AdminIncident | null>(null);
  const resolve = useResolveIncident();

  const columns: Column<AdminIncident>[] = [
    {
      id: "title",
      header: "Incident",
      card: "title",
      cell: (i) => <TitleWithComponents title={i.title} keys={i.component_keys} nameOf={nameOf} />,
    },
    {
      id: "impact",
      header: "Impact",
      cell: (i) => (
        <Badge variant={IMPACT_VARIANT[i.impact] ?? "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {i.impact}
        </Badge>
      ),
    },
    { id: "status", header: "Status", cell: (i) => <StatusBadge status={i.status} /> },
    {
      id: "started_at",
      header: "Started",
      className: "whitespace-nowrap tabular",
      cell: (i) => (
        <span className="flex flex-col">
          <span>{formatDateTime(i.started_at)}</span>
          {i.resolved_at ? <span className="text-xs text-ink-subtle">Resolved {formatDateTime(i.resolved_at)}</span> : null}
        </span>
      ),
    },
    actionsColumn((i) => (
      <RowActions>
        {i.status !== "resolved" ? (
          <Button size="sm" onClick={() => setResolving(i)} aria-label={`Resolve ${i.title}`}>
            <CheckCircle2 aria-hidden="true" />
            Resolve
          </Button>
        ) : null}
        <Button variant="outline" size="sm" onClick={() => edit(i)} aria-label={`Update ${i.title}`}>
          <Pencil aria-hidden="true" />
          Update
        </Button>
        <DeleteRowButton resource={incidentsResource} id={i.id} name={i.title} />
      </RowActions>
    )),
  ];

  return (
    <section aria-labelledby="status-incidents" className="flex flex-col gap-4">
      <PanelHeader id="status-incidents" title="Incidents" icon={Siren} action="Open incident" onAction={create} />
      <DataTable
        caption="Incidents"
        columns={columns}
        {...listQueryProps(incidents)}
        rowKey={(i) => i.id}
        pageSize={10}
        onRowClick={edit}
        rowLabel={(i) => `Open ${i.title}`}
        emptyMessage="No incidents. When something breaks, open one so clients see you're on it."
      />
      <ConfirmDialog
        open={resolving !== null}
        onOpenChange={(open) => !open && setResolving(null)}
        title="Resolve this incident?"
        description={resolving ? `"${resolving.title}" is marked resolved now, and the status page says so.` : ""}
        confirmLabel="Resolve"
        pendingLabel="Resolving..."
        pending={resolve.isPending}
        onConfirm={() =>
          resolving &&
          resolve.mutate(resolving.id, {
            onSuccess: () => {
              toast.success("Incident resolved", { description: `"${resolving.title}" is resolved.` });
              setResolving(null);
            },
            onError: (error) => toast.error("Not resolved", { description: error.message }),
          })
        }
      />
      <EditorDialog
        resource={incidentsResource}
        {...dialog}
        title={current ? "Update incident" : "Open an incident"}
        description="Shown on the public status page. Times are South African time (SAST)."
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={incidentInputSchema}
        patchSchema={incidentPatchSchema}
        saved={(v) => `"${v.title}" is ${humanise(v.status).toLowerCase()}.`}
        fields={(v, set, errors) => (
          <>
            <Field label="Title" required error={errors.title}>
              {(control) => (
                <Input
                  {...control}
                  value={v.title}
                  onChange={(e) => set("title", e.target.value)}
                  placeholder="Streams buffering on fibre"
                />
              )}
            </Field>
            <Field label="Details" error={errors.body} hint="What clients see: what's affected and what you're doing.">
              {(control) => <Textarea {...control} value={v.body} onChange={(e) => set("body", e.target.value)} rows={4} />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Impact" error={errors.impact}>
                {(control) => (
                  <Select {...control} value={v.impact} onChange={(e) => set("impact", e.target.value)}>
                    {INCIDENT_IMPACTS.map((s) => (
                      <option key={s} value={s}>
                        {humanise(s)}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Status" error={errors.status}>
                {(control) => (
                  <Select {...control} value={v.status} onChange={(e) => set("status", e.target.value)}>
                    {INCIDENT_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {humanise(s)}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Started (SAST)" error={errors.started_at} hint={current ? undefined : "Blank: now."}>
                {(control) => (
                  <Input {...control} type="datetime-local" value={v.started_at} onChange={(e) => set("started_at", e.target.value)} />
                )}
              </Field>
            </div>
            <AffectedComponentsField components={components} values={v} set={set} errors={errors} />
          </>
        )}
      />
    </section>
  );
}
