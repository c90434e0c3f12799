// /admin/kb: the Help Center's articles (category, summary, body; published or a draft).
import { FilePlus, Pencil } from "lucide-react";
import { kbInputSchema, kbPatchSchema } from "@/shared/admin-schemas";
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
import { CheckField, RowActions, SortOrderField, sortOrderOf } from "../components/fields";
import { opsKeys } from "../operations-keys";

export interface AdminKbArticle {
  id: string;
  slug: string;
  title: string;
  category: string;
  summary: string;
  body: string;
  is_published: boolean;
  sort_order: number;
  updated_at: string;
}

export const kbResource: AdminResource = { path: "kb", key: opsKeys.kb, label: "Article" };

interface KbValues {
  title: string;
  slug: string;
  category: string;
  summary: string;
  body: string;
  is_published: boolean;
  sort_order: string;
}

const valuesOf = (a?: AdminKbArticle): KbValues => ({
  title: a?.title ?? "",
  slug: a?.slug ?? "",
  category: a?.category ?? "General",
  summary: a?.summary ?? "",
  body: a?.body ?? "",
  is_published: a?.is_published ?? true,
  sort_order: String(a?.sort_order ?? 0),
});

const toBody = (v: KbValues) => ({
  ...v,
  // blank: the server makes one from the title
  slug: v.slug.trim() || null,
  sort_order: sortOrderOf(v.sort_order),
});

export function KbSection() {
  const articles = useResourceList<AdminKbArticle>(kbResource);
  const { current, edit, create, dialog } = useEditor<AdminKbArticle>();
  const categories = [...new Set((articles.data ?? []).map((a) => a.category))].sort();

  const columns: Column<AdminKbArticle>[] = [
    {
      id: "title",
      header: "Article",
      card: "title",
      sortable: true,
      cell: (a) => (
        <span className="flex flex-col">
          <span>{a.title}</span>
          <span className="font-mono text-xs font-normal text-ink-subtle">/knowledge-base/{a.slug}</span>
        </span>
      ),
    },
    { id: "category", header: "Category", sortable: true, cell: (a) => a.category },
    {
      id: "is_published",
      header: "State",
      sortable: true,
      cell: (a) => (
        <Badge variant={a.is_published ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
          {a.is_published ? "Published" : "Draft"}
        </Badge>
      ),
    },
    {
      id: "updated_at",
      header: "Updated",
      sortable: true,
      sortLabels: ["Oldest first", "Newest first"],
      className: "whitespace-nowrap tabular",
      cell: (a) => formatDate(a.updated_at),
    },
    actionsColumn((a) => (
      <RowActions>
        <Button variant="outline" size="sm" onClick={() => edit(a)} aria-label={`Edit ${a.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <DeleteRowButton resource={kbResource} id={a.id} name={a.title} />
      </RowActions>
    )),
  ];

  return (
    <>
      <AdminPageHeader
        title="Knowledge base"
        description="Help Center articles: set-up guides and answers, so clients can help themselves."
        actions={
          <Button onClick={create}>
            <FilePlus aria-hidden="true" />
            New article
          </Button>
        }
      />
      <DataTable
        caption="Articles"
        columns={columns}
        {...listQueryProps(articles)}
        rowKey={(a) => a.id}
        onRowClick={edit}
        rowLabel={(a) => `Open ${a.title}`}
        emptyMessage="No articles yet. Add one with New article."
      />
      <datalist id="kb-categories">
        {categories.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <EditorDialog
        resource={kbResource}
        {...dialog}
        title={current ? "Edit article" : "New article"}
        initial={valuesOf(current)}
        toBody={toBody}
        createSchema={kbInputSchema}
        patchSchema={kbPatchSchema}
        saved={(v) => `"${v.title}" ${v.is_published ? "is in the Help Center" : "is saved as a draft"}.`}
        fields={(v, set, errors) => (
          <>
            <Field label="Title" required error={errors.title}>
              {(control) => <Input {...control} value={v.title} onChange={(e) => set("title", e.target.value)} />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Category" required error={errors.category}>
                {(control) => (
                  <Input {...control} list="kb-categories" value={v.category} onChange={(e) => set("category", e.target.value)} />
                )}
              </Field>
              <Field label="Slug" error={errors.slug} hint="The address. Blank: made from the title.">
                {(control) => (
                  <Input
                    {...control}
                    value={v.slug}
                    onChange={(e) => set("slug", e.target.value)}
                    autoCapitalize="none"
                    spellCheck={false}
                    placeholder="getting-started"
                  />
                )}
              </Field>
            </div>
            <Field label="Summary" error={errors.summary} hint="One line shown in the article list and search.">
              {(control) => <Input {...control} value={v.summary} onChange={(e) => set("summary", e.target.value)} />}
            </Field>
            <Field label="Article text" required error={errors.body}>
              {(control) => <Textarea {...control} value={v.body} onChange={(e) => set("body", e.target.value)} rows={10} />}
            </Field>
            <div className="grid items-end gap-4 sm:grid-cols-2">
              <SortOrderField
                value={v.sort_order}
                onChange={(value) => set("sort_order", value)}
                error={errors.sort_order}
                hint="Lower numbers come first in their category."
              />
              <CheckField label="Published" checked={v.is_published} onChange={(c) => set("is_published", c)} />
            </div>
          </>
        )}
      />
    </>
  );
}
