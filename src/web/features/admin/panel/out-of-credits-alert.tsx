// The alert the panel raises when it refused lines for want of credits: how many lines wait,
// and what to do (top up, then retry). On the overview and the panel page; nothing otherwise.
import { Coins } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { useProvisioningJobs } from "./api/get-provisioning-jobs";
import { isOutOfCredits, outOfCreditsText } from "./panel-labels";

export function OutOfCreditsAlert({ linkToPanel, className }: { linkToPanel?: boolean; className?: string }) {
  const { data: failed } = useProvisioningJobs("failed");
  const waiting = failed?.filter(isOutOfCredits).length ?? 0;
  if (!waiting) return null;
  return (
    <div
      role="alert"
      data-testid="out-of-credits"
      className={cn("flex items-start gap-3 rounded-card border border-bad/50 bg-bad/10 px-4 py-3 sm:items-center", className)}
    >
      <Coins aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-bad sm:mt-0" />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm font-semibold text-ink">{outOfCreditsText(waiting)}</p>
        {linkToPanel ? (
          <Link to="/admin/panel" className={buttonClasses({ variant: "outline", size: "sm", className: "self-start sm:self-auto" })}>
            Open the panel page
          </Link>
        ) : null}
      </div>
    </div>
  );
}
