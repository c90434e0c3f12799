// The differences the panel sync found (GET /api/admin/panel/drift), each with our side and the
// panel's side, and the two fixes: push ours to the panel, or accept the panel's as ours. A fix
// the panel's API can't do is not offered (the server refuses it with the reason too). "Check
// now" compares again instead of waiting for the night.
import { ArrowLeftRight, Check, RotateCcw, Upload } from "lucide-react";
import { Link } from "react-router";
import type { PanelDriftView } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { formatDate } from "../../components/format";
import { useFixPanelDrift, useSyncPanel } from "../api/fix-panel-drift";
import { usePanelDrift } from "../api/get-panel-drift";

const KIND_LABELS: Record<PanelDriftView["kind"], string> = {
  expiry: "Expiry date",
  enabled: "Switched on or off",
  max_connections: "Connections",
  missing_on_panel: "Line missing on the panel",
  missing_here: "Line with no client here",
};

/** One side's value as the owner reads it. */
export function sideText(kind: PanelDriftView["kind"], value: string): string {
  if (kind === "expiry") return value ? formatDate(new Date(value)) : "None";
  if (kind === "enabled") return value === "true" ? "On" : "Off";
  if (kind === "missing_on_panel" || kind === "missing_here") return value === "true" ? "Has the line" : "No line";
  return value;
}

export function DriftList() {
  const drift = usePanelDrift();
  const sync = useSyncPanel();
  const check = () =>
    sync.mutate(undefined, {
      onSuccess: (result) =>
        toast.success(
          result.flagged ? `Compared ${result.checked} lines: ${result.flagged} differ.` : `Compared ${result.checked} lines: all agree.`,
        ),
      onError: (error) => toast.error(error.message),
    });
  return (
    <div className="flex flex-col gap-4">
      <Button variant="outline" size="sm" className="self-start" onClick={check} disabled={sync.isPending}>
        <RotateCcw aria-hidden="true" />
        {sync.isPending ? "Comparing..." : "Check now"}
      </Button>
      {drift.error ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-card border border-bad/40 bg-bad/5 p-4 text-sm">
          <p className="font-medium text-ink">The differences couldn't load.</p>
          <p className="text-ink-muted">{drift.error.message}</p>
          <Button variant="outline" size="sm" onClick={() => drift.refetch()}>
            Try Again
          </Button>
        </div>
      ) : !drift.data ? (
        <Skeleton className="h-24 w-full" />
      ) : drift.data.length === 0 ? (
        <p className="text-sm text-ink-muted">The panel and your clients agree: nothing to fix.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Differences with the panel">
          {drift.data.map((row) => (
            <DriftRow key={row.id} row={row} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DriftRow({ row }: { row: PanelDriftView }) {
  const fix = useFixPanelDrift();
  const run = (direction: "push" | "accept") =>
    fix.mutate(
      { id: row.id, direction },
      {
        onSuccess: () => toast.success(direction === "push" ? "Sent to the panel." : "The panel's side is now ours."),
        onError: (error) => toast.error(error.message),
      },
    );
  return (
    <li className="flex flex-col gap-3 rounded-card border border-line bg-surface-raised p-4" data-testid="drift-row" data-kind={row.kind}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium text-ink">
          {KIND_LABELS[row.kind]}
          {row.client_id ? (
            <>
              {" "}
              <span className="text-ink-muted">for</span>{" "}
              <Link
                to={`/admin/client/${row.client_id}`}
                className="text-accent-ink underline decoration-accent-ink/40 underline-offset-2 hover:decoration-accent-ink"
              >
                {row.client_full_name}
              </Link>
            </>
          ) : (
            <span className="text-ink-muted"> · panel line {row.panel_line_id}</span>
          )}
        </p>
        <span className="text-xs text-ink-subtle">Found {formatDate(new Date(row.found_at))}</span>
      </div>
      <p className="text-sm text-ink-muted">{row.description}</p>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-ink-subtle">Ours</dt>
          <dd className="font-medium text-ink">{sideText(row.kind, row.ours)}</dd>
        </div>
        <div>
          <dt className="text-ink-subtle">The panel's</dt>
          <dd className="font-medium text-ink">{sideText(row.kind, row.panel)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        {row.can_push ? (
          <Button size="sm" onClick={() => run("push")} disabled={fix.isPending}>
            <Upload aria-hidden="true" />
            Push ours to the panel
          </Button>
        ) : null}
        {row.can_accept ? (
          <Button size="sm" variant="outline" onClick={() => run("accept")} disabled={fix.isPending}>
            {row.kind === "missing_here" ? <Check aria-hidden="true" /> : <ArrowLeftRight aria-hidden="true" />}
            {row.kind === "missing_here" ? "Not ours: leave it" : "Accept the panel's"}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
