// The one-tap pay link's read and its tap (issue 27 item 4):
//   GET  /api/pay-links/:token       → what the page shows (no side effects on the server)
//   POST /api/pay-links/:token/pay   → a checkout to go to, or the EFT details
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { PayLinkPayRequest, PayLinkPayResponse, PayLinkView } from "@/shared/pay-link-schemas";
import { ApiError, apiGet, apiSend } from "@/web/lib/api";

export async function getPayLink(token: string, signal?: AbortSignal): Promise<PayLinkView> {
  const body = await apiGet<{ data: PayLinkView }>(`/pay-links/${encodeURIComponent(token)}`, { signal });
  return body.data;
}

export const payLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ["pay-link", token],
    queryFn: ({ signal }) => getPayLink(token, signal),
    // the price and the ways to pay are today's: asked each time the page opens
    staleTime: 0,
    // the server's refusal (invalid, expired, gone) is the answer, not a hiccup to retry
    retry: (failureCount, error) => !(error instanceof ApiError && error.status > 0) && failureCount < 2,
  });

export function usePayLink(token: string) {
  return useQuery(payLinkQueryOptions(token));
}

export function payByLink(token: string, request: PayLinkPayRequest): Promise<PayLinkPayResponse> {
  return apiSend<PayLinkPayResponse>("POST", `/pay-links/${encodeURIComponent(token)}/pay`, request);
}

export function usePayByLink(token: string) {
  return useMutation({ mutationFn: (request: PayLinkPayRequest) => payByLink(token, request) });
}
