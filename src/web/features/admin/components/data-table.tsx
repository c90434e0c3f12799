// The dashboard's data table, shared by every admin list (leads, clients, payments, and the
// catalogue and operations sections). It draws a toolbar (debounced search, the caller's
// filters, extra actions, 'Export CSV'), a sortable table on wide screens and one card per row
// on phones, a loading skeleton, an empty state and a pager.
//
// Two ways to feed it:
//  - server-side: pass `total` (how many rows match in all) and give it one page of rows that
//    the server already sorted and paged with the `sort` and `page` you hold;
//  - in the browser: leave `total` out and pass every row; the table sorts by each column's
//    `sortValue` and pages by itself.
// In both cases you own the state (sort, page, search, filters): `useTableParams` keeps it in
// the URL and hands back the API query and the export query, which share the filters.
//
// Example:
//   const table = useTableParams({ filters: ["status"], defaultSort: { id: "created_at", dir: "desc" } });
//   const leads = useLeads(table.query);
//   <DataTable caption="Leads" columns={columns} {...pageQueryProps(leads)} rowKey={(l) => l.id}
//     onRowClick={open} {...tableStateProps(table)}
//     exportHref={`/api/admin/export/leads.csv?${table.exportQuery}`} filters={<StatusFilter />} />
import { ArrowDown, ArrowUp, ArrowUpDown, Inbox, X } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { LoadingRows, Pager } from "./data-table-pager";
import { CardSort, fromInnerControl, RowButton, RowCard, textOf } from "./data-table-rows";
import { sortRows } from "./data-table-sort";
import { Toolbar } from "./data-table-toolbar";
import { useMediaQuery } from "./use-media-query";
import type { TableParams } from "./use-table-params";

export type SortDirection = "asc" | "desc";

export interface SortState {
  /** a column id; sent to the server as ?sort= */
  id: string;
  dir: SortDirection;
}

export interface Column<T> {
  /** unique; the sort key sent to the server for sortable columns */
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** the column can be sorted (by the server, or here by `sortValue`) */
  sortable?: boolean;
  /** the phone's sort choices for this column, ascending then descending (default 'A to Z', 'Z to A') */
  sortLabels?: [string, string];
  /** what in-browser sorting compares (defaults to the row's field named `id`) */
  sortValue?: (row: T) => string | number | boolean | null | undefined;
  /** classes of the column's cells, e.g. "text-right tabular" */
  className?: string;
  /** on phone cards: 'title' is the card's heading, 'footer' sits across the card's foot without a label (actions), 'hidden' leaves the column out */
  card?: "title" | "footer" | "hidden";
}

export interface DataTableProps<T> {
  /** names the table for assistive technology (and the phone list) */
  caption: string;
  columns: Column<T>[];
  /** undefined while loading */
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  /** a load failure; shown in place of the rows with a retry */
  error?: Error | null;
  onRetry?: () => void;
  /** rows matching in all: the rows given are one page, already sorted by the server */
  total?: number;
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  /** 1-based */
  page?: number;
  pageSize?: number;
  onPageChange?: (page: number) => void;
  /** the current search (shown in the search box; typing reports it debounced) */
  search?: string;
  onSearchChange?: (value: string) => void;
  searchPlaceholder?: string;
  /** ms of quiet typing before onSearchChange runs */
  searchDebounceMs?: number;
  /** the filters bar's controls (selects, date inputs); folded behind a 'Filters' button on phones */
  filters?: ReactNode;
  /** how many filters are set (shown on the phone's 'Filters' button, and unfolds them) */
  activeFilters?: number;
  /** more toolbar buttons, e.g. 'New client' */
  actions?: ReactNode;
  /** the CSV export of exactly this filtered list; shows 'Export CSV' */
  exportHref?: string;
  onRowClick?: (row: T) => void;
  /** the accessible name of a row's open button (defaults to the title column's text) */
  rowLabel?: (row: T) => string;
  /** what to say when nothing matches */
  emptyMessage?: ReactNode;
  /** offered in the empty state when the list is filtered */
  onClearFilters?: () => void;
  isFiltered?: boolean;
}

/** The column of a row's action buttons: headed 'Actions', across the foot of its phone card. */
export function actionsColumn<T>(cell: (row: T) => ReactNode, className?: string): Column<T> {
  return { id: "actions", header: "Actions", card: "footer", className, cell };
}

/** The state half of the props, from useTableParams. Leave sort and page handlers out to let the table keep them itself. */
export function tableStateProps(table: TableParams) {
  return {
    sort: table.sort,
    onSortChange: table.setSort,
    page: table.page,
    pageSize: table.pageSize,
    onPageChange: table.setPage,
    search: table.search,
    onSearchChange: table.setSearch,
    onClearFilters: table.clearFilters,
    isFiltered: table.isFiltered,
    activeFilters: Object.values(table.filters).filter(Boolean).length,
  } satisfies Partial<DataTableProps<unknown>>;
}

/** What the table needs of a read (react-query's result): its data, the first load, a failure and a retry. */
export interface TableQuery<D> {
  data?: D;
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** The rows half of the props, from a whole list's query: the rows, loading while they first load, the failure and a retry. */
export function listQueryProps<T>(query: TableQuery<T[]>) {
  return { rows: query.data, loading: query.isPending, error: query.error, onRetry: () => void query.refetch() };
}

/** The same from a server-paged list's query (`{data, total}`): one page of rows and how many match in all. */
export function pageQueryProps<T>(query: TableQuery<{ data: T[]; total: number }>) {
  return { ...listQueryProps({ ...query, data: query.data?.data }), total: query.data?.total };
}

export function DataTable<T>(props: DataTableProps<T>) {
  const {
    caption,
    columns,
    rows,
    rowKey,
    loading,
    error,
    onRetry,
    total,
    pageSize = 25,
    onRowClick,
    rowLabel,
    emptyMessage = "Nothing here yet.",
    onClearFilters,
    isFiltered,
  } = props;
  // Without handlers the table keeps its own sort and page (in-browser lists).
  const [ownSort, setOwnSort] = useState<SortState | null>(props.sort ?? null);
  const [ownPage, setOwnPage] = useState(props.page ?? 1);
  const sort = props.onSortChange ? props.sort : ownSort;
  const onSortChange = props.onSortChange ?? setOwnSort;
  const page = props.onPageChange ? (props.page ?? 1) : ownPage;
  const onPageChange = props.onPageChange ?? setOwnPage;
  const wide = useMediaQuery("(min-width: 768px)");
  const serverSide = total !== undefined;

  const all = rows ?? [];
  const sorted = serverSide ? all : sortRows(all, columns, sort);
  const count = serverSide ? total : sorted.length;
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const current = Math.min(page, pages);
  const shown = serverSide ? sorted : sorted.slice((current - 1) * pageSize, current * pageSize);
  const showSkeleton = loading && !rows;

  const titleColumn = columns.find((c) => c.card === "title") ?? columns[0];
  const labelOf = (row: T) => rowLabel?.(row) ?? `Open ${titleColumn ? textOf(titleColumn.cell(row)) : "row"}`;

  const toggleSort = (column: Column<T>) => {
    if (!onSortChange) return;
    const dir: SortDirection = sort?.id === column.id ? (sort.dir === "asc" ? "desc" : "asc") : "asc";
    onSortChange({ id: column.id, dir });
  };

  return (
    <section aria-label={caption} className="flex flex-col gap-4">
      <Toolbar {...props} wide={wide} />
      {error && !rows ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-card border border-bad/40 bg-bad/5 px-6 py-10 text-center">
          <p className="font-medium text-ink">This list couldn't load.</p>
          <p className="text-sm text-ink-muted">{error.message}</p>
          {onRetry ? (
            <Button variant="outline" size="sm" onClick={onRetry}>
              Try Again
            </Button>
          ) : null}
        </div>
      ) : showSkeleton ? (
        <LoadingRows wide={wide} columns={columns.length} />
      ) : shown.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-card border border-dashed border-line-strong px-6 py-12 text-center">
          <Inbox aria-hidden="true" className="size-8 text-ink-subtle" />
          <p className="font-medium text-ink" data-testid="table-empty">
            {isFiltered ? "Nothing matches these filters." : emptyMessage}
          </p>
          {isFiltered && onClearFilters ? (
            <Button variant="ghost" size="sm" onClick={onClearFilters}>
              <X aria-hidden="true" />
              Clear filters
            </Button>
          ) : null}
        </div>
      ) : wide ? (
        <div className="overflow-x-auto rounded-card border border-line bg-surface">
          <table className="w-full border-collapse text-left text-sm" aria-busy={loading || undefined}>
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr className="border-b border-line bg-surface-raised/60">
                {columns.map((column) => {
                  const active = sort?.id === column.id;
                  const ariaSort = active ? (sort?.dir === "asc" ? "ascending" : "descending") : undefined;
                  return (
                    <th
                      key={column.id}
                      scope="col"
                      aria-sort={column.sortable ? (ariaSort ?? "none") : undefined}
                      className={cn(
                        "px-4 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-ink-subtle uppercase",
                        column.className,
                      )}
                    >
                      {column.sortable ? (
                        <button
                          type="button"
                          onClick={() => toggleSort(column)}
                          className={cn(
                            "-mx-2 inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 uppercase hover:text-ink",
                            active && "text-ink",
                          )}
                        >
                          {column.header}
                          {active ? (
                            sort?.dir === "asc" ? (
                              <ArrowUp aria-hidden="true" className="size-3.5" />
                            ) : (
                              <ArrowDown aria-hidden="true" className="size-3.5" />
                            )
                          ) : (
                            <ArrowUpDown aria-hidden="true" className="size-3.5 opacity-50" />
                          )}
                        </button>
                      ) : (
                        column.header
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr
                  key={rowKey(row)}
                  data-row-key={rowKey(row)}
                  onClick={onRowClick ? (event) => !fromInnerControl(event) && onRowClick(row) : undefined}
                  className={cn("border-b border-line last:border-0", onRowClick && "cursor-pointer hover:bg-surface-raised/70")}
                >
                  {columns.map((column, index) => (
                    <td key={column.id} className={cn("px-4 py-3 align-middle text-ink", column.className)}>
                      {index === 0 && onRowClick ? (
                        <RowButton label={labelOf(row)} onOpen={() => onRowClick(row)}>
                          {column.cell(row)}
                        </RowButton>
                      ) : (
                        column.cell(row)
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <>
          {columns.some((c) => c.sortable) ? <CardSort columns={columns} sort={sort} onSortChange={onSortChange} /> : null}
          <ul aria-label={caption} className="flex flex-col gap-3" aria-busy={loading || undefined}>
            {shown.map((row) => (
              <RowCard
                key={rowKey(row)}
                row={row}
                rowKey={rowKey}
                columns={columns}
                titleColumn={titleColumn}
                onRowClick={onRowClick}
                label={labelOf(row)}
              />
            ))}
          </ul>
        </>
      )}
      {count > 0 && (pages > 1 || serverSide) ? (
        <Pager page={current} pages={pages} pageSize={pageSize} count={count} onPageChange={onPageChange} />
      ) : null}
    </section>
  );
}
