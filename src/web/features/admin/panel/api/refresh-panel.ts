// POST /api/admin/panel/refresh → the panel view, its credits and packages read from the panel
// now (panel reads are otherwise kept for the panel_cache_minutes setting): the Refresh button.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminPanelView } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function refreshPanel(): Promise<AdminPanelView> {
  return apiSend<AdminPanelView>("POST", "/admin/panel/refresh");
}

export function useRefreshPanel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshPanel,
    onSuccess: (view) => queryClient.setQueryData(adminKeys.panel, view),
  });
}
