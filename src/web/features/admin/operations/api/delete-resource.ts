// DELETE /api/admin/<resource>/:id → {success: true}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { deleteAdminRow } from "../../api/admin-crud";
import type { AdminResource } from "./resource";

export function useDeleteResource(resource: AdminResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteAdminRow(resource.path, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.key }),
  });
}
