// GET /api/releases: published release notes, newest first.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Release } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getReleases(signal?: AbortSignal): Promise<Release[]> {
  const body = await apiGet<ListResponse<Release>>("/releases", { signal });
  return body.data ?? [];
}

export const releasesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.releases,
    queryFn: ({ signal }) => getReleases(signal),
    ...QUERY_CACHE.content,
  });

export function useReleases() {
  return useQuery(releasesQueryOptions());
}
