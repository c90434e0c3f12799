// POST /api/partner/login {username, password} → the sd_partner cookie; POST /api/partner/logout.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { partnerKeys } from "./partner-keys";

export function partnerLogin(username: string, password: string) {
  return apiSend<{ partner: { name: string; username: string } }>("POST", "/partner/login", { username, password });
}

export function usePartnerLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, password }: { username: string; password: string }) => partnerLogin(username, password),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.all }),
  });
}

export function usePartnerLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ success: boolean }>("POST", "/partner/logout"),
    onSettled: () => queryClient.resetQueries({ queryKey: partnerKeys.all }),
  });
}
