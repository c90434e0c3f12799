// POST /api/admin/clients/:id/reset-password → {queued_to}: the old password stops working, the
// client's sessions end, and a link to choose a new one is queued to them (where, masked).
import { useMutation } from "@tanstack/react-query";
import type { PasswordLinkQueued } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";

export function resetClientPassword(id: string): Promise<PasswordLinkQueued> {
  return apiSend<PasswordLinkQueued>("POST", `/admin/clients/${encodeURIComponent(id)}/reset-password`);
}

export function useResetClientPassword() {
  return useMutation({ mutationFn: resetClientPassword });
}
