// GET /api/specials: active pricing specials inside their date window.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Special } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getSpecials(signal?: AbortSignal): Promise<Special[]> {
  const body = await apiGet<ListResponse<Special>>("/specials", { signal });
  return body.data ?? [];
}

// Specials change the prices on the package cards, so they follow the packages' caching row.
export const specialsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.specials,
    queryFn: ({ signal }) => getSpecials(signal),
    ...QUERY_CACHE.packages,
  });

export function useSpecials() {
  return useQuery(specialsQueryOptions());
}
