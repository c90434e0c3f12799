// POST /api/admin/payments/:id/refund {note?} → {data: payment}: records a refund (only a paid
// payment); the subscription is left as it is.
import { useMutation } from "@tanstack/react-query";
import type { AdminPayment } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { emitPaymentEvent } from "../../live/use-admin-live-data";

export async function refundPayment(id: string, note = ""): Promise<AdminPayment> {
  const answer = await apiSend<{ data: AdminPayment }>("POST", `/admin/payments/${encodeURIComponent(id)}/refund`, { note });
  return answer.data;
}

export function useRefundPayment() {
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) => refundPayment(id, note),
    onSuccess: (payment) => emitPaymentEvent("paymentUpdated", payment.id),
  });
}
