// GET /api/client/payments/:ref/receipt → {data}: a receipt for one of the client's paid payments.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientReceipt } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getReceipt(reference: string, signal?: AbortSignal): Promise<ClientReceipt> {
  return (await apiGet<{ data: ClientReceipt }>(`/client/payments/${encodeURIComponent(reference)}/receipt`, { signal })).data;
}

export const receiptQuery = (reference: string) =>
  queryOptions({
    queryKey: clientKeys.receipt(reference),
    queryFn: ({ signal }) => getReceipt(reference, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useReceipt(reference: string) {
  return useQuery(receiptQuery(reference));
}
