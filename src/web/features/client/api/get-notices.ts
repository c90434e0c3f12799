// GET /api/client/notices → notices for clients, open incidents and parts of the service not working.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientNoticesResponse } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getClientNotices(signal?: AbortSignal): Promise<ClientNoticesResponse> {
  const body = await apiGet<ClientNoticesResponse>("/client/notices", { signal });
  return { data: body.data ?? [], incidents: body.incidents ?? [], components: body.components ?? [] };
}

export const clientNoticesQuery = queryOptions({
  queryKey: clientKeys.notices,
  queryFn: ({ signal }) => getClientNotices(signal),
  staleTime: 60_000,
  refetchInterval: 5 * 60_000,
  retry: 1,
});

export function useClientNotices() {
  return useQuery(clientNoticesQuery);
}
