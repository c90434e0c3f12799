// GET /api/payments/methods: which ways to pay are on (card by iKhokha, the sandbox checkout or
// off; PayFast, Ozow, Yoco when the owner turned them on; EFT on once the owner has filled in the
// bank details). The card mode follows the
// server's configuration; EFT follows the settings, refetched when they change (query-keys.ts).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { HostedPaymentMethod, PaymentMethods } from "@/shared/api";
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
  return data ?? (isError ? { card: "ikhokha", eft: false, providers: [] } : undefined);
}

/** What each provider's page lets the customer do, beside its name in a list of ways to pay. */
export const PROVIDER_TEXT: Record<HostedPaymentMethod, string> = {
  payfast: "Card, Instant EFT, SnapScan and more on PayFast's secure page.",
  ozow: "Instant EFT from your own bank, on Ozow's secure page.",
  yoco: "Pay by card on Yoco's secure page.",
};
