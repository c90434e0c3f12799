// PUT /api/admin/panel/settings {stream_url?, cache_minutes?} → the panel view again. The stream
// server URL every subscriber link is built on ('' falls back to PANEL_STREAM_URL) and the minutes
// a panel read is kept; a refusal is a 400 naming stream_url or cache_minutes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminPanelView } from "@/shared/business-schemas";
import type { PanelSettings } from "@/shared/panel-settings";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function savePanelSettings(settings: PanelSettings): Promise<AdminPanelView> {
  return apiSend<AdminPanelView>("PUT", "/admin/panel/settings", settings);
}

export function useSavePanelSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePanelSettings,
    onSuccess: (view) => queryClient.setQueryData(adminKeys.panel, view),
  });
}
