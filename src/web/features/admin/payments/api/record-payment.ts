// POST /api/admin/payments {client_id, package_id, amount, note?, paid_at?} → 201 {data: payment}:
// money taken by hand, paid at once; the client's subscription is extended and a receipt queued.
import { useMutation } from "@tanstack/react-query";
import type { AdminPayment, PaymentCreate } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { emitPaymentEvent } from "../../live/use-admin-live-data";

export async function recordPayment(input: PaymentCreate): Promise<AdminPayment> {
  const answer = await apiSend<{ data: AdminPayment }>("POST", "/admin/payments", input);
  return answer.data;
}

export function useRecordPayment() {
  return useMutation({
    mutationFn: recordPayment,
    onSuccess: (payment) => emitPaymentEvent("paymentCaptured", payment.id),
  });
}
