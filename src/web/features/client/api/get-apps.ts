// GET /api/client/apps → {data}: player apps, those for the client's device first, with install steps.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientApp } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getApps(signal?: AbortSignal): Promise<ClientApp[]> {
  return (await apiGet<{ data: ClientApp[] }>("/client/apps", { signal })).data ?? [];
}

export const appsQuery = queryOptions({
  queryKey: clientKeys.apps,
  queryFn: ({ signal }) => getApps(signal),
  staleTime: 5 * 60_000,
  retry: 1,
});

export function useApps(enabled = true) {
  return useQuery({ ...appsQuery, enabled });
}
