// GET /api/admin/resellers/settings → {member_group_id, pricing}; PUT /api/admin/resellers/settings
// {member_group_id}; PUT /api/admin/resellers/pricing {price_per_credit, tiers} (400 with each
// field's words when it is not a price list).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreditPricing } from "@/shared/reseller-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { resellersKey } from "./get-resellers";

export interface ResellerSettings {
  member_group_id: string;
  pricing: CreditPricing | null;
}

export const resellerSettingsKey = [...resellersKey, "settings"] as const;

export const resellerSettingsQuery = queryOptions({
  queryKey: resellerSettingsKey,
  queryFn: ({ signal }) => apiGet<ResellerSettings>("/admin/resellers/settings", { signal }),
});

export const useResellerSettings = () => useQuery(resellerSettingsQuery);

export function useSaveResellerSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ memberGroup, pricing }: { memberGroup: string | null; pricing: CreditPricing | null }) => {
      if (memberGroup !== null) await apiSend("PUT", "/admin/resellers/settings", { member_group_id: memberGroup });
      if (pricing) await apiSend("PUT", "/admin/resellers/pricing", pricing);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: resellerSettingsKey }),
  });
}
