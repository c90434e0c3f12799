// /admin/testimonials: what customers said. A testimonial shows on the site once it is both
// approved and published; featured ones come first, then by sort order (lower first).
import { Pencil, Star } from "lucide-react";
import { useState } from "react";
import { testimonialInputSchema, testimonialPatchSchema } from "@/shared/schemas";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { actionsColumn, type Column } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { formatDate } from "../../components/format";
import { useConfirmDemo, useDemoContent } from "../api/demo-content";
import { useDeleteResource, useResourceList, useUpdateResource } from "../api/resources";
import type { AdminTestimonial } from "../api/types";
import { CheckboxField } from "../components/checkbox-field";
import { DeleteAction } from "../components/delete-action";
import { FormDialog, sortOrderBody, useCatalogueForm } from "../components/form-dialog";
import { OrderField, quickSave } from "../components/quick-save";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";

type Flag = "is_approved" | "is_published" | "is_featured";
const FLAG_LABELS: Record<Flag, [on: string, off: string]> = {
  is_approved: ["Approved", "Approve"],
  is_published: ["Published", "Publish"],
  is_featured: ["Featured", "Feature"],
};

function visibility(t: AdminTestimonial, demo: boolean) {
  // A review the demo shop was seeded with is not a customer's: the site leaves it off until kept or replaced.
  if (demo)
    return (
      <Badge variant="warn" className="px-2.5 py-0.5 text-[0.7rem]">
        Demo: not on your site
      </Badge>
    );
  if (t.is_approved && t.is_published)
    return (
      <Badge variant="ok" className="px-2.5 py-0.5 text-[0.7rem]">
        On the site
      </Badge>
    );
  return (
    <Badge variant="warn" className="px-2.5 py-0.5 text-[0.7rem]">
      {t.is_approved ? "Not published" : "Awaiting approval"}
    </Badge>
  );
}

export function TestimonialsSection() {
  const list = useResourceList<AdminTestimonial>("testimonials");
  const update = useUpdateResource<AdminTestimonial>("testimonials");
  const remove = useDeleteResource("testimonials");
  const [editing, setEditing] = useState<Editing<AdminTestimonial>>(null);
  const demo = new Set(useDemoContent().data?.testimonials ?? []);
  const confirm = useConfirmDemo();
  const keep = (t: AdminTestimonial) =>
    quickSave(
      () => confirm.mutateAsync(`testimonial:${t.id}`),
      { title: "Kept as a real review", description: `${t.client_name}'s review shows on your site when approved and published.` },
      "Review not kept",
    );

  const toggle = (t: AdminTestimonial, flag: Flag) => {
    const next = !t[flag];
    const what = FLAG_LABELS[flag][0].toLowerCase();
    return quickSave(
      () => update.mutateAsync({ id: t.id, patch: { [flag]: next } }),
      { title: "Testimonial saved", description: `${t.client_name}: ${next ? what : `no longer ${what}`}.` },
      "Testimonial not saved",
    );
  };

  const columns: Column<AdminTestimonial>[] = [
    {
      id: "client_name",
      header: "From",
      card: "title",
      sortable: true,
      cell: (t) => (
        <span className="flex flex-col">
          <span>{t.client_name}</span>
          <span className="text-xs font-normal text-ink-subtle">{[t.location, formatDate(t.created_at)].filter(Boolean).join(" · ")}</span>
        </span>
      ),
    },
    { id: "content", header: "Says", cell: (t) => <span className="line-clamp-3 max-w-md text-left">{t.content}</span> },
    {
      id: "rating",
      header: "Rating",
      sortable: true,
      className: "whitespace-nowrap",
      cell: (t) => (
        <span>
          <span aria-hidden="true">{"★".repeat(t.rating)}</span>
          <span className="sr-only">{t.rating} of 5 stars</span>
        </span>
      ),
    },
    { id: "sort_order", header: "Order", sortable: true, className: "tabular", cell: (t) => t.sort_order },
    {
      id: "status",
      header: "Status",
      cell: (t) => (
        <span className="flex flex-wrap justify-end gap-1 md:justify-start">
          {visibility(t, demo.has(t.id))}
          {t.is_featured ? (
            <Badge variant="accent" className="px-2.5 py-0.5 text-[0.7rem]">
              Featured
            </Badge>
          ) : null}
        </span>
      ),
    },
    actionsColumn(
      (t) => (
        <RowActions>
          {demo.has(t.id) ? (
            <Button variant="outline" size="sm" onClick={() => keep(t)} disabled={confirm.isPending}>
              Keep as real
              <span className="sr-only"> {t.client_name}'s review</span>
            </Button>
          ) : null}
          {(Object.keys(FLAG_LABELS) as Flag[]).map((flag) => (
            <Button key={flag} variant={t[flag] ? "secondary" : "ghost"} size="sm" aria-pressed={t[flag]} onClick={() => toggle(t, flag)}>
              {flag === "is_featured" ? <Star aria-hidden="true" className={t[flag] ? "fill-current" : undefined} /> : null}
              {/* the name is the text shown, then whose (WCAG 2.5.3, label in name) */}
              {t[flag] ? FLAG_LABELS[flag][0] : FLAG_LABELS[flag][1]}
              <span className="sr-only"> {t.client_name}'s testimonial</span>
            </Button>
          ))}
          <Button variant="ghost" size="sm" onClick={() => setEditing(t)} aria-label={`Edit ${t.client_name}'s testimonial`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <DeleteAction what={`${t.client_name}'s testimonial`} onDelete={() => remove.mutateAsync(t.id)} />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <ResourcePage
      title="Testimonials"
      description="Shown on the site once approved and published. Featured ones come first, then by order. Reviews marked demo came with the demo shop: they stay off your site until you edit them or keep them as real."
      newLabel="New testimonial"
      caption="Testimonials"
      emptyMessage="No testimonials yet."
      list={list}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(testimonial, onDone) => <TestimonialForm testimonial={testimonial} onDone={onDone} />}
    />
  );
}

function TestimonialForm({ testimonial: t, onDone }: { testimonial?: AdminTestimonial; onDone: () => void }) {
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "testimonials",
    id: t?.id,
    initial: {
      client_name: t?.client_name ?? "",
      location: t?.location ?? "",
      content: t?.content ?? "",
      rating: t?.rating ?? 5,
      sort_order: String(t?.sort_order ?? 0),
      is_approved: t?.is_approved ?? true,
      is_published: t?.is_published ?? false,
      is_featured: t?.is_featured ?? false,
    },
    schema: t ? testimonialPatchSchema : testimonialInputSchema,
    toBody: sortOrderBody,
    success: t ? "Testimonial saved" : "Testimonial created",
    failure: t ? "Testimonial not saved" : "Testimonial not created",
    onDone,
  });

  return (
    <FormDialog
      form={form}
      title={t ? `Edit ${t.client_name}'s testimonial` : "New testimonial"}
      description="Only publish what the customer agreed to share."
      submitLabel={t ? "Save changes" : "Create testimonial"}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Client name" required error={errors.client_name}>
          {(control) => <Input {...control} {...register("client_name")} />}
        </Field>
        <Field label="Location" error={errors.location} hint="e.g. Soweto">
          {(control) => <Input {...control} {...register("location")} />}
        </Field>
      </div>
      <Field label="Testimonial" required error={errors.content}>
        {(control) => <Textarea {...control} {...register("content")} rows={4} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Rating" error={errors.rating}>
          {(control) => (
            <Select {...control} value={String(values.rating)} onChange={(e) => set("rating")(Number(e.target.value))}>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {n} {n === 1 ? "star" : "stars"}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <OrderField error={errors.sort_order} registration={register("sort_order")} />
      </div>
      <div className="grid gap-1 sm:grid-cols-3">
        <CheckboxField label="Approved" checked={values.is_approved} onChange={set("is_approved")} error={errors.is_approved} />
        <CheckboxField label="Published" checked={values.is_published} onChange={set("is_published")} error={errors.is_published} />
        <CheckboxField label="Featured" checked={values.is_featured} onChange={set("is_featured")} error={errors.is_featured} />
      </div>
    </FormDialog>
  );
}
