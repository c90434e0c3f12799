// GET /api/admin/trials/summary: free trials asked for, started, converted (paid since) and refused,
// today and over 7 days. Keyed under ["admin", "stats"]: a trial started or a payment captured
// changes clients or payments, whose changes the feed already turns into an overview refresh.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { TrialSummary } from "@/shared/trial-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export const trialSummaryQuery = queryOptions({
  queryKey: [...adminKeys.stats, "trials"],
  queryFn: ({ signal }) => apiGet<TrialSummary>("/admin/trials/summary", { signal }),
  // the change feed refreshes it; this catches the day rolling over
  refetchInterval: 5 * 60_000,
});

export function useTrialSummary() {
  return useQuery(trialSummaryQuery);
}
