// GET /api/client/content-requests → {data}: the client's own requests, newest first.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientContentRequest } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getContentRequests(signal?: AbortSignal): Promise<ClientContentRequest[]> {
  return (await apiGet<{ data: ClientContentRequest[] }>("/client/content-requests", { signal })).data ?? [];
}

export const contentRequestsQuery = queryOptions({
  queryKey: clientKeys.contentRequests,
  queryFn: ({ signal }) => getContentRequests(signal),
  staleTime: 30_000,
  retry: 1,
});

export function useContentRequests(enabled = true) {
  return useQuery({ ...contentRequestsQuery, enabled });
}
