// A catalogue page (packages, specials, apps, banners, testimonials, images): its header with the
// 'New …' button, the table of the resource's rows, and the create/edit form of the row being
// edited ('new' for a new one; the form is made anew for each row).
import { Plus } from "lucide-react";
import { Fragment, type ReactNode } from "react";
import { Button } from "@/web/components/ui/button";
import { AdminPageHeader } from "../../components/admin-page-header";
import { type Column, DataTable, listQueryProps } from "../../components/data-table";

/** The row being edited, 'new' for a new one, null when no form is open. */
export type Editing<T> = T | "new" | null;

export function ResourcePage<T extends { id: string }>({
  title,
  description,
  newLabel,
  caption,
  emptyMessage,
  pageSize,
  list,
  columns,
  editing,
  onEdit,
  form,
}: {
  title: string;
  description: string;
  /** the button that opens a new row's form: 'New package' */
  newLabel: string;
  caption: string;
  emptyMessage: string;
  pageSize?: number;
  /** the resource's rows as useResourceList gives them */
  list: { data?: T[]; isPending: boolean; isFetching: boolean; error: Error | null; refetch: () => unknown };
  columns: Column<T>[];
  editing: Editing<T>;
  onEdit: (next: Editing<T>) => void;
  /** the form of a row (none: a new one); onDone closes it */
  form: (row: T | undefined, onDone: () => void) => ReactNode;
}) {
  return (
    <>
      <AdminPageHeader
        title={title}
        description={description}
        actions={
          <Button onClick={() => onEdit("new")}>
            <Plus aria-hidden="true" />
            {newLabel}
          </Button>
        }
      />
      <DataTable
        caption={caption}
        columns={columns}
        {...listQueryProps(list)}
        rowKey={(row) => row.id}
        loading={list.isPending || list.isFetching}
        pageSize={pageSize}
        emptyMessage={emptyMessage}
      />
      {editing !== null ? (
        <Fragment key={editing === "new" ? "new" : editing.id}>
          {form(editing === "new" ? undefined : editing, () => onEdit(null))}
        </Fragment>
      ) : null}
    </>
  );
}
