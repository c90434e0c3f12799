// The data table's pager and its loading skeleton (data-table.tsx).
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";

export function LoadingRows({ wide, columns }: { wide: boolean; columns: number }) {
  return (
    <div
      role="status"
      aria-live="polite"
      aria-busy="true"
      className="overflow-hidden rounded-card border border-line bg-surface"
      data-testid="table-loading"
    >
      <span className="sr-only">Loading...</span>
      {wide ? <Skeleton className="h-11 w-full rounded-none" /> : null}
      {[0, 1, 2, 3, 4].map((i) => (
        <div
          key={i}
          className="grid gap-4 border-t border-line p-4 first:border-0"
          style={{ gridTemplateColumns: `repeat(${wide ? Math.min(columns, 6) : 2}, minmax(0, 1fr))` }}
        >
          {Array.from({ length: wide ? Math.min(columns, 6) : 2 }, (_, j) => (
            <Skeleton key={j} className={cn("h-4", j % 2 ? "w-2/3" : "w-full")} />
          ))}
        </div>
      ))}
    </div>
  );
}

export function Pager({
  page,
  pages,
  pageSize,
  count,
  onPageChange,
}: {
  page: number;
  pages: number;
  pageSize: number;
  count: number;
  onPageChange?: (page: number) => void;
}) {
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, count);
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
      <p className="tabular" aria-live="polite">
        {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {count.toLocaleString("en-US")}
      </p>
      {pages > 1 ? (
        <div className="flex items-center gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1 || !onPageChange} onClick={() => onPageChange?.(page - 1)}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <span className="tabular px-1">
            Page {page} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={page >= pages || !onPageChange} onClick={() => onPageChange?.(page + 1)}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      ) : null}
    </nav>
  );
}
