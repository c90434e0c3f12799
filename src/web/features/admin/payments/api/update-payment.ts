// PATCH /api/admin/payments/:id {client_id?, notes?} → {data: payment}: link a payment (usually a
// pending EFT) to its client, or edit its notes. Linking alone buys no time.
import { useMutation } from "@tanstack/react-query";
import type { AdminPayment, PaymentPatch } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { emitPaymentEvent } from "../../live/use-admin-live-data";

export async function updatePayment(id: string, patch: PaymentPatch): Promise<AdminPayment> {
  const answer = await apiSend<{ data: AdminPayment }>("PATCH", `/admin/payments/${encodeURIComponent(id)}`, patch);
  return answer.data;
}

export function useUpdatePayment() {
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PaymentPatch }) => updatePayment(id, patch),
    onSuccess: (payment) => emitPaymentEvent("paymentUpdated", payment.id),
  });
}
