// GET /api/notices: the business's announcements for visitors (active, inside their window,
// audience public or all, newest first). The change feed refreshes them (table notices).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Notice } from "@/shared/api";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export function getNotices(signal?: AbortSignal): Promise<ListResponse<Notice>> {
  return apiGet<ListResponse<Notice>>("/notices", { signal });
}

export const noticesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notices,
    queryFn: ({ signal }) => getNotices(signal),
    select: (answer: ListResponse<Notice>) => answer.data,
    staleTime: 60_000,
    retry: 2,
  });

/** The notices to show; an empty list while loading or when the read fails (spec §8: lists fail silently). */
export function useNotices(): Notice[] {
  return useQuery(noticesQueryOptions()).data ?? [];
}
