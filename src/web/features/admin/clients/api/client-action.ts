// POST /api/admin/clients/:id/suspend | reactivate | extend {package_id?} → {data: client}.
// One file for the three because they share their request, answer and refresh: each changes
// the client's status or period and nothing else.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminClient } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export type ClientAction = "suspend" | "reactivate" | "extend";

export async function runClientAction(id: string, action: ClientAction, body: { package_id?: string } = {}): Promise<AdminClient> {
  const answer = await apiSend<{ data: AdminClient }>("POST", `/admin/clients/${encodeURIComponent(id)}/${action}`, body);
  return answer.data;
}

export function useClientAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: ClientAction; body?: { package_id?: string } }) =>
      runClientAction(id, action, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
