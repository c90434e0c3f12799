// GET /api/admin/audit?resource=&page=&pageSize= → {data, total}, newest first. Not on the
// change feed (only admins write it); refetched on open and by the sections' own saves.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export interface AuditEntry {
  id: string;
  admin_id: string | null;
  admin_email: string;
  action: string;
  resource: string;
  resource_id: string | null;
  /** the client or lead the entry is about, named by the server (null: the record carries its own name) */
  record_name?: string | null;
  before: unknown;
  after: unknown;
  created_at: string;
}

export function getAuditLog(query: string, signal?: AbortSignal): Promise<PagedResponse<AuditEntry>> {
  return apiGet<PagedResponse<AuditEntry>>(`/admin/audit?${query}`, { signal });
}

export const auditLogQuery = (query: string) =>
  queryOptions({
    queryKey: [...opsKeys.audit, "list", query],
    queryFn: ({ signal }) => getAuditLog(query, signal),
    placeholderData: keepPreviousData,
    refetchOnMount: "always",
  });

export function useAuditLog(query: string) {
  return useQuery(auditLogQuery(query));
}
