// POST /api/admin/whatsapp/templates/submit → {data: {created, existing, refused}, shop}: creates at Meta
// every template the shop uses that Meta does not have yet; 409 naming a missing setting.
// POST /api/admin/whatsapp/templates/refresh → {data: {changed}, shop}: Meta's review states read again.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ShopTemplatesView, SubmitTemplatesResult } from "@/shared/whatsapp-templates";
import { apiSend } from "@/web/lib/api";
import { whatsappTemplatesKey } from "./get-whatsapp-templates";

export async function submitWhatsAppTemplates() {
  return apiSend<{ success: true; data: SubmitTemplatesResult; shop: ShopTemplatesView }>("POST", "/admin/whatsapp/templates/submit");
}

export async function refreshWhatsAppTemplates() {
  return apiSend<{ success: true; data: { changed: number }; shop: ShopTemplatesView }>("POST", "/admin/whatsapp/templates/refresh");
}

export function useSubmitWhatsAppTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitWhatsAppTemplates,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappTemplatesKey }),
  });
}

export function useRefreshWhatsAppTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshWhatsAppTemplates,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappTemplatesKey }),
  });
}
