// PUT /api/admin/branding {company_name?, tagline?, whatsapp_number?, support_email?} → {data: map}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BrandingUpdate } from "@/shared/admin-schemas";
import type { BrandingMap } from "@/shared/api";
import { apiSend } from "@/web/lib/api";
import { brandingKey } from "./get-branding";

export function updateBranding(update: BrandingUpdate): Promise<{ data: BrandingMap }> {
  return apiSend<{ data: BrandingMap }>("PUT", "/admin/branding", update);
}

export function useUpdateBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBranding,
    onSuccess: (answer) => {
      queryClient.setQueryData([...brandingKey, "map"], answer);
      void queryClient.invalidateQueries({ queryKey: brandingKey });
    },
  });
}
