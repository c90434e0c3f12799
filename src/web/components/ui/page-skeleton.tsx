// The placeholders a lazily loaded page shows while its code arrives (spec §2): card, list,
// table, form, and dashboard with six blocks.
import { Container } from "./container";
import { Skeleton } from "./skeleton";

export type SkeletonVariant = "card" | "list" | "table" | "form" | "dashboard";

export function PageSkeleton({ variant }: { variant: SkeletonVariant }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-skeleton={variant} className="py-10 sm:py-14">
      <span className="sr-only">Loading...</span>
      <Container>
        <Skeleton className="mb-3 h-9 w-2/3 max-w-sm" />
        <Skeleton className="mb-10 h-5 w-5/6 max-w-xl" />
        {variant === "card" ? <CardBlocks /> : null}
        {variant === "list" ? <ListRows /> : null}
        {variant === "table" ? <TableRows /> : null}
        {variant === "form" ? <FormFields /> : null}
        {variant === "dashboard" ? <DashboardBlocks /> : null}
      </Container>
    </div>
  );
}

function CardBlocks() {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <div key={i} className="rounded-card border border-line bg-surface p-6" data-skeleton-block>
          <Skeleton className="mb-4 h-6 w-1/2" />
          <Skeleton className="mb-6 h-10 w-1/3" />
          <Skeleton className="mb-2 h-4 w-full" />
          <Skeleton className="mb-2 h-4 w-5/6" />
          <Skeleton className="mt-6 h-12 w-full rounded-xl" />
        </div>
      ))}
    </div>
  );
}

function ListRows() {
  return (
    <div className="flex flex-col gap-3">
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="flex items-center gap-4 rounded-xl border border-line bg-surface p-4" data-skeleton-block>
          <Skeleton className="size-10 shrink-0 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-4/5" />
          </div>
        </div>
      ))}
    </div>
  );
}

function TableRows() {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface">
      <Skeleton className="h-12 w-full rounded-none" />
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <div key={i} className="grid grid-cols-4 gap-4 border-t border-line p-4" data-skeleton-block>
          <Skeleton className="h-4" />
          <Skeleton className="h-4" />
          <Skeleton className="h-4" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ))}
    </div>
  );
}

function FormFields() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 rounded-card border border-line bg-surface p-6">
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex flex-col gap-2" data-skeleton-block>
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-12 w-full rounded-xl" />
        </div>
      ))}
      <Skeleton className="mt-2 h-12 w-full rounded-xl" />
    </div>
  );
}

function DashboardBlocks() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <div key={i} className="rounded-xl border border-line bg-surface p-5" data-skeleton-block>
          <Skeleton className="mb-3 h-4 w-1/3" />
          <Skeleton className="mb-4 h-8 w-1/2" />
          <Skeleton className="h-16 w-full" />
        </div>
      ))}
    </div>
  );
}
