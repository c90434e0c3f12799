// GET /api/admin/packages: every package, inactive ones too (for choosing one in a form).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Package } from "@/shared/api";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../admin-keys";

export function getAdminPackages(signal?: AbortSignal): Promise<ListResponse<Package>> {
  return apiGet<ListResponse<Package>>("/admin/packages", { signal });
}

export const adminPackagesQuery = queryOptions({
  queryKey: [...adminKeys.packages, "list"],
  queryFn: ({ signal }) => getAdminPackages(signal),
  select: (answer) => answer.data,
});

export function useAdminPackages() {
  return useQuery(adminPackagesQuery);
}
