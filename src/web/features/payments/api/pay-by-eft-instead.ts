// POST /api/payments/:ref/eft → the EFT details (reference, amount, bank) for the same package
// and payer as a card payment that failed or was cancelled: "Pay by EFT instead" on its result
// page. 409 when the shop's bank details are not filled in, or the payment did not fail.
import { useMutation } from "@tanstack/react-query";
import type { EftResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export function payByEftInstead(ref: string): Promise<EftResponse> {
  return apiSend<EftResponse>("POST", `/payments/${encodeURIComponent(ref)}/eft`);
}

export function usePayByEftInstead() {
  return useMutation({ mutationFn: payByEftInstead });
}
