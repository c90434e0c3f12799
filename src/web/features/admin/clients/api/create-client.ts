// POST /api/admin/clients → 201 {client, password}: the portal password is answered this once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientCreate, ClientWithPassword } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function createClient(input: ClientCreate): Promise<ClientWithPassword> {
  return apiSend<ClientWithPassword>("POST", "/admin/clients", input);
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
