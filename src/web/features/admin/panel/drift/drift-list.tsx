// The differences the panel sync found (GET /api/admin/panel/drift), each with our side and the
// panel's side, and the two fixes: push ours to the panel, or accept the panel's as ours. A fix
// the panel's API can't do is not offered (the server refuses it with the reason too); a push
// that buys a package says what it spends and asks first. "Check now" compares again instead of
// waiting for the night. The last check is shown as it went: a check that could not read the
// panel is a failure, never "all agree". A real panel holds thousands of lines no client of ours
// has: they are counted, and listed a page at a time only when asked for.
import { ArrowLeftRight, Check, RotateCcw, TriangleAlert, Upload } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { PanelCheckView, PanelDriftView } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { formatDate, formatDateTime } from "../../components/format";
import { useFixPanelDrift, useSyncPanel } from "../api/fix-panel-drift";
import { usePanelDrift } from "../api/get-panel-drift";

const KIND_LABELS: Record<PanelDriftView["kind"], string> = {
  expiry: "Expiry date",
  enabled: "Switched on or off",
  max_connections: "Connections",
  missing_on_panel: "Line missing on the panel",
  missing_here: "Line with no client here",
};

const UNLINKED_PAGE = 50;
const count = (n: number) => n.toLocaleString("en-US");

/** One side's value as the owner reads it. */
export function sideText(kind: PanelDriftView["kind"], value: string): string {
  if (kind === "expiry") return value ? formatDate(new Date(value)) : "None";
  if (kind === "enabled") return value === "true" ? "On" : "Off";
  if (kind === "missing_on_panel" || kind === "missing_here") return value === "true" ? "Has the line" : "No line";
  return value;
}

/** The last check in a sentence: when, how many lines, and whether it worked. */
export function lastCheckText(check: PanelCheckView): string {
  const at = formatDateTime(check.at);
  if (!check.ok) {
    const again = check.failures_in_row > 1 ? ` (${check.failures_in_row} checks in a row have failed)` : "";
    return `The last check failed at ${at}: ${check.error}${again}. Until one works, differences are not found.`;
  }
  return `Last checked ${at}: ${count(check.lines_read)} lines on the panel, ${count(check.checked)} of your clients' compared.`;
}

export function DriftList({ lastCheck }: { lastCheck: PanelCheckView | null | undefined }) {
  const drift = usePanelDrift("clients");
  const sync = useSyncPanel();
  const check = () =>
    sync.mutate(undefined, {
      onSuccess: (result) =>
        toast.success(
          result.flagged
            ? `Compared ${count(result.checked)} of your clients with ${count(result.lines_read)} panel lines: ${count(result.flagged)} differ.`
            : `Compared ${count(result.checked)} of your clients with ${count(result.lines_read)} panel lines: all agree.`,
        ),
      onError: (error) => toast.error(error.message),
    });
  const failed = lastCheck?.ok === false;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink-muted" data-testid="panel-last-check" role={failed ? "alert" : undefined}>
          {lastCheck ? (
            failed ? (
              <span className="flex items-start gap-2 text-bad">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                {lastCheckText(lastCheck)}
              </span>
            ) : (
              lastCheckText(lastCheck)
            )
          ) : (
            "Not checked yet: the first check runs tonight, or now with Check now."
          )}
        </p>
        <Button variant="outline" size="sm" className="self-start sm:shrink-0" onClick={check} disabled={sync.isPending}>
          <RotateCcw aria-hidden="true" />
          {sync.isPending ? "Comparing..." : "Check now"}
        </Button>
      </div>
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
      ) : (
        <>
          {drift.data.data.length === 0 ? (
            <p className="text-sm text-ink-muted" data-testid="drift-none">
              {failed
                ? "No differences are listed, but the last check could not read the panel: press Check now once it answers."
                : lastCheck?.checked === 0
                  ? "None of your clients has a line on the panel yet: there is nothing to compare."
                  : lastCheck
                    ? "The panel and your clients agree: nothing to fix."
                    : "No differences found yet."}
            </p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Differences with the panel">
              {drift.data.data.map((row) => (
                <DriftRow key={row.id} row={row} />
              ))}
            </ul>
          )}
          {drift.data.total > drift.data.data.length ? (
            <p className="text-sm text-ink-muted">
              Showing the {count(drift.data.data.length)} newest of {count(drift.data.total)} differences.
            </p>
          ) : null}
          <UnlinkedLines total={drift.data.counts?.missing_here ?? 0} />
        </>
      )}
    </div>
  );
}

/** The panel's lines no client of ours has: counted, listed a page at a time on request. */
function UnlinkedLines({ total }: { total: number }) {
  const [shown, setShown] = useState(0);
  const lines = usePanelDrift("missing_here", Math.max(shown, UNLINKED_PAGE), shown > 0);
  if (total === 0) return null;
  const rows = shown > 0 ? (lines.data?.data ?? []) : [];
  return (
    <section aria-labelledby="drift-unlinked" className="flex flex-col gap-3 rounded-card border border-line p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h3 id="drift-unlinked" className="font-medium text-ink">
            {count(total)} {total === 1 ? "line" : "lines"} on the panel with no client here
          </h3>
          <p className="text-sm text-ink-muted">
            Lines made on the panel before StreamDesk, or by hand there. Mark one "Not ours" and it is not listed again.
          </p>
        </div>
        {shown === 0 ? (
          <Button variant="outline" size="sm" className="self-start sm:shrink-0" onClick={() => setShown(UNLINKED_PAGE)}>
            Show them
          </Button>
        ) : null}
      </div>
      {shown > 0 && lines.isPending ? <Skeleton className="h-24 w-full" /> : null}
      {lines.error ? <p className="text-sm text-bad">{lines.error.message}</p> : null}
      {rows.length ? (
        <ul className="flex flex-col gap-3" aria-label="Panel lines with no client here">
          {rows.map((row) => (
            <DriftRow key={row.id} row={row} />
          ))}
        </ul>
      ) : null}
      {rows.length > 0 && rows.length < total ? (
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          disabled={lines.isFetching}
          onClick={() => setShown((n) => Math.min(n + UNLINKED_PAGE, 500))}
        >
          {lines.isFetching ? "Loading..." : `Show ${Math.min(UNLINKED_PAGE, total - rows.length)} more of ${count(total - rows.length)}`}
        </Button>
      ) : null}
    </section>
  );
}

function DriftRow({ row }: { row: PanelDriftView }) {
  const fix = useFixPanelDrift();
  const [asking, setAsking] = useState(false);
  const run = (direction: "push" | "accept") =>
    fix.mutate(
      { id: row.id, direction },
      {
        onSuccess: () => {
          setAsking(false);
          toast.success(direction === "push" ? "Sent to the panel." : "The panel's side is now ours.");
        },
        onError: (error) => {
          setAsking(false);
          toast.error(error.message);
        },
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
      {row.can_push && row.push_cost ? (
        <p className="text-sm text-ink-muted" data-testid="drift-push-cost">
          Pushing: {row.push_cost.words}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {row.can_push ? (
          <Button size="sm" onClick={() => (row.push_cost ? setAsking(true) : run("push"))} disabled={fix.isPending}>
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
      {row.push_cost ? (
        <ConfirmDialog
          open={asking}
          onOpenChange={setAsking}
          title={
            row.push_cost.credits === null
              ? "Push to the panel?"
              : `Spend ${row.push_cost.credits} panel ${row.push_cost.credits === 1 ? "credit" : "credits"}?`
          }
          description={row.push_cost.words}
          confirmLabel={row.push_cost.credits === null ? "Push anyway" : `Push: spend ${row.push_cost.credits}`}
          pendingLabel="Sending..."
          pending={fix.isPending}
          onConfirm={() => run("push")}
        />
      ) : null}
    </li>
  );
}
