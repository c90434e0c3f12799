// PUT /api/admin/whatsapp/templates/:kind {template_name, language_code, params, enabled} → {data};
// DELETE /api/admin/whatsapp/templates/:kind → 204.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WhatsAppTemplateInput, WhatsAppTemplateSetting } from "@/shared/messaging";
import { apiSend } from "@/web/lib/api";
import { whatsappTemplatesKey } from "./get-whatsapp-templates";

const path = (kind: string) => `/admin/whatsapp/templates/${encodeURIComponent(kind)}`;

export async function saveWhatsAppTemplate({ kind, input }: { kind: string; input: WhatsAppTemplateInput }) {
  return (await apiSend<{ success: true; data: WhatsAppTemplateSetting }>("PUT", path(kind), input)).data;
}

export async function deleteWhatsAppTemplate(kind: string): Promise<void> {
  await apiSend<void>("DELETE", path(kind));
}

export function useSaveWhatsAppTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWhatsAppTemplate,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappTemplatesKey }),
  });
}

export function useDeleteWhatsAppTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWhatsAppTemplate,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappTemplatesKey }),
  });
}
