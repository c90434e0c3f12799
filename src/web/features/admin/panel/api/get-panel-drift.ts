// GET /api/admin/panel/drift?kind=&limit=&offset= → {data, total, counts}: the open differences the
// panel sync found between our clients and their lines (kind=clients), or the panel's lines no
// client of ours has (kind=missing_here), a page at a time, each with both sides' values and which
// fixes the panel allows.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PanelDriftList } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export type DriftScope = "clients" | "missing_here";

export async function getPanelDrift(scope: DriftScope, limit: number, signal?: AbortSignal): Promise<PanelDriftList> {
  return apiGet<PanelDriftList>(`/admin/panel/drift?kind=${scope}&limit=${limit}`, { signal });
}

/** Under the panel's key: whatever refreshes the panel (a job done, a setting) refreshes this too. */
export const panelDriftQuery = (scope: DriftScope = "clients", limit = 200) =>
  queryOptions({
    queryKey: [...adminKeys.panel, "drift", scope, limit],
    queryFn: ({ signal }) => getPanelDrift(scope, limit, signal),
    placeholderData: keepPreviousData,
  });

export function usePanelDrift(scope: DriftScope = "clients", limit = 200, enabled = true) {
  return useQuery({ ...panelDriftQuery(scope, limit), enabled });
}
