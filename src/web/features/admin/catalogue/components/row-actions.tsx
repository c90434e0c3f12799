import type { ReactNode } from "react";

/** A row's buttons: in the card's foot on phones; right-aligned on wide screens, wrapping rather than pushing the table wider than the page. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-1 md:justify-end">{children}</div>;
}
