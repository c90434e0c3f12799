// /admin/banners: the notices above the pricing packages. A 'special' banner shows as a popup
// (once per visit), any other type inline; only active ones show.
import { Eye, EyeOff, Pencil } from "lucide-react";
import { useState } from "react";
import { bannerInputSchema, bannerPatchSchema } from "@/shared/schemas";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { actionsColumn, type Column } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { useDeleteResource, useResourceList, useUpdateResource } from "../api/resources";
import type { AdminBanner } from "../api/types";
import { CheckboxField } from "../components/checkbox-field";
import { DeleteAction } from "../components/delete-action";
import { FormDialog, sortOrderBody, useCatalogueForm } from "../components/form-dialog";
import { OrderField, quickSave } from "../components/quick-save";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";

const BANNER_TYPES = [
  { value: "info", label: "Inline banner (info)" },
  { value: "special", label: "Popup (special offer)" },
];

const typeLabel = (type: string) => (type === "special" ? "Popup" : "Inline");

export function BannersSection() {
  const list = useResourceList<AdminBanner>("banners");
  const update = useUpdateResource<AdminBanner>("banners");
  const remove = useDeleteResource("banners");
  const [editing, setEditing] = useState<Editing<AdminBanner>>(null);

  const toggle = (b: AdminBanner) =>
    quickSave(
      () => update.mutateAsync({ id: b.id, patch: { is_active: !b.is_active } }),
      { title: "Banner saved", description: `“${b.title}” is ${b.is_active ? "hidden" : "shown"} on the site.` },
      "Banner not saved",
    );

  const columns: Column<AdminBanner>[] = [
    {
      id: "title",
      header: "Banner",
      card: "title",
      sortable: true,
      cell: (b) => (
        <span className="flex flex-col">
          <span>{b.title}</span>
          {b.content ? <span className="line-clamp-2 max-w-md text-xs font-normal text-ink-subtle">{b.content}</span> : null}
        </span>
      ),
    },
    {
      id: "banner_type",
      header: "Shows as",
      sortable: true,
      cell: (b) => (
        <Badge variant={b.banner_type === "special" ? "special" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {typeLabel(b.banner_type)}
        </Badge>
      ),
    },
    { id: "sort_order", header: "Order", sortable: true, className: "tabular", cell: (b) => b.sort_order },
    {
      id: "is_active",
      header: "Status",
      sortable: true,
      cell: (b) => (
        <Badge variant={b.is_active ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {b.is_active ? "Active" : "Hidden"}
        </Badge>
      ),
    },
    actionsColumn(
      (b) => (
        <RowActions>
          <Button variant="ghost" size="sm" onClick={() => setEditing(b)} aria-label={`Edit ${b.title}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => toggle(b)}>
            {b.is_active ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {b.is_active ? "Hide" : "Show"}
          </Button>
          <DeleteAction what={`the banner “${b.title}”`} onDelete={() => remove.mutateAsync(b.id)} />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <ResourcePage
      title="Banners"
      description="Messages on the pricing section. A popup banner shows once per visit; inline banners sit above the packages."
      newLabel="New banner"
      caption="Banners"
      emptyMessage="No banners yet."
      list={list}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(banner, onDone) => <BannerForm banner={banner} onDone={onDone} />}
    />
  );
}

function BannerForm({ banner, onDone }: { banner?: AdminBanner; onDone: () => void }) {
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "banners",
    id: banner?.id,
    initial: {
      title: banner?.title ?? "",
      content: banner?.content ?? "",
      banner_type: banner?.banner_type ?? "info",
      sort_order: String(banner?.sort_order ?? 0),
      is_active: banner?.is_active ?? true,
    },
    schema: banner ? bannerPatchSchema : bannerInputSchema,
    toBody: sortOrderBody,
    success: banner ? "Banner saved" : "Banner created",
    failure: banner ? "Banner not saved" : "Banner not created",
    onDone,
  });
  const knownType = BANNER_TYPES.some((t) => t.value === values.banner_type);

  return (
    <FormDialog form={form} title={banner ? "Edit banner" : "New banner"} submitLabel={banner ? "Save changes" : "Create banner"}>
      <Field label="Title" required error={errors.title}>
        {(control) => <Input {...control} {...register("title")} />}
      </Field>
      <Field label="Content" error={errors.content}>
        {(control) => <Textarea {...control} {...register("content")} rows={3} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Shows as" error={errors.banner_type} hint="Popup: type 'special'. Anything else shows inline.">
          {(control) => (
            <Select {...control} value={values.banner_type} onChange={(e) => set("banner_type")(e.target.value)}>
              {BANNER_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
              {knownType ? null : <option value={values.banner_type}>Inline ({values.banner_type})</option>}
            </Select>
          )}
        </Field>
        <OrderField error={errors.sort_order} registration={register("sort_order")} />
      </div>
      <CheckboxField label="Active (shown on the site)" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
    </FormDialog>
  );
}
