// POST /api/admin/resellers {name, email, whatsapp, username?} (Idempotency-Key) → 201 {id,
// username, panel_user_id}: the partner made on the panel once, their set-password link sent.
// The same key on a retry answers the same partner; a taken username is a 409 on `username`.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NewReseller } from "@/shared/reseller-schemas";
import { apiSend } from "@/web/lib/api";
import { resellersKey } from "./get-resellers";

export interface AddedReseller {
  id: string;
  username: string;
  panel_user_id: string | null;
}

export function addReseller(input: NewReseller, key: string): Promise<AddedReseller> {
  return apiSend<AddedReseller>("POST", "/admin/resellers", input, { headers: { "Idempotency-Key": key } });
}

export function useAddReseller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: NewReseller; key: string }) => addReseller(input, key),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resellersKey }),
  });
}
