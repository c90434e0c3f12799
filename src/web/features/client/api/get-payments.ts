// GET /api/client/payments → {data}: the signed-in client's own payments, newest first.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientPayment } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getPayments(signal?: AbortSignal): Promise<ClientPayment[]> {
  return (await apiGet<{ data: ClientPayment[] }>("/client/payments", { signal })).data ?? [];
}

export const paymentsQuery = queryOptions({
  queryKey: clientKeys.payments,
  queryFn: ({ signal }) => getPayments(signal),
  staleTime: 15_000,
  retry: 1,
});

export function usePayments() {
  return useQuery(paymentsQuery);
}
