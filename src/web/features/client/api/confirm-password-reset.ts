// POST /api/client/password-reset/confirm {token, password}: a new password; every session ends.
import { useMutation } from "@tanstack/react-query";
import type { PasswordResetConfirm } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";

export function confirmPasswordReset(input: PasswordResetConfirm): Promise<{ success: true; message: string }> {
  return apiSend<{ success: true; message: string }>("POST", "/client/password-reset/confirm", input);
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
