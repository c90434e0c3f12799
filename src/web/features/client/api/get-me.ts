// GET /api/client/me → {data}: the signed-in client's profile, subscription and line details.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientProfile } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getMe(signal?: AbortSignal): Promise<ClientProfile> {
  return (await apiGet<{ data: ClientProfile }>("/client/me", { signal })).data;
}

export const meQuery = queryOptions({
  queryKey: clientKeys.me,
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 30_000,
  retry: 1,
});

export function useMe() {
  return useQuery(meQuery);
}
