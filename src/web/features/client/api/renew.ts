// POST /api/client/renew {packageId?, method}: a pay link (card, or a provider the owner turned on beside it), or an EFT reference and bank details.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientRenewResponse, RenewRequest } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export interface RenewInput {
  packageId?: string;
  method: RenewRequest["method"];
  /** a coupon code, priced on the server */
  coupon?: string;
}

export function renew(input: RenewInput): Promise<ClientRenewResponse> {
  return apiSend<ClientRenewResponse>("POST", "/client/renew", input);
}

export function useRenew() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renew,
    // A new pending payment (the EFT reference, the card attempt) shows in the history.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.payments }),
  });
}
