// GET /api/partner/lines → {data}: the partner's own lines; GET /api/partner/packages → what they
// may sell at its credit cost; POST /api/partner/lines {name, whatsapp, email, package_id}
// (Idempotency-Key) → 201 {data}: a line made from their credits (409 with "You need N credits…");
// renewing and switching a line off or on (below).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PartnerLine } from "@/shared/reseller-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { partnerKeys } from "./partner-keys";

export type { PartnerLine };

export interface PartnerPackage {
  id: string;
  name: string;
  duration: string;
  credits: number;
}

export const partnerLinesQuery = queryOptions({
  queryKey: partnerKeys.lines,
  queryFn: ({ signal }) => apiGet<{ data: PartnerLine[] }>("/partner/lines", { signal }).then((answer) => answer.data),
});
export const partnerPackagesQuery = queryOptions({
  queryKey: partnerKeys.packages,
  queryFn: ({ signal }) => apiGet<{ data: PartnerPackage[] }>("/partner/packages", { signal }).then((answer) => answer.data),
});

export const usePartnerLines = () => useQuery(partnerLinesQuery);
export const usePartnerPackages = () => useQuery(partnerPackagesQuery);

export interface NewPartnerLine {
  name: string;
  whatsapp: string;
  email: string;
  package_id: string;
}

export function useSellLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ line, key }: { line: NewPartnerLine; key: string }) =>
      apiSend<{ data: PartnerLine }>("POST", "/partner/lines", line, { headers: { "Idempotency-Key": key } }).then((a) => a.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.all }),
  });
}

/**
 * POST /api/partner/lines/:id/renew (Idempotency-Key) → {data}: the line extended by its package,
 * its credits taken (given back when the panel refuses); the same key again is the same renewal.
 */
export function useRenewLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) =>
      apiSend<{ data: PartnerLine }>("POST", `/partner/lines/${encodeURIComponent(id)}/renew`, undefined, {
        headers: { "Idempotency-Key": key },
      }).then((a) => a.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.all }),
  });
}

/** POST /api/partner/lines/:id/switch-off | switch-on → {data}: the line off (or on again) on the panel, at no cost. */
export function useSwitchLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: "off" | "on" }) =>
      apiSend<{ data: PartnerLine }>("POST", `/partner/lines/${encodeURIComponent(id)}/switch-${to}`).then((a) => a.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.lines }),
  });
}
