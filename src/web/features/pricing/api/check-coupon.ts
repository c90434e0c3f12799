// POST /api/payments/coupon {packageId, coupon, whatsapp?} → {data: CouponQuote}: what a coupon
// takes off this package for this customer (nothing is written); a refusal says why.
import type { CouponQuote } from "@/shared/billing";
import { ApiError, apiSend } from "@/web/lib/api";

export async function checkCoupon(request: {
  packageId: string;
  coupon: string;
  whatsapp?: string;
}): Promise<{ ok: true; quote: CouponQuote } | { ok: false; message: string }> {
  try {
    return { ok: true, quote: (await apiSend<{ data: CouponQuote }>("POST", "/payments/coupon", request)).data };
  } catch (error) {
    if (error instanceof ApiError && error.status > 0) return { ok: false, message: error.fields.coupon ?? error.message };
    return { ok: false, message: "We could not check the coupon just now. Please try again." };
  }
}
