// The data table's rows (data-table.tsx): the row's open button, the phone's card per row and
// the phone's sort select above the cards.
import { type MouseEvent, type ReactNode, useId } from "react";
import { cn } from "@/web/lib/cn";
import type { Column, SortState } from "./data-table";

/** Clicks on a row's own controls (links, buttons, selects) do not open the row. */
export function fromInnerControl(event: MouseEvent): boolean {
  const target = event.target as HTMLElement | null;
  const control = target?.closest("a, button, input, select, textarea, label, [role='menuitem'], [data-row-ignore]");
  return Boolean(control && control !== event.currentTarget && event.currentTarget.contains(control));
}

/** The plain text of a cell, for labels (strings and numbers inside elements). */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join(" ").trim();
  if (typeof node === "object" && "props" in node) return textOf((node.props as { children?: ReactNode }).children);
  return "";
}

/**
 * The row's way in. Its name is `label` ("Open <the row's title>"), which must contain the title
 * as shown, so speech-input users can say what they see (WCAG 2.5.3). The cell's other lines (a
 * slug, a badge) are the same facts the row's other cells and its details give, so they are not
 * read again as part of the button's name: no aria-label over visible text that it lacks.
 */
export function RowButton({ label, onOpen, children }: { label: string; onOpen: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
      className="-mx-1 min-h-11 rounded-lg px-1 text-left font-medium text-ink hover:text-accent-ink"
    >
      <span className="sr-only">{label}</span>
      <span aria-hidden="true" className="contents">
        {children}
      </span>
    </button>
  );
}

export function RowCard<T>({
  row,
  rowKey,
  columns,
  titleColumn,
  onRowClick,
  label,
}: {
  row: T;
  rowKey: (row: T) => string;
  columns: Column<T>[];
  titleColumn: Column<T> | undefined;
  onRowClick?: (row: T) => void;
  label: string;
}) {
  const rest = columns.filter((c) => c !== titleColumn && c.card !== "hidden" && c.card !== "footer");
  const footer = columns.filter((c) => c !== titleColumn && c.card === "footer");
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the card's title is a button, the keyboard way in; the card click is a larger target for fingers
    <li
      data-row-key={rowKey(row)}
      onClick={onRowClick ? (event) => !fromInnerControl(event) && onRowClick(row) : undefined}
      className={cn("rounded-card border border-line bg-surface p-4", onRowClick && "cursor-pointer active:bg-surface-raised")}
    >
      {titleColumn ? (
        <div className="mb-3 text-base font-semibold text-ink">
          {onRowClick ? (
            <RowButton label={label} onOpen={() => onRowClick(row)}>
              {titleColumn.cell(row)}
            </RowButton>
          ) : (
            titleColumn.cell(row)
          )}
        </div>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
        {rest.map((column) => (
          <div key={column.id} className="contents">
            <dt className="text-ink-subtle">{column.header}</dt>
            <dd className={cn("min-w-0 text-right break-words text-ink", column.className?.includes("tabular") && "tabular")}>
              {column.cell(row)}
            </dd>
          </div>
        ))}
      </dl>
      {footer.map((column) => {
        const content = column.cell(row);
        return content === null || content === undefined || content === false ? null : (
          <div key={column.id} className="mt-4 border-t border-line pt-4">
            {content}
          </div>
        );
      })}
    </li>
  );
}

/** Phones show cards, not column headers: the sort is a select above them. */
export function CardSort<T>({
  columns,
  sort,
  onSortChange,
}: {
  columns: Column<T>[];
  sort: SortState | null | undefined;
  onSortChange: (sort: SortState) => void;
}) {
  const id = useId();
  const value = sort ? `${sort.id}:${sort.dir}` : "";
  return (
    <div className="flex items-center justify-end gap-2 text-sm">
      <label htmlFor={id} className="text-ink-muted">
        Sort by
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const [columnId, dir] = event.target.value.split(":");
          if (columnId) onSortChange({ id: columnId, dir: dir === "asc" ? "asc" : "desc" });
        }}
        className="min-h-11 rounded-xl border border-line bg-surface-raised px-3 text-sm text-ink"
      >
        {value ? null : <option value="">Default</option>}
        {columns
          .filter((c) => c.sortable)
          .flatMap((c) => {
            const [asc, desc] = c.sortLabels ?? ["A to Z", "Z to A"];
            return [
              <option key={`${c.id}:asc`} value={`${c.id}:asc`}>
                {c.header}: {asc}
              </option>,
              <option key={`${c.id}:desc`} value={`${c.id}:desc`}>
                {c.header}: {desc}
              </option>,
            ];
          })}
      </select>
    </div>
  );
}
