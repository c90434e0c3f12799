// A client flagged as possibly another (issue 24: a payment's payer gave that client's number or
// e-mail address without proving it). The owner decides:
//   POST /api/admin/clients/:id/merge             → {data: {kept, merged}} (409: already merged, not flagged)
//   POST /api/admin/clients/:id/dismiss-duplicate → {data: client} (409: both have the same number)
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminClient } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export interface MergeAnswer {
  kept: AdminClient;
  merged: AdminClient;
}

const path = (id: string, action: "merge" | "dismiss-duplicate") => `/admin/clients/${encodeURIComponent(id)}/${action}`;

export async function mergeDuplicate(id: string): Promise<MergeAnswer> {
  return (await apiSend<{ data: MergeAnswer }>("POST", path(id, "merge"), {})).data;
}

export async function dismissDuplicate(id: string): Promise<AdminClient> {
  return (await apiSend<{ data: AdminClient }>("POST", path(id, "dismiss-duplicate"), {})).data;
}

/** Both change clients, payments, invoices and the kept client's term: refresh what shows them. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
    void queryClient.invalidateQueries({ queryKey: adminKeys.payments });
    void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
  };
}

export function useMergeDuplicate() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: mergeDuplicate, onSuccess: refresh });
}

export function useDismissDuplicate() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: dismissDuplicate, onSuccess: refresh });
}
