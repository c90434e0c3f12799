// POST /api/admin/clients/:id/suspend | reactivate → {data: client}. One file for the two
// because they share their request, answer and refresh: each changes the client's status and
// nothing else. A second suspend is a 409 ('This client is already suspended.').
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminClient } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export type ClientAction = "suspend" | "reactivate";

export async function runClientAction(id: string, action: ClientAction): Promise<AdminClient> {
  const answer = await apiSend<{ data: AdminClient }>("POST", `/admin/clients/${encodeURIComponent(id)}/${action}`, {});
  return answer.data;
}

export function useClientAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ClientAction }) => runClientAction(id, action),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
