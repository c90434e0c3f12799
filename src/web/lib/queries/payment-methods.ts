// GET /api/payments/methods: which ways to pay are on (card by the real card provider, the test
// checkout or off; the providers beside it the owner turned on; EFT on once the owner has filled in
// the bank details; their words are GET /api/payment-providers'. The card mode follows the
// server's configuration; EFT follows the settings, refetched when they change (query-keys.ts).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentMethods } from "@/shared/api";
import { CARD_PROVIDER_NAMES } from "@/shared/payment-providers";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export async function getPaymentMethods(signal?: AbortSignal): Promise<PaymentMethods> {
  const body = await apiGet<{ data: PaymentMethods }>("/payments/methods", { signal });
  return body.data;
}

export const paymentMethodsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.paymentMethods,
    queryFn: ({ signal }) => getPaymentMethods(signal),
    staleTime: 10 * 60_000,
    gcTime: 30 * 60_000,
    retry: 2,
  });

/**
 * The ways to pay; undefined while they load. When they cannot be read, card payments are
 * assumed on: the server still says no, in its own words, if they are not.
 */
export function usePaymentMethods(): PaymentMethods | undefined {
  const { data, isError } = useQuery(paymentMethodsQueryOptions());
  return data ?? (isError ? { card: CARD_PROVIDER_NAMES[0], eft: false, providers: [] } : undefined);
}
