// POPIA s24 requests (issue 46 item 7):
//   GET  /api/client/data-requests → {data}: the client's own, newest first
//   POST /api/client/data-requests {kind, details, correction?} → 201 {data}; 409 while one of the kind is open
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DataRequestInput, DataRequestView } from "@/shared/data-request-schemas";
import { apiGet, apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getDataRequests(signal?: AbortSignal): Promise<DataRequestView[]> {
  return (await apiGet<{ data: DataRequestView[] }>("/client/data-requests", { signal })).data ?? [];
}

export const dataRequestsQuery = queryOptions({
  queryKey: clientKeys.dataRequests,
  queryFn: ({ signal }) => getDataRequests(signal),
  staleTime: 30_000,
  retry: 1,
});

export function useDataRequests() {
  return useQuery(dataRequestsQuery);
}

export async function createDataRequest(input: DataRequestInput): Promise<DataRequestView> {
  return (await apiSend<{ data: DataRequestView }>("POST", "/client/data-requests", input)).data;
}

export function useCreateDataRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDataRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.dataRequests }),
  });
}
