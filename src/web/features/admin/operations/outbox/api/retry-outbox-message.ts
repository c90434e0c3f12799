// POST /api/admin/outbox/:id/retry → {success, data: message}: a failed or waiting message is
// sent again soon (409 when it was already sent or is being sent right now).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";
import type { OutboxMessage } from "./get-outbox";

export async function retryOutboxMessage(id: string): Promise<OutboxMessage> {
  const answer = await apiSend<{ success: true; data: OutboxMessage }>("POST", `/admin/outbox/${encodeURIComponent(id)}/retry`);
  return answer.data;
}

export function useRetryOutboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryOutboxMessage,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: opsKeys.outbox });
      void queryClient.invalidateQueries({ queryKey: ["admin", "stats"] });
    },
  });
}
