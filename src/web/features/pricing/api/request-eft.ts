// POST /api/payments/eft: the same request as a pay link; the answer is the amount, a reference
// and the business's bank details, for paying by EFT when card payments are off.
import type { EftResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";
import type { PaymentRequest } from "./create-paylink";

export function requestEft(request: PaymentRequest): Promise<EftResponse> {
  return apiSend<EftResponse>("POST", "/payments/eft", request);
}
