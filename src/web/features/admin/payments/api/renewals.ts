// Automatic renewals (issue 44; server: modules/auto-renew/routes.ts):
//   GET  /api/admin/renewals     → {data: RenewalsOverview}
//   POST /api/admin/renewals/run → {data: what the pass did} (audited; safe to repeat)
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RenewalsOverview } from "@/shared/auto-renew";
import { apiGet, apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export interface RenewalRunResult {
  noticed: number;
  charged: number;
  declined: number;
  unknown: number;
  cancelled: number;
}

export function useRenewals() {
  return useQuery({
    queryKey: adminKeys.renewals,
    queryFn: ({ signal }) => apiGet<{ data: RenewalsOverview }>("/admin/renewals", { signal }).then((r) => r.data),
  });
}

export function useRunRenewals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ data: RenewalRunResult }>("POST", "/admin/renewals/run").then((r) => r.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.renewals }),
  });
}
