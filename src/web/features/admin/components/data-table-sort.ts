// In-browser sorting for the data table (data-table.tsx), when the caller passes every row.
import type { Column, SortState } from "./data-table";

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === "") return 1;
  if (b === null || b === undefined || b === "") return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return String(a).localeCompare(String(b), "en-ZA", { numeric: true, sensitivity: "base" });
}

export function sortRows<T>(rows: T[], columns: Column<T>[], sort: SortState | null | undefined): T[] {
  const column = sort ? columns.find((c) => c.id === sort.id) : undefined;
  if (!sort || !column) return rows;
  const value = column.sortValue ?? ((row: T) => (row as Record<string, unknown>)[column.id] as string | number | null);
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    // blanks last whichever way
    if ((va === null || va === undefined || va === "") !== (vb === null || vb === undefined || vb === "")) return compare(va, vb);
    return sign * compare(va, vb);
  });
}
