// The overview's IPTV panel tile: the credit balance (warning when below the level in site
// settings), failed jobs and tasks waiting for the owner; it opens the panel page. Its own
// queries, so a panel that cannot be read never holds up the day's numbers.
import { ChevronRight, Server } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/web/components/ui/badge";
import { cn } from "@/web/lib/cn";
import { usePanel } from "../panel/api/get-panel";
import { useProvisioningJobs } from "../panel/api/get-provisioning-jobs";
import { creditsText, MODE_LABELS } from "../panel/panel-labels";

export function PanelSummary() {
  const panel = usePanel();
  const failed = useProvisioningJobs("failed");
  const tasks = useProvisioningJobs("task");
  const view = panel.data;
  const failedCount = failed.data?.length;
  const taskCount = tasks.data?.length;
  const down = view ? !view.connected && view.mode !== "manual" : false;
  const attention = Boolean(view?.low_credits || down || failedCount || taskCount);
  const credits = view ? creditsText(view) : null;

  return (
    <Link
      to="/admin/panel"
      data-testid="panel-summary"
      className={cn(
        "flex flex-col gap-4 rounded-card border bg-surface p-4 transition-colors hover:border-line-strong hover:bg-surface-raised sm:p-5 md:flex-row md:items-center",
        attention ? "border-special/50" : "border-line",
      )}
    >
      <span className="flex min-w-0 items-start gap-3 md:w-64 md:shrink-0">
        <Server aria-hidden="true" className={cn("mt-0.5 size-5 shrink-0", attention ? "text-special" : "text-ink-subtle")} />
        <span className="flex min-w-0 flex-col gap-1">
          <span className="text-sm text-ink-muted">IPTV panel</span>
          <span className="flex flex-wrap items-center gap-2 font-semibold text-ink">
            {view ? MODE_LABELS[view.mode] : panel.error ? "Couldn't load" : "Loading..."}
            {view?.mode === "sandbox" ? <Badge variant="warn">Test lines</Badge> : null}
          </span>
          {down ? <span className="text-xs text-bad">Not connected: {view?.error ?? "the panel did not answer."}</span> : null}
        </span>
      </span>
      <span className="grid flex-1 grid-cols-3 gap-3">
        <Figure
          label="Credits"
          value={credits ?? "—"}
          note={view?.low_credits ? `Low: under ${view.credit_warning}` : credits === null ? "Not counted" : undefined}
          tone={view?.low_credits ? "warn" : undefined}
          testId="overview-credits"
        />
        <Figure
          label="Failed jobs"
          value={failedCount?.toLocaleString("en-US") ?? "—"}
          tone={failedCount ? "bad" : undefined}
          testId="overview-failed-jobs"
        />
        <Figure
          label="Tasks for you"
          value={taskCount?.toLocaleString("en-US") ?? "—"}
          tone={taskCount ? "special" : undefined}
          testId="overview-tasks"
        />
      </span>
      <ChevronRight aria-hidden="true" className="hidden size-5 shrink-0 text-ink-subtle md:block" />
    </Link>
  );
}

function Figure({
  label,
  value,
  note,
  tone,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  tone?: "warn" | "bad" | "special";
  testId: string;
}) {
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      <span className="text-xs text-ink-subtle">{label}</span>
      <span
        data-testid={testId}
        className={cn(
          "text-2xl font-bold tabular",
          tone === "warn" ? "text-warn" : tone === "bad" ? "text-bad" : tone === "special" ? "text-special" : "text-ink",
        )}
      >
        {value}
      </span>
      {note ? <span className={cn("text-xs", tone === "warn" ? "text-warn" : "text-ink-subtle")}>{note}</span> : null}
    </span>
  );
}
