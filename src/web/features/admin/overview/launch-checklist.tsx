// The overview's launch checklist: until every item is done, what the shop still shows from the
// demo seed or has not connected, each with the page where it is set. Gone once all are done.
import { CheckCircle2, ChevronRight, Circle, Rocket } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/web/lib/cn";
import { useLaunchChecklist } from "./api/get-launch-checklist";

export function LaunchChecklist({ className }: { className?: string }) {
  const { data } = useLaunchChecklist();
  if (!data || data.done) return null;
  const left = data.items.filter((item) => !item.done).length;
  return (
    <section
      aria-labelledby="launch-checklist-heading"
      data-testid="launch-checklist"
      className={cn("rounded-card border border-special/40 bg-surface p-4 sm:p-5", className)}
    >
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1">
        <Rocket aria-hidden="true" className="size-5 text-special" />
        <h2 id="launch-checklist-heading" className="text-base font-semibold text-ink">
          Before you take real customers
        </h2>
        <span className="text-sm text-ink-muted">
          {left} of {data.items.length} still to do
        </span>
      </div>
      <ul className="flex flex-col divide-y divide-line">
        {data.items.map((item) => (
          <li key={item.key} data-item={item.key} data-done={item.done}>
            <Link
              to={item.href}
              className="group flex items-start gap-3 rounded-lg px-1 py-3 hover:bg-surface-raised focus-visible:bg-surface-raised"
            >
              {item.done ? (
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ok" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-special" />
              )}
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className={cn("font-medium", item.done ? "text-ink-muted" : "text-ink")}>
                  {item.label}
                  <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
                </span>
                <span className="text-sm text-ink-muted">{item.why}</span>
              </span>
              <ChevronRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-subtle group-hover:text-ink" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
