// GET /api/status → the public status page's data: each component with its 90-day history.
// The admin reads it for the history strips; keyed under status_checks so new checks refresh it.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StatusResponse } from "@/shared/api";
import { apiGet } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export function getStatusHistory(signal?: AbortSignal): Promise<StatusResponse> {
  return apiGet<StatusResponse>("/status", { signal });
}

export const statusHistoryQuery = queryOptions({
  queryKey: [...opsKeys.statusHistory, "public"],
  queryFn: ({ signal }) => getStatusHistory(signal),
});

export function useStatusHistory() {
  return useQuery(statusHistoryQuery);
}
