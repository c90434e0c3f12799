// POST /api/admin/payments/:id/refund {amount?, reason, term?, days?} → {data: RefundResult}:
// a credit note against the payment's invoice; the card provider refunds it where it can, and
// the term follows the choice made (modules/billing on the server).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundRequest, RefundResult } from "@/shared/billing";
import { apiSend } from "@/web/lib/api";
import { emitPaymentEvent } from "../../live/use-admin-live-data";

export async function refundPayment(id: string, refund: RefundRequest): Promise<RefundResult> {
  const answer = await apiSend<{ data: RefundResult }>("POST", `/admin/payments/${encodeURIComponent(id)}/refund`, refund);
  return answer.data;
}

export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, refund }: { id: string; refund: RefundRequest }) => refundPayment(id, refund),
    onSuccess: (_result, { id }) => {
      emitPaymentEvent("paymentUpdated", id);
      void queryClient.invalidateQueries({ queryKey: ["admin", "billing"] });
    },
  });
}
