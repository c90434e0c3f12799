// GET /api/status: component health, incidents and the overall verdict.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OverallStatus, StatusResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { overallStatus } from "@/shared/status";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export function getStatus(signal?: AbortSignal): Promise<StatusResponse> {
  return apiGet<StatusResponse>("/status", { signal });
}

export const statusQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.status,
    queryFn: ({ signal }) => getStatus(signal),
    ...QUERY_CACHE.status,
  });

/** The overall health for the navigation icon: stable while loading or on failure (spec §4). */
export function useOverallStatus(): OverallStatus {
  const { data } = useQuery(statusQueryOptions());
  return overallStatus(data?.data);
}
