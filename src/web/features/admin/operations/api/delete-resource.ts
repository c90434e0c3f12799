// DELETE /api/admin/<resource>/:id → {success: true}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { type AdminResource, resourceUrl } from "./resource";

export function deleteResource(resource: AdminResource, id: string): Promise<{ success: true }> {
  return apiSend<{ success: true }>("DELETE", resourceUrl(resource, id));
}

export function useDeleteResource(resource: AdminResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteResource(resource, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.key }),
  });
}
