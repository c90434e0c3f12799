// /admin/notices: announcements to visitors and clients (title, body, severity, audience and
// the window they show in). Only active notices inside their window reach the public site.
import { Megaphone, Pencil } from "lucide-react";
import { NOTICE_AUDIENCES, NOTICE_SEVERITIES, noticeInputSchema, noticePatchSchema } from "@/shared/schemas";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { AdminPageHeader } from "../../components/admin-page-header";
import { actionsColumn, type Column, DataTable, listQueryProps } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { formatDateTime, humanise } from "../../components/format";
import { useResourceList } from "../api/get-resource-list";
import type { AdminResource } from "../api/resource";
import { DeleteRowButton } from "../components/delete-row";
import { EditorDialog, useEditor } from "../components/editor-dialog";
import { CheckField, fromSastInput, RowActions, toSastInput } from "../components/fields";
import { opsKeys } from "../operations-keys";

export interface AdminNotice {
  id: string;
  title: string;
  body: string;
  severity: string;
  audience: string;
  starts_at: string | null;
  ends_at: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export const noticesResource: AdminResource = { path: "notices", key: opsKeys.notices, label: "Notice" };

const SEVERITY_VARIANT: Record<string, BadgeVariant> = { info: "accent", warning: "warn", critical: "bad" };
const AUDIENCE_LABEL: Record<string, string> = { public: "Website visitors", clients: "Clients only", all: "Everyone" };

/** Whether the notice shows right now: active and inside its window. */
function showingNow(n: AdminNotice, now = Date.now()): boolean {
  if (!n.is_active) return false;
  if (n.starts_at && Date.parse(n.starts_at) > now) return false;
  if (n.ends_at && Date.parse(n.ends_at) <= now) return false;
  return true;
}

function windowText(n: AdminNotice): string {
  if (!n.starts_at && !n.ends_at) return "Always";
  if (!n.ends_at) return `From ${formatDateTime(n.starts_at)}`;
  if (!n.starts_at) return `Until ${formatDateTime(n.ends_at)}`;
  return `${formatDateTime(n.starts_at)} – ${formatDateTime(n.ends_at)}`;
}

interface NoticeValues {
  title: string;
  body: string;
  severity: string;
  audience: string;
  starts_at: string;
  ends_at: string;
  is_active: boolean;
}

const valuesOf = (n?: AdminNotice): NoticeValues => ({
  title: n?.title ?? "",
  body: n?.body ?? "",
  severity: n?.severity ?? "info",
  audience: n?.audience ?? "all",
  starts_at: toSastInput(n?.starts_at),
  ends_at: toSastInput(n?.ends_at),
  is_active: n?.is_active ?? true,
});

const toBody = (v: NoticeValues) => ({ ...v, starts_at: fromSastInput(v.starts_at), ends_at: fromSastInput(v.ends_at) });

export function NoticesSection() {
  const notices = useResourceList<AdminNotice>(noticesResource);
  const { current, edit, create, dialog } = useEditor<AdminNotice>();

  const columns: Column<AdminNotice>[] = [
    {
      id: "title",
      header: "Notice",
      card: "title",
      sortable: true,
      cell: (n) => (
        <span className="flex flex-col">
          <span>{n.title}</span>
          {n.body ? <span className="line-clamp-1 max-w-md text-xs font-normal text-ink-subtle">{n.body}</span> : null}
        </span>
      ),
    },
    {
      id: "severity",
      header: "Severity",
      sortable: true,
      cell: (n) => (
        <Badge variant={SEVERITY_VARIANT[n.severity] ?? "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {n.severity}
        </Badge>
      ),
    },
    { id: "audience", header: "Audience", sortable: true, cell: (n) => AUDIENCE_LABEL[n.audience] ?? humanise(n.audience) },
    { id: "window", header: "Shows", sortValue: (n) => n.starts_at, cell: (n) => <span className="tabular">{windowText(n)}</span> },
    {
      id: "is_active",
      header: "State",
      sortable: true,
      sortValue: (n) => showingNow(n),
      cell: (n) =>
        showingNow(n) ? (
          <Badge variant="ok" className="px-2.5 py-0.5 text-[0.7rem]">
            Showing
          </Badge>
        ) : (
          <Badge className="px-2.5 py-0.5 text-[0.7rem]">{n.is_active ? "Scheduled / ended" : "Off"}</Badge>
        ),
    },
    actionsColumn((n) => (
      <RowActions>
        <Button variant="outline" size="sm" onClick={() => edit(n)} aria-label={`Edit ${n.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <DeleteRowButton resource={noticesResource} id={n.id} name={n.title} />
      </RowActions>
    )),
  ];

  return (
    <>
      <AdminPageHeader
        title="Notices"
        description="Announcements for website visitors and clients: outages, holiday hours, price changes."
        actions={
          <Button onClick={create}>
            <Megaphone aria-hidden="true" />
            New notice
          </Button>
        }
      />
      <DataTable
        caption="Notices"
        columns={columns}
        {...listQueryProps(notices)}
        rowKey={(n) => n.id}
        onRowClick={edit}
        rowLabel={(n) => `Open ${n.title}`}
        emptyMessage="No notices yet. Add one with New notice."
      />
      <EditorDialog
        resource={noticesResource}
        {...dialog}
        title={current ? "Edit notice" : "New notice"}
        description="Times are South African time (SAST). Leave them blank to show the notice until you switch it off."
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={noticeInputSchema}
        patchSchema={noticePatchSchema}
        saved={(v) => `"${v.title}" ${v.is_active ? "is live for its audience" : "is saved but switched off"}.`}
        fields={(v, set, errors) => (
          <>
            <Field label="Title" required error={errors.title}>
              {(control) => <Input {...control} value={v.title} onChange={(e) => set("title", e.target.value)} />}
            </Field>
            <Field label="Message" error={errors.body}>
              {(control) => <Textarea {...control} value={v.body} onChange={(e) => set("body", e.target.value)} rows={4} />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Severity" error={errors.severity}>
                {(control) => (
                  <Select {...control} value={v.severity} onChange={(e) => set("severity", e.target.value)}>
                    {NOTICE_SEVERITIES.map((s) => (
                      <option key={s} value={s}>
                        {humanise(s)}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Audience" error={errors.audience}>
                {(control) => (
                  <Select {...control} value={v.audience} onChange={(e) => set("audience", e.target.value)}>
                    {NOTICE_AUDIENCES.map((a) => (
                      <option key={a} value={a}>
                        {AUDIENCE_LABEL[a]}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Starts (SAST)" error={errors.starts_at} hint="Blank: straight away.">
                {(control) => (
                  <Input {...control} type="datetime-local" value={v.starts_at} onChange={(e) => set("starts_at", e.target.value)} />
                )}
              </Field>
              <Field label="Ends (SAST)" error={errors.ends_at} hint="Blank: until switched off.">
                {(control) => (
                  <Input {...control} type="datetime-local" value={v.ends_at} onChange={(e) => set("ends_at", e.target.value)} />
                )}
              </Field>
            </div>
            <CheckField
              label="Active"
              hint="Switch off to hide it without deleting it."
              checked={v.is_active}
              onChange={(c) => set("is_active", c)}
            />
          </>
        )}
      />
    </>
  );
}
