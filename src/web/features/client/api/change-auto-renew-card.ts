// "Use another card" (issue 44 item 5; server: modules/auto-renew/card-change.ts):
//   POST /api/client/auto-renew/card → 201 {data: {url, reference}}: the card-saving checkout to leave for
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";

export interface CardChangeStarted {
  url: string;
  reference: string;
}

export function useChangeAutoRenewCard() {
  return useMutation({
    mutationFn: () => apiSend<{ data: CardChangeStarted }>("POST", "/client/auto-renew/card").then((r) => r.data),
  });
}
