// The client's own billing documents and invoice details (server: modules/billing/routes.ts):
//   GET /api/client/invoices → {data: BillingDocumentRow[]} (PDFs: /api/client/invoices/:number.pdf)
//   GET|PUT /api/client/billing-details {company?, address?, vatNumber?}
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BillingDocumentRow, BuyerDetails } from "@/shared/billing";
import { apiGet, apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export interface BillingDetails {
  company: string;
  address: string;
  vatNumber: string;
}

export const invoicesQuery = queryOptions({
  queryKey: clientKeys.invoices,
  queryFn: ({ signal }) => apiGet<{ data: BillingDocumentRow[] }>("/client/invoices", { signal }).then((r) => r.data),
  staleTime: 15_000,
});

export const useInvoices = () => useQuery(invoicesQuery);

export function useBillingDetails() {
  return useQuery({
    queryKey: clientKeys.billingDetails,
    queryFn: ({ signal }) => apiGet<{ data: BillingDetails }>("/client/billing-details", { signal }).then((r) => r.data),
  });
}

export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: BuyerDetails) => (await apiSend<{ data: BillingDetails }>("PUT", "/client/billing-details", input)).data,
    onSuccess: (saved) => queryClient.setQueryData(clientKeys.billingDetails, saved),
  });
}

/** Where a document's PDF is, for the signed-in client. */
export const documentPdfUrl = (doc: Pick<BillingDocumentRow, "type" | "number">) =>
  `/api/client/${doc.type === "invoice" ? "invoices" : "credit-notes"}/${encodeURIComponent(doc.number)}.pdf`;
