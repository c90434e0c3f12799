// GET /api/admin/content-requests?q=&status=&page=&pageSize=&sort=&dir= → {data, total}
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminContentRequest, PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export function getContentRequests(query: string, signal?: AbortSignal): Promise<PagedResponse<AdminContentRequest>> {
  return apiGet<PagedResponse<AdminContentRequest>>(`/admin/content-requests?${query}`, { signal });
}

export const contentRequestsQuery = (query: string) =>
  queryOptions({
    queryKey: [...opsKeys.contentRequests, "list", query],
    queryFn: ({ signal }) => getContentRequests(query, signal),
    placeholderData: keepPreviousData,
  });

export function useContentRequests(query: string) {
  return useQuery(contentRequestsQuery(query));
}
