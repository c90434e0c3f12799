// POST /api/admin/<resource> → 201 the row; PATCH /api/admin/<resource>/:id → the row.
// One hook for both: the editor dialogs create when they have no id and patch when they do.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { type AdminResource, resourceUrl } from "./resource";

export function saveResource<T>(resource: AdminResource, body: unknown, id?: string): Promise<T> {
  return apiSend<T>(id ? "PATCH" : "POST", resourceUrl(resource, id), body);
}

export function useSaveResource<T>(resource: AdminResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, id }: { body: unknown; id?: string }) => saveResource<T>(resource, body, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.key }),
  });
}
