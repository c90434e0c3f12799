// POST /api/client/password {currentPassword, newPassword}: other devices are signed out.
import { useMutation } from "@tanstack/react-query";
import type { PasswordChange } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";

export function changePassword(input: PasswordChange): Promise<{ success: true }> {
  return apiSend<{ success: true }>("POST", "/client/password", input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
