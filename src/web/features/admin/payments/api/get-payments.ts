// GET /api/admin/payments?q=&status=&provider=&refund=held&from=&to=&page=&pageSize=&sort=&dir= → {data, total}
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminPayment, PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function getPayments(query: string, signal?: AbortSignal): Promise<PagedResponse<AdminPayment>> {
  return apiGet<PagedResponse<AdminPayment>>(`/admin/payments?${query}`, { signal });
}

export const paymentsQuery = (query: string) =>
  queryOptions({
    queryKey: [...adminKeys.payments, "list", query],
    queryFn: ({ signal }) => getPayments(query, signal),
    placeholderData: keepPreviousData,
  });

export function usePayments(query: string) {
  return useQuery(paymentsQuery(query));
}

/** The CSV of the same filtered list (every page). */
export const paymentsExportHref = (exportQuery: string) => `/api/admin/export/payments.csv${exportQuery ? `?${exportQuery}` : ""}`;
