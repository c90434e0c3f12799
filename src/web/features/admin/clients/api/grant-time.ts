// POST /api/admin/clients/:id/grant {months, days, reason} → {data: client}: complimentary time,
// always with a reason, recorded in the client's lifecycle history. It never records a payment.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminClient, ClientGrant } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function grantTime(id: string, grant: ClientGrant): Promise<AdminClient> {
  const answer = await apiSend<{ data: AdminClient }>("POST", `/admin/clients/${encodeURIComponent(id)}/grant`, grant);
  return answer.data;
}

export function useGrantTime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, grant }: { id: string; grant: ClientGrant }) => grantTime(id, grant),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
