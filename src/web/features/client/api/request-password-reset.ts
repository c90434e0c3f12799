// POST /api/client/password-reset/request {identifier}: the same answer whether or not an account matched.
import { useMutation } from "@tanstack/react-query";
import type { PasswordResetRequest } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";

export function requestPasswordReset(input: PasswordResetRequest): Promise<{ success: true; message: string }> {
  return apiSend<{ success: true; message: string }>("POST", "/client/password-reset/request", input);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
