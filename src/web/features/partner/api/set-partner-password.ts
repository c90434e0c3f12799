// POST /api/partner/password {token, password} → {success, message}: the invite link's password, once.
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";

export function setPartnerPassword(token: string, password: string) {
  return apiSend<{ success: boolean; message: string }>("POST", "/partner/password", { token, password });
}

export function useSetPartnerPassword() {
  return useMutation({ mutationFn: ({ token, password }: { token: string; password: string }) => setPartnerPassword(token, password) });
}
