// GET /api/partner/ledger → {data}: the partner's own credit transfers, newest first.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CreditTransfer } from "@/shared/reseller-schemas";
import { apiGet } from "@/web/lib/api";
import { partnerKeys } from "./partner-keys";

export const partnerLedgerQuery = queryOptions({
  queryKey: partnerKeys.ledger,
  queryFn: ({ signal }) => apiGet<{ data: CreditTransfer[] }>("/partner/ledger", { signal }).then((answer) => answer.data),
});

export function usePartnerLedger() {
  return useQuery(partnerLedgerQuery);
}
