// POST /api/admin/clients → 201 {client, queued_to}: no password; where their welcome with a link to choose one was queued (masked).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientCreate, ClientCreated } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function createClient(input: ClientCreate): Promise<ClientCreated> {
  return apiSend<ClientCreated>("POST", "/admin/clients", input);
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
