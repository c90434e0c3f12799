// GET /api/admin/outbox?status=&channel=&q=&page=&pageSize= → {data, total}, newest first.
// The outbox is not on the change feed, so the open list polls while the tab is visible.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PagedResponse } from "@/shared/business-schemas";
import type { AdminOutboxEntry } from "@/shared/messaging";
import { apiGet } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";

/** A message as the dashboard sees it (secret masked; wa.me link for WhatsApp). */
export type OutboxMessage = AdminOutboxEntry;

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
