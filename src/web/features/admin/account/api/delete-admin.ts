// DELETE /api/admin/admins/:id → {success: true}; their sessions end. The server refuses (409)
// to remove the last admin.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { adminsKey } from "./get-admins";

export function deleteAdmin(id: string): Promise<{ success: true }> {
  return apiSend<{ success: true }>("DELETE", `/admin/admins/${encodeURIComponent(id)}`);
}

export function useDeleteAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdmin,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminsKey }),
  });
}
