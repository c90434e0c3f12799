// POST /api/status/check: run the health monitor now (spec §7 system-health-monitor). The
// status is refetched 2 s later, when the fresh results have been written.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { StatusCheckResponse } from "@/shared/api";
import { STATUS_REFETCH_AFTER_CHECK_MS } from "@/shared/retry";
import { apiSend } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export function runStatusCheck(): Promise<StatusCheckResponse> {
  return apiSend<StatusCheckResponse>("POST", "/status/check");
}

/** The check, plus the spec's refetch of the status 2 s after it answers. */
export function useRunStatusCheck() {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useMutation({
    mutationFn: runStatusCheck,
    onSuccess: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.status }).finally(resolve);
        }, STATUS_REFETCH_AFTER_CHECK_MS);
      }),
  });
}
