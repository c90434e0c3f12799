// GET /api/admin/stats: the overview's counts and its two 30-day series.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminStats } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return apiGet<AdminStats>("/admin/stats", { signal });
}

export const adminStatsQuery = queryOptions({
  queryKey: adminKeys.stats,
  queryFn: ({ signal }) => getAdminStats(signal),
  // the change feed refreshes it; this catches the day rolling over
  refetchInterval: 5 * 60_000,
});

export function useAdminStats() {
  return useQuery(adminStatsQuery);
}
