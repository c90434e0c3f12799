// PUT /api/admin/panel/mapping {packages: {<our package id>: <panel package id> | ""}, trial}
// → the panel view again. "" unmaps. A refusal is a 400 naming "packages.<id>" or "trial".
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminPanelView } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export interface PanelMapping {
  packages: Record<string, string>;
  trial: string;
  /** our package id → the panel package's bouquets it includes ([]: all); sent for packages whose panel package has bouquets */
  bouquets?: Record<string, string[]>;
}

export function savePanelMapping(mapping: PanelMapping): Promise<AdminPanelView> {
  return apiSend<AdminPanelView>("PUT", "/admin/panel/mapping", mapping);
}

export function useSavePanelMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePanelMapping,
    onSuccess: (view) => queryClient.setQueryData(adminKeys.panel, view),
  });
}
