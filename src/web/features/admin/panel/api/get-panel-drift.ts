// GET /api/admin/panel/drift → {data}: the open differences the panel sync found between our
// clients and their lines, each with both sides' values and which fixes the panel allows.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PanelDriftView } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function getPanelDrift(signal?: AbortSignal): Promise<PanelDriftView[]> {
  return (await apiGet<{ data: PanelDriftView[] }>("/admin/panel/drift", { signal })).data;
}

/** Under the panel's key: whatever refreshes the panel (a job done, a setting) refreshes this too. */
export const panelDriftQuery = () =>
  queryOptions({ queryKey: [...adminKeys.panel, "drift"], queryFn: ({ signal }) => getPanelDrift(signal) });

export function usePanelDrift() {
  return useQuery(panelDriftQuery());
}
