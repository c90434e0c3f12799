// POST /api/payments/paylink: the server prices the package (special included), records who is
// paying and answers the provider's pay link (201 {success, paylinkUrl, externalTransactionID}).
import type { HostedPaymentMethod, PaylinkResponse } from "@/shared/api";
import type { LineType } from "@/shared/device-lines";
import type { Payer } from "@/shared/schemas";
import { apiSend } from "@/web/lib/api";

/** A payment asked for from the review step: the package and the payer, who agreed to start at once. */
export interface PaymentRequest extends Payer {
  packageId: string;
  /** the one-time code that proves the payer is the client their number belongs to */
  verificationCode?: string;
  /** a provider the owner turned on beside the card provider, instead of it */
  method?: HostedPaymentMethod;
  /** the device the line is for: an app (m3u) or a box with its MAC (issue 32) */
  lineType?: LineType;
  mac?: string;
  /** "Renew automatically with this card" (issue 44): only with a provider that keeps the card */
  autoRenew?: boolean;
}

export function createPaylink(request: PaymentRequest): Promise<PaylinkResponse> {
  return apiSend<PaylinkResponse>("POST", "/payments/paylink", request);
}
