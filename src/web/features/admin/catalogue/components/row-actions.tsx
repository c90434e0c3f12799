import type { ReactNode } from "react";

/** A row's buttons: wrapped on phones (the card's foot), one line on wide screens. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-1 md:flex-nowrap md:justify-end">{children}</div>;
}
