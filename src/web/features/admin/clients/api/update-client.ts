// PATCH /api/admin/clients/:id {any client field} → {data: client}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminClient, ClientPatch } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function updateClient(id: string, patch: ClientPatch): Promise<AdminClient> {
  const answer = await apiSend<{ data: AdminClient }>("PATCH", `/admin/clients/${encodeURIComponent(id)}`, patch);
  return answer.data;
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ClientPatch }) => updateClient(id, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.clients }),
  });
}
