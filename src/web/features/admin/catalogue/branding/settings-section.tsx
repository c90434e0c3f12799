// /admin/settings: the site settings as labelled forms (EFT bank details, support hours, free trials,
// VAT, the owner's alerts), and every other key in a list to add, edit, switch off or delete.
import { Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { type SettingInput, settingInputSchema, settingPatchSchema } from "@/shared/admin-schemas";
import { OWNER_ALERT_SETTINGS } from "@/shared/owner-alerts";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Textarea } from "@/web/components/ui/textarea";
import { AdminPageHeader } from "../../components/admin-page-header";
import { actionsColumn, type Column, DataTable } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { useAlertsEmail } from "../api/get-alerts-email";
import { useDeleteResource, useResourceList } from "../api/resources";
import { useSaveSetting } from "../api/save-setting";
import type { AdminSetting } from "../api/types";
import { CheckboxField } from "../components/checkbox-field";
import { DeleteAction } from "../components/delete-action";
import { FormDialog, useCatalogueForm } from "../components/form-dialog";
import { RowActions } from "../components/row-actions";
import { KNOWN_SETTING_KEYS, SETTING_GROUPS } from "./setting-groups";
import { SettingsGroupForm } from "./settings-group-form";

export function SettingsSection() {
  const { data, isPending, isFetching, error, refetch } = useResourceList<AdminSetting>("settings");
  const remove = useDeleteResource("settings");
  const [editing, setEditing] = useState<AdminSetting | "new" | null>(null);
  const others = data?.filter((s) => !KNOWN_SETTING_KEYS.has(s.key));
  // An empty alerts e-mail shows the address the owner's mail goes to meanwhile.
  const firstAdmin = useAlertsEmail().data?.first_admin;
  const placeholders: Record<string, string> = firstAdmin
    ? { [OWNER_ALERT_SETTINGS.email]: `Not set: ${firstAdmin}, the first admin's address` }
    : {};

  const columns: Column<AdminSetting>[] = [
    {
      id: "key",
      header: "Key",
      card: "title",
      sortable: true,
      cell: (s) => (
        <span className="flex flex-col">
          <span className="font-mono text-sm">{s.key}</span>
          {s.description ? <span className="text-xs font-normal text-ink-subtle">{s.description}</span> : null}
        </span>
      ),
    },
    { id: "value", header: "Value", cell: (s) => <span className="line-clamp-2 max-w-md break-words">{s.value || "—"}</span> },
    {
      id: "is_active",
      header: "Status",
      sortable: true,
      cell: (s) => (
        <Badge variant={s.is_active ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {s.is_active ? "Active" : "Off"}
        </Badge>
      ),
    },
    actionsColumn(
      (s) => (
        <RowActions>
          <Button variant="ghost" size="sm" onClick={() => setEditing(s)} aria-label={`Edit ${s.key}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <DeleteAction
            what={`the setting ${s.key}`}
            description="Anything that reads it falls back to its default."
            onDelete={() => remove.mutateAsync(s.id)}
          />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <>
      <AdminPageHeader
        title="Site settings"
        description="Bank details, support hours, free trials, grace days, VAT and your alerts. Business details for the legal pages are under Branding."
      />
      <div className="flex flex-col gap-6">
        {data ? (
          SETTING_GROUPS.map((group) => <SettingsGroupForm key={group.id} group={group} settings={data} placeholders={placeholders} />)
        ) : isPending ? (
          <Skeleton className="h-96 w-full" />
        ) : null}
        <section aria-labelledby="other-settings" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 id="other-settings" className="text-lg font-semibold text-ink">
                Other settings
              </h2>
              <p className="text-sm text-ink-muted">Extra keys, e.g. for new features. Keys use lower-case letters, digits, _ and -.</p>
            </div>
            <Button variant="outline" onClick={() => setEditing("new")}>
              <Plus aria-hidden="true" />
              New setting
            </Button>
          </div>
          <DataTable
            caption="Other settings"
            columns={columns}
            rows={others}
            rowKey={(s) => s.id}
            loading={isPending || isFetching}
            error={error}
            onRetry={() => refetch()}
            emptyMessage="No other settings."
          />
        </section>
      </div>
      {editing !== null ? (
        <SettingForm
          key={editing === "new" ? "new" : editing.id}
          setting={editing === "new" ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

function SettingForm({ setting, onDone }: { setting?: AdminSetting; onDone: () => void }) {
  const create = useSaveSetting();
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "settings",
    id: setting?.id,
    initial: {
      key: setting?.key ?? "",
      value: setting?.value ?? "",
      description: setting?.description ?? "",
      is_active: setting?.is_active ?? true,
    },
    schema: setting ? settingPatchSchema : settingInputSchema,
    // POST /api/admin/settings upserts by key
    create: (body) => create.mutateAsync(body as SettingInput),
    success: "Setting saved",
    failure: "Setting not saved",
    onDone,
  });

  return (
    <FormDialog
      form={form}
      title={setting ? `Edit ${setting.key}` : "New setting"}
      description={setting ? undefined : "Saving a key that exists already changes its value."}
    >
      <Field label="Key" required error={errors.key}>
        {(control) => <Input {...control} {...register("key")} className="font-mono" autoCapitalize="none" spellCheck={false} />}
      </Field>
      <Field label="Value" error={errors.value}>
        {(control) => <Textarea {...control} {...register("value")} rows={3} />}
      </Field>
      <Field label="Description" error={errors.description} hint="What it is for, for the next person">
        {(control) => <Input {...control} {...register("description")} />}
      </Field>
      <CheckboxField label="Active (the site reads it)" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
    </FormDialog>
  );
}
