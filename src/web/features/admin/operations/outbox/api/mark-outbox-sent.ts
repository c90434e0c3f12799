// POST /api/admin/outbox/:id/mark-sent → {success, data: message}: the owner sent it by hand
// (the "To send on WhatsApp" queue); 409 when it was already sent.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";
import type { OutboxMessage } from "./get-outbox";

export async function markOutboxSent(id: string): Promise<OutboxMessage> {
  const answer = await apiSend<{ success: true; data: OutboxMessage }>("POST", `/admin/outbox/${encodeURIComponent(id)}/mark-sent`);
  return answer.data;
}

export function useMarkOutboxSent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markOutboxSent,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: opsKeys.outbox });
      void queryClient.invalidateQueries({ queryKey: ["admin", "stats"] });
    },
  });
}
