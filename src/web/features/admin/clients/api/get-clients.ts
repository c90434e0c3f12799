// GET /api/admin/clients?q=&status=&expiring=&package=&page=&pageSize=&sort=&dir= → {data, total}
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminClient, PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function getClients(query: string, signal?: AbortSignal): Promise<PagedResponse<AdminClient>> {
  return apiGet<PagedResponse<AdminClient>>(`/admin/clients?${query}`, { signal });
}

export const clientsQuery = (query: string) =>
  queryOptions({
    queryKey: [...adminKeys.clients, "list", query],
    queryFn: ({ signal }) => getClients(query, signal),
    placeholderData: keepPreviousData,
  });

export function useClients(query: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientsQuery(query), ...options });
}

/** The CSV of the same filtered list (every page). */
export const clientsExportHref = (exportQuery: string) => `/api/admin/export/clients.csv${exportQuery ? `?${exportQuery}` : ""}`;
