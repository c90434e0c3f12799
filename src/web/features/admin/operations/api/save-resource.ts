// POST /api/admin/<resource> → 201 the row; PATCH /api/admin/<resource>/:id → the row.
// One hook for both: the editor dialogs create when they have no id and patch when they do.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createAdminRow, updateAdminRow } from "../../api/admin-crud";
import type { AdminResource } from "./resource";

export function useSaveResource<T>(resource: AdminResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, id }: { body: unknown; id?: string }) =>
      id ? updateAdminRow<T>(resource.path, id, body) : createAdminRow<T>(resource.path, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resource.key }),
  });
}
