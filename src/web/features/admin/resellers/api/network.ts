// GET /api/admin/resellers/network?months=6 → per partner per month (sold, given, spent, lines)
// and the runway with partner demand; GET /api/admin/resellers/orders → partners' credit orders;
// POST /api/admin/resellers/orders/:id/retry → a refused order sent again once topped up.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreditOrderView, NetworkView } from "@/shared/reseller-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { resellersKey } from "./get-resellers";

export type OwnerCreditOrder = CreditOrderView & { partner: string };

export const networkKey = [...resellersKey, "network"] as const;
export const creditOrdersKey = [...resellersKey, "orders"] as const;

export const networkQuery = queryOptions({
  queryKey: networkKey,
  queryFn: ({ signal }) => apiGet<NetworkView>("/admin/resellers/network?months=6", { signal }),
});
export const creditOrdersQuery = queryOptions({
  queryKey: creditOrdersKey,
  queryFn: ({ signal }) => apiGet<{ data: OwnerCreditOrder[] }>("/admin/resellers/orders", { signal }).then((a) => a.data),
});

export const useNetwork = () => useQuery(networkQuery);
export const useCreditOrders = () => useQuery(creditOrdersQuery);

export function useRetryOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<{ data: OwnerCreditOrder }>("POST", `/admin/resellers/orders/${encodeURIComponent(id)}/retry`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resellersKey }),
  });
}
