// GET /api/admin/<resource> → {data: [...]}: every row, active or not, in the server's order.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "@/web/lib/api";
import { type AdminResource, resourceUrl } from "./resource";

export async function getResourceList<T>(resource: AdminResource, signal?: AbortSignal): Promise<T[]> {
  const answer = await apiGet<{ data: T[] }>(resourceUrl(resource), { signal });
  return answer.data;
}

export const resourceListQuery = <T>(resource: AdminResource) =>
  queryOptions({
    queryKey: [...resource.key, "list"],
    queryFn: ({ signal }) => getResourceList<T>(resource, signal),
  });

export function useResourceList<T>(resource: AdminResource) {
  return useQuery(resourceListQuery<T>(resource));
}
