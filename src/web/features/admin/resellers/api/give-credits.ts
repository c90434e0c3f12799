// POST /api/admin/resellers/:id/credits {credits, note} (Idempotency-Key) → {data: the transfer}:
// credits given to a partner (negative: taken back), once per key however often it is sent.
// Too few credits on either side is a 409 whose message gives the balance; nothing moved.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreditTransfer } from "@/shared/reseller-schemas";
import { apiSend } from "@/web/lib/api";
import { resellersKey } from "./get-resellers";

export async function giveCredits(id: string, credits: number, note: string, key: string): Promise<CreditTransfer> {
  const answer = await apiSend<{ data: CreditTransfer }>(
    "POST",
    `/admin/resellers/${encodeURIComponent(id)}/credits`,
    { credits, note },
    { headers: { "Idempotency-Key": key } },
  );
  return answer.data;
}

export function useGiveCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, credits, note, key }: { id: string; credits: number; note: string; key: string }) =>
      giveCredits(id, credits, note, key),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resellersKey }),
  });
}
