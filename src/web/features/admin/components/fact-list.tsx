// A record's facts as label–value rows (a client's details, a lead's submission, an outbox
// message): the labels in one column, the values beside them.
import type { ReactNode } from "react";

/** `className` places the grid: its column widths, gaps and frame. */
export function FactList({ rows, className }: { rows: [string, ReactNode][]; className: string }) {
  return (
    <dl className={className}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-ink-subtle">{label}</dt>
          <dd className="min-w-0 break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
