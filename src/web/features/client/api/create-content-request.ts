// POST /api/client/content-requests {request_type, title, details} → 201 {data}.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientContentRequest } from "@/shared/client-schemas";
import type { ContentRequestInput } from "@/shared/schemas";
import { apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function createContentRequest(input: ContentRequestInput): Promise<ClientContentRequest> {
  return (await apiSend<{ data: ClientContentRequest }>("POST", "/client/content-requests", input)).data;
}

export function useCreateContentRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createContentRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.contentRequests }),
  });
}
