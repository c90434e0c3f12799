// The status page's components: current status, message, last check, the 90-day history strip,
// the maintenance switch, and add / edit / delete.
import { Pencil, Plus, Wrench } from "lucide-react";
import { componentInputSchema, componentPatchSchema } from "@/shared/admin-schemas";
import type { StatusDay } from "@/shared/api";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Textarea } from "@/web/components/ui/textarea";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { Field } from "../../components/form-field";
import { formatDate, formatDateTime, humanise } from "../../components/format";
import { useResourceList } from "../api/get-resource-list";
import { useSaveResource } from "../api/save-resource";
import { DeleteRowButton } from "../components/delete-row";
import { EditorDialog, useEditor } from "../components/editor-dialog";
import { CheckField, SortOrderField, sortOrderOf } from "../components/fields";
import { useStatusHistory } from "./api/get-status-history";
import { PanelHeader } from "./panel-parts";
import { type AdminComponent, COMPONENT_STATUS_VARIANT, componentsResource, DAY_COLOUR } from "./status-types";

interface ComponentValues {
  key: string;
  name: string;
  description: string;
  message: string;
  maintenance: boolean;
  sort_order: string;
}

const valuesOf = (c?: AdminComponent): ComponentValues => ({
  key: c?.key ?? "",
  name: c?.name ?? "",
  description: c?.description ?? "",
  message: c?.message ?? "",
  maintenance: c?.maintenance ?? false,
  sort_order: String(c?.sort_order ?? 0),
});

const toBody = (v: ComponentValues) => ({ ...v, sort_order: sortOrderOf(v.sort_order) });

export function ComponentsPanel() {
  const { data, isPending, error, refetch } = useResourceList<AdminComponent>(componentsResource);
  const history = useStatusHistory();
  const { current, edit, create, dialog } = useEditor<AdminComponent>();
  const historyOf = (key: string) => history.data?.components.find((c) => c.key === key)?.history;

  return (
    <section aria-labelledby="status-components" className="flex flex-col gap-4">
      <PanelHeader id="status-components" title="Components" icon={Plus} action="New component" onAction={create} />
      {error && !data ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-card border border-bad/40 bg-bad/5 px-6 py-8 text-center">
          <p className="text-sm text-ink-muted">The components couldn't load: {error.message}</p>
          <Button variant="outline" size="sm" onClick={() => refetch()}>
            Try Again
          </Button>
        </div>
      ) : isPending ? (
        <div role="status" aria-label="Loading components" className="flex flex-col gap-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-28 w-full" />
          ))}
        </div>
      ) : data.length === 0 ? (
        <p className="rounded-card border border-dashed border-line-strong px-6 py-10 text-center text-ink-muted">
          No components yet. Add what your clients rely on (streams, portal, payments) with New component.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Components">
          {data.map((c) => (
            <ComponentCard key={c.id} component={c} history={historyOf(c.key)} onEdit={() => edit(c)} />
          ))}
        </ul>
      )}
      <EditorDialog
        resource={componentsResource}
        {...dialog}
        title={current ? `Edit ${current.name}` : "New component"}
        description="The monitor sets the status; under maintenance it leaves the component alone."
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={componentInputSchema}
        patchSchema={componentPatchSchema}
        saved={(v) => `${v.name} is saved.`}
        fields={(v, set, errors) => (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Name" required error={errors.name}>
                {(control) => <Input {...control} value={v.name} onChange={(e) => set("name", e.target.value)} />}
              </Field>
              <Field label="Key" required error={errors.key} hint="Lower-case letters, digits, _ and -.">
                {(control) => (
                  <Input {...control} value={v.key} onChange={(e) => set("key", e.target.value)} autoCapitalize="none" spellCheck={false} />
                )}
              </Field>
            </div>
            <Field label="Description" error={errors.description}>
              {(control) => <Input {...control} value={v.description} onChange={(e) => set("description", e.target.value)} />}
            </Field>
            <Field label="Message" error={errors.message} hint="Shown beside the status on the public status page.">
              {(control) => <Textarea {...control} value={v.message} onChange={(e) => set("message", e.target.value)} rows={2} />}
            </Field>
            <div className="grid items-end gap-4 sm:grid-cols-2">
              <SortOrderField value={v.sort_order} onChange={(value) => set("sort_order", value)} error={errors.sort_order} />
              <CheckField label="Under maintenance" checked={v.maintenance} onChange={(c) => set("maintenance", c)} />
            </div>
          </>
        )}
      />
    </section>
  );
}

function ComponentCard({ component: c, history, onEdit }: { component: AdminComponent; history?: StatusDay[]; onEdit: () => void }) {
  const save = useSaveResource<AdminComponent>(componentsResource);
  const toggleMaintenance = () =>
    save.mutate(
      { id: c.id, body: { maintenance: !c.maintenance } },
      {
        onSuccess: () =>
          toast.success(c.maintenance ? "Maintenance ended" : "Maintenance started", {
            description: c.maintenance ? `${c.name} is back under the monitor.` : `${c.name} shows as under maintenance.`,
          }),
        onError: (error) => toast.error("Not changed", { description: error.message }),
      },
    );
  return (
    <li className="flex flex-col gap-3 rounded-card border border-line bg-surface p-4" data-testid="status-component">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
            {c.name}
            <Badge variant={COMPONENT_STATUS_VARIANT[c.status] ?? "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
              {humanise(c.status)}
            </Badge>
          </p>
          {c.message || c.description ? <p className="text-sm text-ink-muted">{c.message || c.description}</p> : null}
          <p className="text-xs text-ink-subtle">
            {c.last_checked_at ? `Last checked ${formatDateTime(c.last_checked_at)}` : "Not checked yet"} ·{" "}
            <span className="font-mono">{c.key}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant={c.maintenance ? "primary" : "outline"} size="sm" onClick={toggleMaintenance} disabled={save.isPending}>
            <Wrench aria-hidden="true" />
            {c.maintenance ? "End maintenance" : "Set maintenance"}
          </Button>
          <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${c.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <DeleteRowButton resource={componentsResource} id={c.id} name={c.name} />
        </div>
      </div>
      {history?.length ? <HistoryStrip name={c.name} days={history} /> : null}
    </li>
  );
}

/** The last 90 days, one bar each: the worst status seen that day (grey when nothing was checked). */
function HistoryStrip({ name, days }: { name: string; days: StatusDay[] }) {
  const checked = days.filter((d) => d.uptime !== null);
  const uptime = checked.length ? checked.reduce((sum, d) => sum + (d.uptime ?? 0), 0) / checked.length : null;
  return (
    <figure className="flex flex-col gap-1.5">
      <div className="flex h-7 items-stretch gap-px" role="img" aria-label={`${name}: ${days.length}-day history`}>
        {days.map((d) => (
          <span
            key={d.date}
            title={`${formatDate(`${d.date}T12:00:00+02:00`)}: ${d.status ? humanise(d.status) : "no data"}`}
            className={cn("min-w-0 flex-1 rounded-[2px]", d.status ? DAY_COLOUR[d.status] : "bg-surface-overlay")}
          />
        ))}
      </div>
      <figcaption className="flex justify-between text-xs text-ink-subtle">
        <span>{days.length} days ago</span>
        <span className="tabular">{uptime === null ? "No checks yet" : `${(uptime * 100).toFixed(2)}% operational`}</span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}
