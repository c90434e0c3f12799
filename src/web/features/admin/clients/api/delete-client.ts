// DELETE /api/admin/clients/:id → 204; their payments stay on the books without them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function deleteClient(id: string): Promise<void> {
  return apiSend<void>("DELETE", `/admin/clients/${encodeURIComponent(id)}`);
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClient,
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: adminKeys.client(id) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
