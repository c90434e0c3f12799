// POST /api/admin/panel/drift/:id/fix {direction} → {data: the difference, fixed}: ours pushed
// to the panel, or the panel's accepted as ours (409 with the reason when that side can't be
// taken). POST /api/admin/panel/sync compares the panel with ours now ("Check now").
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PanelDriftFix, PanelDriftView } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function fixPanelDrift({ id, direction }: { id: string } & PanelDriftFix): Promise<PanelDriftView> {
  return (await apiSend<{ data: PanelDriftView }>("POST", `/admin/panel/drift/${encodeURIComponent(id)}/fix`, { direction })).data;
}

export interface PanelSyncResult {
  checked: number;
  flagged: number;
  lines_read: number;
}

export async function syncPanel(): Promise<PanelSyncResult> {
  return (await apiSend<{ data: PanelSyncResult }>("POST", "/admin/panel/sync")).data;
}

export function useFixPanelDrift() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fixPanelDrift,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.panel });
      void queryClient.invalidateQueries({ queryKey: adminKeys.provisioning });
    },
  });
}

export function useSyncPanel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: syncPanel, onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.panel }) });
}
