// POST /api/admin/status/check → {success, ran, checked_at}: the health monitor runs now (an
// admin skips the 30 s wait); every status list is refetched after.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { StatusCheckResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export function runStatusCheck(): Promise<StatusCheckResponse> {
  return apiSend<StatusCheckResponse>("POST", "/admin/status/check");
}

export function useRunStatusCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runStatusCheck,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: opsKeys.components }),
        queryClient.invalidateQueries({ queryKey: opsKeys.statusHistory }),
        queryClient.invalidateQueries({ queryKey: opsKeys.incidents }),
      ]),
  });
}
