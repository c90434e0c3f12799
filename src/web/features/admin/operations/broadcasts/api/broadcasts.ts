// POST /api/admin/broadcasts/preview → {data: BroadcastPreview}: who a broadcast reaches.
// POST /api/admin/broadcasts (+ Idempotency-Key) → 201 {data: {queued, minutes, ...}}.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BroadcastAudience, BroadcastInput, BroadcastPreview } from "@/shared/broadcast-schemas";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export type BroadcastSent = BroadcastPreview & { queued: number; minutes: number };

export function usePreviewBroadcast() {
  return useMutation({
    mutationFn: (audience: BroadcastAudience) =>
      apiSend<{ data: BroadcastPreview }>("POST", "/admin/broadcasts/preview", audience).then((answer) => answer.data),
  });
}

export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: BroadcastInput; key: string }) =>
      apiSend<{ data: BroadcastSent }>("POST", "/admin/broadcasts", input, { headers: { "Idempotency-Key": key } }).then(
        (answer) => answer.data,
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: opsKeys.outbox }),
  });
}
