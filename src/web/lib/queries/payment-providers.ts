// GET /api/payment-providers: every payment provider the server registers, as the pages show it
// (label, name in a sentence, mark, whether it is the test checkout, what it can do). The pages
// never name a provider; they look up the name a payment or GET /api/payments/methods gives here.
// Facts of the server's code: read once per visit.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentProviderInfo } from "@/shared/api";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export async function getPaymentProviders(signal?: AbortSignal): Promise<PaymentProviderInfo[]> {
  const body = await apiGet<{ data: PaymentProviderInfo[] }>("/payment-providers", { signal });
  return body.data;
}

export const paymentProvidersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.paymentProviders,
    queryFn: ({ signal }) => getPaymentProviders(signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: 2,
  });

/** Every registered provider; undefined while they load (or when they cannot be read: the pages then show the bare name). */
export function usePaymentProviders(): PaymentProviderInfo[] | undefined {
  return useQuery(paymentProvidersQueryOptions()).data;
}

/** One provider by the name a payment or GET /api/payments/methods gives; undefined for EFT, manual, off, or while loading. */
export function findProvider(providers: readonly PaymentProviderInfo[] | undefined, name: string | null | undefined) {
  return name ? providers?.find((p) => p.name === name) : undefined;
}
