// The verdict at the top of /status (spec §4: down if any is down, else maintenance, else stable).
import { CircleCheck, OctagonAlert, Wrench } from "lucide-react";
import type { OverallStatus } from "@/shared/api";
import { cn } from "@/web/lib/cn";
import { OVERALL_WORDING } from "./status-format";

const LOOK: Record<OverallStatus, { Icon: typeof CircleCheck; className: string; iconClass: string }> = {
  stable: { Icon: CircleCheck, className: "border-ok/40 bg-ok/10", iconClass: "bg-ok/20 text-ok" },
  maintenance: { Icon: Wrench, className: "border-sky-400/40 bg-sky-400/10", iconClass: "bg-sky-400/20 text-sky-300" },
  down: { Icon: OctagonAlert, className: "border-bad/50 bg-bad/10", iconClass: "bg-bad/20 text-bad" },
};

export function OverallBanner({ overall }: { overall: OverallStatus }) {
  const { Icon, className, iconClass } = LOOK[overall];
  const words = OVERALL_WORDING[overall];
  return (
    <section
      aria-label="Overall status"
      data-overall={overall}
      className={cn("flex flex-col gap-4 rounded-card border p-5 sm:flex-row sm:items-center sm:gap-5 sm:p-7", className)}
    >
      <span className={cn("flex size-14 shrink-0 items-center justify-center rounded-full", iconClass)}>
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <div className="flex min-w-0 flex-col gap-1">
        <h2 className="text-2xl font-bold tracking-tight text-balance text-ink sm:text-3xl">{words.title}</h2>
        <p className="text-pretty text-ink-muted">{words.text}</p>
      </div>
    </section>
  );
}
