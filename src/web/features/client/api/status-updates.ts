// The client's own status updates (server: modules/status/subscriptions.ts):
//   GET /api/client/status-updates → {data: {subscribed, channel}}
//   PUT /api/client/status-updates {subscribed} → {data, message}
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ClientStatusUpdates } from "@/shared/schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export function useStatusUpdates() {
  return useQuery({
    queryKey: clientKeys.statusUpdates,
    queryFn: ({ signal }) => apiGet<{ data: ClientStatusUpdates }>("/client/status-updates", { signal }).then((r) => r.data),
  });
}

export function useSetStatusUpdates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) =>
      apiSend<{ data: ClientStatusUpdates; message: string }>("PUT", "/client/status-updates", { subscribed }),
    onSuccess: (answer) => queryClient.setQueryData(clientKeys.statusUpdates, answer.data),
  });
}
