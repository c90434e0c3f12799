// The data table's toolbar (data-table.tsx): the debounced search, the caller's filters (folded
// behind 'Filters' on phones), extra actions and 'Export CSV'.
import { Download, Search, SlidersHorizontal } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import type { DataTableProps } from "./data-table";
import { useDebouncedCallback } from "./use-debounced-callback";

export function Toolbar<T>({
  caption,
  search,
  onSearchChange,
  searchPlaceholder,
  searchDebounceMs = 300,
  filters,
  activeFilters = 0,
  actions,
  exportHref,
  wide,
}: DataTableProps<T> & { wide: boolean }) {
  const searchId = useId();
  const filtersId = useId();
  const [text, setText] = useState(search ?? "");
  // Phones keep the filters folded away unless one is in use.
  const [showFilters, setShowFilters] = useState(activeFilters > 0);
  const report = useDebouncedCallback((value: string) => onSearchChange?.(value), searchDebounceMs);
  // Follow outside changes (clearing filters, back and forward) unless the admin is mid-typing.
  useEffect(() => {
    setText((typed) => (typed.trim() === (search ?? "") ? typed : (search ?? "")));
  }, [search]);

  if (!onSearchChange && !filters && !actions && !exportHref) return null;
  const filtersShown = Boolean(filters) && (wide || showFilters);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        {onSearchChange ? (
          <div className="relative w-full min-w-0 sm:w-auto sm:max-w-md sm:flex-1">
            <label htmlFor={searchId} className="sr-only">
              Search {caption.toLowerCase()}
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-ink-subtle" />
            <Input
              id={searchId}
              type="search"
              value={text}
              placeholder={searchPlaceholder ?? "Search"}
              className="pl-11"
              onChange={(event) => {
                setText(event.target.value);
                report(event.target.value);
              }}
              onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
                if (event.key !== "Enter") return;
                report.cancel();
                onSearchChange(text);
              }}
            />
          </div>
        ) : null}
        {filters && !wide ? (
          <Button
            variant="outline"
            size="sm"
            aria-expanded={showFilters}
            aria-controls={filtersId}
            onClick={() => setShowFilters((v) => !v)}
          >
            <SlidersHorizontal aria-hidden="true" />
            Filters{activeFilters ? ` (${activeFilters})` : ""}
          </Button>
        ) : null}
        {actions || exportHref ? (
          <div className="ml-auto flex flex-wrap gap-3">
            {actions}
            {exportHref ? (
              <a href={exportHref} download className={buttonClasses({ variant: "outline", size: "sm" })}>
                <Download aria-hidden="true" />
                Export CSV
              </a>
            ) : null}
          </div>
        ) : null}
      </div>
      {filtersShown ? (
        <div id={filtersId} className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
          {filters}
        </div>
      ) : null}
    </div>
  );
}
