// POST /api/admin/password {currentPassword, newPassword} → {success: true}; the admin's other
// sessions end. A wrong current password is a 400 naming currentPassword.
import { useMutation } from "@tanstack/react-query";
import type { PasswordChange } from "@/shared/admin-schemas";
import { apiSend } from "@/web/lib/api";

export function changePassword(input: PasswordChange): Promise<{ success: true }> {
  return apiSend<{ success: true }>("POST", "/admin/password", input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
