// GET /api/admin/whatsapp/templates → {data, kinds, variables, cloud_api, shop}: the approved template
// sent outside WhatsApp's 24-hour window for each kind of message, and (shop) the templates
// submitted to Meta from the dashboard with their review states.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WhatsAppTemplatesWithShop } from "@/shared/whatsapp-templates";
import { apiGet } from "@/web/lib/api";

/** Under ["admin", <table>], so the change feed's rule for admin keys applies. */
export const whatsappTemplatesKey = ["admin", "whatsapp_templates"] as const;

export const whatsappTemplatesQuery = () =>
  queryOptions({
    queryKey: whatsappTemplatesKey,
    queryFn: ({ signal }) => apiGet<WhatsAppTemplatesWithShop>("/admin/whatsapp/templates", { signal }),
  });

export function useWhatsAppTemplates(enabled = true) {
  return useQuery({ ...whatsappTemplatesQuery(), enabled });
}
