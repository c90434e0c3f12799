// GET /api/packages: the active packages, for the pricing cards, the order form and the plans
// (docs/how-to.md, "A read"). Specials are a read of their own (specials.ts).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Package } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

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
