// The owner's queue of POPIA s24 requests (issue 46 item 7):
//   GET  /api/admin/data-requests → {data, total}: open first by due date, then the answered ones
//   POST /api/admin/data-requests/:id/correct {changes, note} | /refuse {reason} | /erase {line}
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminDataRequestView, DataRequestErase, DataRequestRefuse } from "@/shared/data-request-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export const dataRequestsQuery = queryOptions({
  queryKey: opsKeys.dataRequests,
  queryFn: ({ signal }) => apiGet<{ data: AdminDataRequestView[]; total: number }>("/admin/data-requests", { signal }),
});

export function useAdminDataRequests() {
  return useQuery(dataRequestsQuery);
}

export type DataRequestAnswer =
  | { action: "correct"; body: { changes: Record<string, string>; note: string } }
  | { action: "refuse"; body: DataRequestRefuse }
  | { action: "erase"; body: DataRequestErase };

export async function answerDataRequest(id: string, answer: DataRequestAnswer): Promise<AdminDataRequestView> {
  return (
    await apiSend<{ data: AdminDataRequestView }>("POST", `/admin/data-requests/${encodeURIComponent(id)}/${answer.action}`, answer.body)
  ).data;
}

export function useAnswerDataRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: DataRequestAnswer }) => answerDataRequest(id, answer),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: opsKeys.dataRequests });
      void queryClient.invalidateQueries({ queryKey: opsKeys.outbox });
      void queryClient.invalidateQueries({ queryKey: ["admin", "clients"] });
    },
  });
}
