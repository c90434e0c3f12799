// /admin/releases: the release notes shown at /releases (version, title, notes, date).
import { Pencil, Rocket } from "lucide-react";
import { releaseInputSchema, releasePatchSchema } from "@/shared/admin-schemas";
import { saDay } from "@/shared/dates";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { AdminPageHeader } from "../../components/admin-page-header";
import { actionsColumn, type Column, DataTable, listQueryProps } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { formatDate } from "../../components/format";
import { useResourceList } from "../api/get-resource-list";
import type { AdminResource } from "../api/resource";
import { DeleteRowButton } from "../components/delete-row";
import { EditorDialog, useEditor } from "../components/editor-dialog";
import { CheckField, RowActions } from "../components/fields";
import { opsKeys } from "../operations-keys";

export interface AdminRelease {
  id: string;
  version: string;
  title: string;
  body: string;
  released_on: string;
  is_published: boolean;
}

export const releasesResource: AdminResource = { path: "releases", key: opsKeys.releases, label: "Release" };

interface ReleaseValues {
  version: string;
  title: string;
  body: string;
  released_on: string;
  is_published: boolean;
}

const valuesOf = (r?: AdminRelease): ReleaseValues => ({
  version: r?.version ?? "",
  title: r?.title ?? "",
  body: r?.body ?? "",
  released_on: r?.released_on ?? saDay(new Date()),
  is_published: r?.is_published ?? true,
});

const toBody = (v: ReleaseValues) => ({ ...v });

export function ReleasesSection() {
  const releases = useResourceList<AdminRelease>(releasesResource);
  const { current, edit, create, dialog } = useEditor<AdminRelease>();

  const columns: Column<AdminRelease>[] = [
    {
      id: "title",
      header: "Release",
      card: "title",
      sortable: true,
      cell: (r) => (
        <span className="flex flex-col">
          <span>{r.title}</span>
          <span className="font-mono text-xs font-normal text-ink-subtle">v{r.version.replace(/^v/i, "")}</span>
        </span>
      ),
    },
    {
      id: "released_on",
      header: "Released",
      sortable: true,
      sortLabels: ["Oldest first", "Newest first"],
      className: "whitespace-nowrap tabular",
      cell: (r) => formatDate(`${r.released_on}T12:00:00+02:00`),
    },
    {
      id: "is_published",
      header: "State",
      sortable: true,
      cell: (r) => (
        <Badge variant={r.is_published ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {r.is_published ? "Published" : "Draft"}
        </Badge>
      ),
    },
    actionsColumn((r) => (
      <RowActions>
        <Button variant="outline" size="sm" onClick={() => edit(r)} aria-label={`Edit ${r.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <DeleteRowButton resource={releasesResource} id={r.id} name={r.title} />
      </RowActions>
    )),
  ];

  return (
    <>
      <AdminPageHeader
        title="Release notes"
        description="What changed in the service and apps, shown on the public Release notes page."
        actions={
          <Button onClick={create}>
            <Rocket aria-hidden="true" />
            New release
          </Button>
        }
      />
      <DataTable
        caption="Releases"
        columns={columns}
        {...listQueryProps(releases)}
        rowKey={(r) => r.id}
        onRowClick={edit}
        rowLabel={(r) => `Open ${r.title}`}
        emptyMessage="No release notes yet. Add one with New release."
      />
      <EditorDialog
        resource={releasesResource}
        {...dialog}
        title={current ? "Edit release" : "New release"}
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={releaseInputSchema}
        patchSchema={releasePatchSchema}
        saved={(v) => `Version ${v.version} ${v.is_published ? "is on the Release notes page" : "is saved as a draft"}.`}
        fields={(v, set, errors) => (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Version" required error={errors.version}>
                {(control) => <Input {...control} value={v.version} onChange={(e) => set("version", e.target.value)} placeholder="2.4.0" />}
              </Field>
              <Field label="Release date" required error={errors.released_on}>
                {(control) => <Input {...control} type="date" value={v.released_on} onChange={(e) => set("released_on", e.target.value)} />}
              </Field>
            </div>
            <Field label="Title" required error={errors.title}>
              {(control) => <Input {...control} value={v.title} onChange={(e) => set("title", e.target.value)} />}
            </Field>
            <Field label="Release notes" error={errors.body}>
              {(control) => <Textarea {...control} value={v.body} onChange={(e) => set("body", e.target.value)} rows={8} />}
            </Field>
            <CheckField label="Published" checked={v.is_published} onChange={(c) => set("is_published", c)} />
          </>
        )}
      />
    </>
  );
}
