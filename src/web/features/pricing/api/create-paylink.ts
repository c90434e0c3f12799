// POST /api/payments/paylink {packageId}: the server prices the package (special included)
// and answers the provider's pay link.
import type { PaylinkResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export function createPaylink(packageId: string): Promise<PaylinkResponse> {
  return apiSend<PaylinkResponse>("POST", "/payments/paylink", { packageId });
}
