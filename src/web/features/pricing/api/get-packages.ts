// GET /api/packages: active packages, sort_order ascending (spec §7).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Package } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getPackages(signal?: AbortSignal): Promise<Package[]> {
  const body = await apiGet<ListResponse<Package>>("/packages", { signal });
  return body.data ?? [];
}

export const packagesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.packages,
    queryFn: ({ signal }) => getPackages(signal),
    ...QUERY_CACHE.packages,
  });

export function usePackages() {
  return useQuery(packagesQueryOptions());
}
