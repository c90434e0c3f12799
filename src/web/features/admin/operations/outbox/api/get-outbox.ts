// GET /api/admin/outbox?status=&channel=&q=&page=&pageSize= → {data, total}, newest first.
// The outbox is not on the change feed, so the open list polls while the tab is visible.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminOutboxMessage, PagedResponse } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

export interface OutboxMessage extends AdminOutboxMessage {
  next_attempt_at: string;
  updated_at: string;
}

export function getOutbox(query: string, signal?: AbortSignal): Promise<PagedResponse<OutboxMessage>> {
  return apiGet<PagedResponse<OutboxMessage>>(`/admin/outbox?${query}`, { signal });
}

export const outboxQuery = (query: string) =>
  queryOptions({
    queryKey: [...opsKeys.outbox, "list", query],
    queryFn: ({ signal }) => getOutbox(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

export function useOutbox(query: string) {
  return useQuery(outboxQuery(query));
}
