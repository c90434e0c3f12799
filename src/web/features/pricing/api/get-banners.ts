// GET /api/banners: active banners. banner_type 'special' shows as the popup, anything else inline.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Banner, ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getBanners(signal?: AbortSignal): Promise<Banner[]> {
  const body = await apiGet<ListResponse<Banner>>("/banners", { signal });
  return body.data ?? [];
}

// Banners are editable page content, so they follow the homepage content's caching row.
export const bannersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.banners,
    queryFn: ({ signal }) => getBanners(signal),
    ...QUERY_CACHE.content,
  });

/** Spec §8: a failed list read is an empty list, silently. */
export function useBanners(): Banner[] {
  return useQuery(bannersQueryOptions()).data ?? [];
}
