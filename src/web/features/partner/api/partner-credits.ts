// GET /api/partner/credits/offer → {pricing, methods}; POST /api/partner/credits/checkout
// {credits, method} → 201 {order, pay_url, bank}; GET /api/partner/credits/orders → {data}.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreditCheckoutAnswer, CreditOffer, CreditOrderView } from "@/shared/reseller-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { partnerKeys } from "./partner-keys";

export const creditOfferQuery = queryOptions({
  queryKey: partnerKeys.offer,
  queryFn: ({ signal }) => apiGet<CreditOffer>("/partner/credits/offer", { signal }),
});

export const useCreditOffer = () => useQuery(creditOfferQuery);

/** Their orders; asked again every few seconds while one is paid and its credits are on the way, or not paid yet. */
export function useCreditOrders() {
  return useQuery({
    queryKey: partnerKeys.orders,
    queryFn: ({ signal }) => apiGet<{ data: CreditOrderView[] }>("/partner/credits/orders", { signal }).then((a) => a.data),
    refetchInterval: (query) => (query.state.data?.some((o) => o.status === "paid" || o.status === "pending") ? 4000 : false),
  });
}

export function useBuyCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { credits: number; method: string }) => apiSend<CreditCheckoutAnswer>("POST", "/partner/credits/checkout", input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.orders }),
  });
}
