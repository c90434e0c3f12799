import type { ReactNode } from "react";

/** The top of an admin page: its one h1, a line on what it is for, and page-wide actions. */
export function AdminPageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
        {description ? <p className="text-sm text-pretty text-ink-muted sm:text-base">{description}</p> : null}
      </div>
      {/* data-page-actions: the accessibility suite opens each of these and checks its dialog */}
      {actions ? (
        <div className="flex flex-wrap gap-3" data-page-actions>
          {actions}
        </div>
      ) : null}
    </div>
  );
}
