// PUT /api/admin/whatsapp/templates/:kind/words {words} → {shop}: the owner's words for a template
// not yet submitted to Meta (400 on words naming what Meta would refuse; 409 once Meta has it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ShopTemplatesView } from "@/shared/whatsapp-templates";
import { apiSend } from "@/web/lib/api";
import { whatsappTemplatesKey } from "./get-whatsapp-templates";

export async function saveTemplateWords({ kind, words }: { kind: string; words: string }) {
  return apiSend<{ success: true; shop: ShopTemplatesView }>("PUT", `/admin/whatsapp/templates/${encodeURIComponent(kind)}/words`, {
    words,
  });
}

export function useSaveTemplateWords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTemplateWords,
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappTemplatesKey }),
  });
}
