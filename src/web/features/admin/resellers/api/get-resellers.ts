// GET /api/admin/resellers → the owner's partners, each with their credits read from the panel
// (null when it could not be read: `panel_error` says why), lines, customers and last purchase.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ResellersList } from "@/shared/reseller-schemas";
import { apiGet } from "@/web/lib/api";

/** Under ["admin", <table>] like every admin read, so the change feed and mutations refresh it. */
export const resellersKey = ["admin", "resellers"] as const;

export function getResellers(signal?: AbortSignal): Promise<ResellersList> {
  return apiGet<ResellersList>("/admin/resellers", { signal });
}

export const resellersQuery = queryOptions({
  queryKey: resellersKey,
  queryFn: ({ signal }) => getResellers(signal),
});

export function useResellers() {
  return useQuery(resellersQuery);
}
