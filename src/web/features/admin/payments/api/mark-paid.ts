// POST /api/admin/payments/:id/mark-paid {note?} → {data: payment}: money received (e.g. an EFT
// that reflected). The server extends the client's subscription and queues the receipt.
import { useMutation } from "@tanstack/react-query";
import type { AdminPayment } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { emitPaymentEvent } from "../../live/use-admin-live-data";

export async function markPaymentPaid(id: string, note = ""): Promise<AdminPayment> {
  const answer = await apiSend<{ data: AdminPayment }>("POST", `/admin/payments/${encodeURIComponent(id)}/mark-paid`, { note });
  return answer.data;
}

export function useMarkPaid() {
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) => markPaymentPaid(id, note),
    // spec §7: paymentCaptured refreshes clients and payments (use-admin-live-data.ts)
    onSuccess: (payment) => emitPaymentEvent("paymentCaptured", payment.id),
  });
}
