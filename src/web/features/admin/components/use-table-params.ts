// A list's search, filters, sort and page, kept in the URL (?q=&status=&sort=&dir=&page=) so a
// filtered list can be linked to (the overview's tiles do), survives a reload and goes back and
// forward with the browser. The same values make the API query and the CSV export's query, so
// the export is exactly the filtered list.
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { SortState } from "./data-table";

export interface TableParamsOptions {
  /** the filter names this list reads from the URL and sends to the API (e.g. status, form_type) */
  filters?: readonly string[];
  /** the sort when the URL names none */
  defaultSort?: SortState | null;
  pageSize?: number;
}

export interface TableParams {
  search: string;
  setSearch: (value: string) => void;
  filters: Record<string, string>;
  setFilter: (name: string, value: string) => void;
  clearFilters: () => void;
  /** whether a search or any filter narrows the list */
  isFiltered: boolean;
  sort: SortState | null;
  setSort: (sort: SortState) => void;
  page: number;
  setPage: (page: number) => void;
  pageSize: number;
  /** q, filters, sort and dir: the CSV export's query string */
  exportQuery: string;
  /** exportQuery plus page and pageSize: the list request's query string */
  query: string;
}

const NO_FILTERS: readonly string[] = [];

export function useTableParams({ filters = NO_FILTERS, defaultSort = null, pageSize = 25 }: TableParamsOptions = {}): TableParams {
  const [searchParams, setSearchParams] = useSearchParams();

  const update = useCallback(
    (changes: Record<string, string | null>, resetPage = true) =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(changes)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          if (resetPage) next.delete("page");
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  return useMemo(() => {
    const search = searchParams.get("q") ?? "";
    const page = Math.max(1, Math.floor(Number(searchParams.get("page"))) || 1);
    const sortId = searchParams.get("sort");
    const sort: SortState | null = sortId ? { id: sortId, dir: searchParams.get("dir") === "asc" ? "asc" : "desc" } : defaultSort;
    const filterValues = Object.fromEntries(filters.map((name) => [name, searchParams.get(name) ?? ""]));

    const api = new URLSearchParams();
    if (search) api.set("q", search);
    for (const [name, value] of Object.entries(filterValues)) if (value) api.set(name, value);
    if (sort) {
      api.set("sort", sort.id);
      api.set("dir", sort.dir);
    }
    const exportQuery = api.toString();
    api.set("page", String(page));
    api.set("pageSize", String(pageSize));

    return {
      search,
      setSearch: (value: string) => update({ q: value.trim() || null }),
      filters: filterValues,
      setFilter: (name: string, value: string) => update({ [name]: value || null }),
      clearFilters: () => update(Object.fromEntries(["q", ...filters].map((name) => [name, null]))),
      isFiltered: Boolean(search) || Object.values(filterValues).some(Boolean),
      sort,
      setSort: (next: SortState) => update({ sort: next.id, dir: next.dir }),
      page,
      setPage: (next: number) => update({ page: next > 1 ? String(next) : null }, false),
      pageSize,
      exportQuery,
      query: api.toString(),
    };
  }, [searchParams, filters, defaultSort, pageSize, update]);
}
