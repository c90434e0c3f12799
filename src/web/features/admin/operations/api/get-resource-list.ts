// GET /api/admin/<resource> → {data: [...]}: every row, active or not, in the server's order.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { listAdminRows } from "../../api/admin-crud";
import type { AdminResource } from "./resource";

export const resourceListQuery = <T>(resource: AdminResource) =>
  queryOptions({
    queryKey: [...resource.key, "list"],
    queryFn: async ({ signal }) => (await listAdminRows<T>(resource.path, signal)).data,
  });

export function useResourceList<T>(resource: AdminResource) {
  return useQuery(resourceListQuery<T>(resource));
}
