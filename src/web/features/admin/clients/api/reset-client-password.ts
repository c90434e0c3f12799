// POST /api/admin/clients/:id/reset-password → {password}: a new portal password, answered once;
// the client's sessions end.
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";

export function resetClientPassword(id: string): Promise<{ password: string }> {
  return apiSend<{ password: string }>("POST", `/admin/clients/${encodeURIComponent(id)}/reset-password`);
}

export function useResetClientPassword() {
  return useMutation({ mutationFn: resetClientPassword });
}
