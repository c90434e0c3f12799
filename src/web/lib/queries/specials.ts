// GET /api/specials: the specials running now. They change the prices on the package cards and
// in the order form, so they follow the packages' caching row (docs/how-to.md, "A read").
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Special } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export async function getSpecials(signal?: AbortSignal): Promise<Special[]> {
  const body = await apiGet<ListResponse<Special>>("/specials", { signal });
  return body.data ?? [];
}

export const specialsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.specials,
    queryFn: ({ signal }) => getSpecials(signal),
    ...QUERY_CACHE.packages,
  });

export function useSpecials() {
  return useQuery(specialsQueryOptions());
}
