// GET /api/admin/panel → the IPTV panel as the dashboard sees it (at the top level, not under
// data): its mode, whether it answered, the credit balance against the warning threshold, the
// panel's packages and which of them each of our packages buys. A panel that could not be read
// answers 200 with connected: false and `error` in the owner's words.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminPanelView } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function getPanel(signal?: AbortSignal): Promise<AdminPanelView> {
  return apiGet<AdminPanelView>("/admin/panel", { signal });
}

export const panelQuery = queryOptions({
  queryKey: adminKeys.panel,
  queryFn: ({ signal }) => getPanel(signal),
  // the server keeps panel reads for panel_cache_minutes; the change feed (jobs, settings) and the Refresh button renew it
  staleTime: 60_000,
});

export function usePanel() {
  return useQuery(panelQuery);
}
