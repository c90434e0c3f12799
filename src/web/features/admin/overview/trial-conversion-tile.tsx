// The overview's trial conversion tile (issue 27 item 4): of the free trials started in the last
// 7 days, how many have paid since — the rate, and the two counts it comes from. Its own query
// (the trials summary), so it shows even while the day's numbers load; it opens the live trials,
// the ones still to convert.
import { Percent } from "lucide-react";
import { Link } from "react-router";
import { useTrialSummary } from "./api/get-trial-summary";

export function TrialConversionTile() {
  const summary = useTrialSummary();
  const week = summary.data?.last7Days;
  const rate = week?.conversionRate ?? null;
  return (
    <Link
      to="/admin/clients?status=trial"
      data-testid="overview-trial-conversion"
      className="flex h-full flex-col gap-3 rounded-card border border-line bg-surface p-4 transition-colors hover:border-line-strong hover:bg-surface-raised sm:p-5"
    >
      <span className="flex items-start justify-between gap-2 text-sm text-ink-muted">
        Trials converted (7 days)
        <Percent aria-hidden={true} className="size-5 shrink-0 text-ink-subtle" />
      </span>
      <span className="mt-auto text-2xl font-bold text-ink tabular sm:text-3xl">
        {summary.error ? "—" : rate === null ? "—" : `${Math.round(rate * 100)}%`}
      </span>
      <span className="text-xs text-ink-subtle">
        {summary.error
          ? "Could not be loaded."
          : !week
            ? "Loading..."
            : week.started === 0
              ? "No free trial started in the last 7 days."
              : `${week.converted.toLocaleString("en-US")} of ${week.started.toLocaleString("en-US")} started ${week.started === 1 ? "has" : "have"} paid.`}
      </span>
    </Link>
  );
}
