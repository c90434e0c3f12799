// POST /api/admin/packages/reorder {ids} → {data: packages}: sort_order follows the list (1, 2, ...).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ListResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";
import { announceChange, resourceKey } from "./resources";
import type { AdminPackage } from "./types";

export function reorderPackages(ids: string[]): Promise<ListResponse<AdminPackage>> {
  return apiSend<ListResponse<AdminPackage>>("POST", "/admin/packages/reorder", { ids });
}

export function useReorderPackages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderPackages,
    onSuccess: (answer) => {
      queryClient.setQueryData([...resourceKey("packages"), "list"], answer);
      announceChange("packages");
      void queryClient.invalidateQueries({ queryKey: resourceKey("packages") });
    },
  });
}
