// GET /api/client/specials → {data: {specials, plans}}: offers and what this client would pay.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientSpecials } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getClientSpecials(signal?: AbortSignal): Promise<ClientSpecials> {
  const { data } = await apiGet<{ data: ClientSpecials }>("/client/specials", { signal });
  return { specials: data?.specials ?? [], plans: data?.plans ?? [] };
}

export const clientSpecialsQuery = queryOptions({
  queryKey: clientKeys.specials,
  queryFn: ({ signal }) => getClientSpecials(signal),
  staleTime: 60_000,
  retry: 1,
});

export function useClientSpecials() {
  return useQuery(clientSpecialsQuery);
}
