// GET /api/admin/leads?q=&status=&form_type=&from=&to=&page=&pageSize=&sort=&dir= → {data, total}
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminLead, PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function getLeads(query: string, signal?: AbortSignal): Promise<PagedResponse<AdminLead>> {
  return apiGet<PagedResponse<AdminLead>>(`/admin/leads?${query}`, { signal });
}

export const leadsQuery = (query: string) =>
  queryOptions({
    queryKey: [...adminKeys.leads, "list", query],
    queryFn: ({ signal }) => getLeads(query, signal),
    // the last page stays on screen while the next filter's rows load
    placeholderData: keepPreviousData,
  });

export function useLeads(query: string) {
  return useQuery(leadsQuery(query));
}

/** The CSV of the same filtered list (every page). */
export const leadsExportHref = (exportQuery: string) => `/api/admin/export/leads.csv${exportQuery ? `?${exportQuery}` : ""}`;
