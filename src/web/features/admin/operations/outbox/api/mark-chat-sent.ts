// POST /api/admin/outbox/mark-sent {ids} → {success, data: messages}: the owner sent a person's
// waiting messages in one chat ("Mark all sent"); each is marked sent and audited on its own, one
// already sent is left as it was.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";
import type { OutboxMessage } from "./get-outbox";

export async function markChatSent(ids: string[]): Promise<OutboxMessage[]> {
  const answer = await apiSend<{ success: true; data: OutboxMessage[] }>("POST", "/admin/outbox/mark-sent", { ids });
  return answer.data;
}

export function useMarkChatSent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markChatSent,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: opsKeys.outbox });
      void queryClient.invalidateQueries({ queryKey: ["admin", "stats"] });
    },
  });
}
