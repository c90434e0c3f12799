// The client's automatic renewal (issue 44; server: modules/auto-renew/routes.ts):
//   GET    /api/client/auto-renew → {data: AutoRenewView | null}
//   DELETE /api/client/auto-renew → {data} (off; the card is forgotten at the provider)
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AutoRenewView } from "@/shared/auto-renew";
import { apiGet, apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export function useAutoRenew() {
  return useQuery({
    queryKey: clientKeys.autoRenew,
    queryFn: ({ signal }) => apiGet<{ data: AutoRenewView | null }>("/client/auto-renew", { signal }).then((r) => r.data),
  });
}

export function useStopAutoRenew() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ data: AutoRenewView | null }>("DELETE", "/client/auto-renew"),
    onSuccess: (answer) => queryClient.setQueryData(clientKeys.autoRenew, answer.data),
  });
}
