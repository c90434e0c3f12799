// GET /api/admin/whatsapp/templates → {data, kinds, variables, cloud_api}: the approved template
// sent outside WhatsApp's 24-hour window for each kind of message.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WhatsAppTemplatesResponse } from "@/shared/messaging";
import { apiGet } from "@/web/lib/api";

/** Under ["admin", <table>], so the change feed's rule for admin keys applies. */
export const whatsappTemplatesKey = ["admin", "whatsapp_templates"] as const;

export const whatsappTemplatesQuery = () =>
  queryOptions({
    queryKey: whatsappTemplatesKey,
    queryFn: ({ signal }) => apiGet<WhatsAppTemplatesResponse>("/admin/whatsapp/templates", { signal }),
  });

export function useWhatsAppTemplates(enabled = true) {
  return useQuery({ ...whatsappTemplatesQuery(), enabled });
}
