// The dashboard's billing calls (server: modules/billing/routes.ts):
//   GET /api/admin/invoices?month=YYYY-MM → {data: BillingDocumentRow[]}
//   GET|PUT /api/admin/billing/numbering → {data: Numbering}
//   GET|POST /api/admin/coupons, PUT|DELETE /api/admin/coupons/:id
// PDFs and the month's CSV are plain links (the session cookie goes with them).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BillingDocumentRow, CouponInput, NumberingInput } from "@/shared/billing";
import { apiGet, apiSend } from "@/web/lib/api";

/** Under ["admin", <table>], so the change feed's rule for admin keys applies. */
export const billingKeys = {
  all: ["admin", "billing"] as const,
  documents: (month: string) => ["admin", "billing", "documents", month] as const,
  numbering: ["admin", "billing", "numbering"] as const,
  coupons: ["admin", "billing", "coupons"] as const,
};

export interface Numbering {
  invoice_next: number;
  credit_note_next: number;
  invoice_prefix: string;
  credit_note_prefix: string;
  invoice_example: string;
  credit_note_example: string;
}

export interface AdminCoupon {
  id: string;
  code: string;
  kind: "percent" | "fixed";
  percent_off: number | null;
  amount_off: number | null;
  package_id: string | null;
  expires_at: string | null;
  max_uses: number | null;
  uses: number;
  is_active: boolean;
  created_at: string;
}

export const documentsQuery = (month: string) =>
  queryOptions({
    queryKey: billingKeys.documents(month),
    queryFn: ({ signal }) =>
      apiGet<{ data: BillingDocumentRow[] }>(`/admin/invoices?month=${encodeURIComponent(month)}`, { signal }).then((r) => r.data),
  });

export const useDocuments = (month: string) => useQuery(documentsQuery(month));

export function useNumbering() {
  return useQuery({
    queryKey: billingKeys.numbering,
    queryFn: ({ signal }) => apiGet<{ data: Numbering }>("/admin/billing/numbering", { signal }).then((r) => r.data),
  });
}

export function useSaveNumbering() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NumberingInput) => (await apiSend<{ data: Numbering }>("PUT", "/admin/billing/numbering", input)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.numbering }),
  });
}

export function useCoupons() {
  return useQuery({
    queryKey: billingKeys.coupons,
    queryFn: ({ signal }) => apiGet<{ data: AdminCoupon[] }>("/admin/coupons", { signal }).then((r) => r.data),
  });
}

export function useSaveCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string; input: CouponInput }) =>
      (await apiSend<{ data: AdminCoupon }>(id ? "PUT" : "POST", id ? `/admin/coupons/${encodeURIComponent(id)}` : "/admin/coupons", input))
        .data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.coupons }),
  });
}

export function useDeleteCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await apiSend<{ data: { deleted: boolean } }>("DELETE", `/admin/coupons/${encodeURIComponent(id)}`)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.coupons }),
  });
}
