// GET /api/admin/packages: every package, inactive ones too (for choosing one in a form), each
// with price_today: what a client would pay for it now, a running special included.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse } from "@/shared/api";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../admin-keys";
import type { AdminPackage } from "../catalogue/api/types";

export function getAdminPackages(signal?: AbortSignal): Promise<ListResponse<AdminPackage>> {
  return apiGet<ListResponse<AdminPackage>>("/admin/packages", { signal });
}

export const adminPackagesQuery = queryOptions({
  queryKey: [...adminKeys.packages, "list"],
  queryFn: ({ signal }) => getAdminPackages(signal),
  select: (answer) => answer.data,
});

export function useAdminPackages() {
  return useQuery(adminPackagesQuery);
}
