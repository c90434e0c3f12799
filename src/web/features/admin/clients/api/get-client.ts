// GET /api/admin/clients/:id → {data: client with payments, leads, content requests and messages}
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminClientDetail } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function getClient(id: string, signal?: AbortSignal): Promise<AdminClientDetail> {
  const answer = await apiGet<{ data: AdminClientDetail }>(`/admin/clients/${encodeURIComponent(id)}`, { signal });
  return answer.data;
}

export const clientQuery = (id: string) =>
  queryOptions({
    queryKey: adminKeys.client(id),
    queryFn: ({ signal }) => getClient(id, signal),
  });

export function useClient(id: string) {
  return useQuery(clientQuery(id));
}
