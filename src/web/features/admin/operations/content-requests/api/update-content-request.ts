// PATCH /api/admin/content-requests/:id {status?, reply?} → {data: request}; a new reply is
// queued to the client on their channel (it shows in the outbox).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminContentRequest, ContentRequestPatch } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export async function updateContentRequest(id: string, patch: ContentRequestPatch): Promise<AdminContentRequest> {
  const answer = await apiSend<{ data: AdminContentRequest }>("PATCH", `/admin/content-requests/${encodeURIComponent(id)}`, patch);
  return answer.data;
}

export function useUpdateContentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ContentRequestPatch }) => updateContentRequest(id, patch),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: opsKeys.contentRequests });
      void queryClient.invalidateQueries({ queryKey: opsKeys.outbox });
    },
  });
}
