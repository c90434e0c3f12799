// The WhatsApp inbox's reads and its one write (issue 26):
//   GET  /api/admin/inbox                      → {data: conversations}, newest first
//   GET  /api/admin/inbox/unread               → {data: {unread}} (the navigation's badge)
//   GET  /api/admin/inbox/:number              → {data: thread} (marks it read)
//   POST /api/admin/inbox/:number/reply {text} → {data: {message, waLink}}; 409 outside the 24-hour window
//   POST /api/admin/inbox/:number/resend-line-details (Idempotency-Key) → {data: LineDetailsResent}
// Keyed under ["admin", "whatsapp_messages"], so the change feed refreshes them when a message
// arrives; an open thread also when an outbox row changes (what we sent the number and its delivery
// state: admin-keys.ts). The timers only cover a feed that is down.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { InboxConversation, InboxReplyResult, InboxThread, LineDetailsResent } from "@/shared/api";
import { apiGet, apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export const inboxListQuery = queryOptions({
  queryKey: [...adminKeys.inbox, "list"],
  queryFn: ({ signal }) => apiGet<{ data: InboxConversation[] }>("/admin/inbox", { signal }).then((r) => r.data),
});

export const inboxUnreadQuery = queryOptions({
  queryKey: [...adminKeys.inbox, "unread"],
  queryFn: ({ signal }) => apiGet<{ data: { unread: number } }>("/admin/inbox/unread", { signal }).then((r) => r.data.unread),
  // the change feed refreshes it; the timer covers a feed that is down
  refetchInterval: 60_000,
});

export const inboxThreadQuery = (number: string) =>
  queryOptions({
    queryKey: [...adminKeys.inboxThreads, number],
    queryFn: ({ signal }) => apiGet<{ data: InboxThread }>(`/admin/inbox/${encodeURIComponent(number)}`, { signal }).then((r) => r.data),
    enabled: number !== "",
    // the change feed brings new messages and delivery states at once; this covers a feed that is down
    refetchInterval: 60_000,
  });

export function useInboxList() {
  return useQuery(inboxListQuery);
}

export function useInboxUnread() {
  return useQuery(inboxUnreadQuery);
}

export function useInboxThread(number: string) {
  const queryClient = useQueryClient();
  const thread = useQuery(inboxThreadQuery(number));
  // Opening a thread marks it read: the list's and the badge's counts follow (the change feed
  // says so too; this covers a feed that is down).
  const updatedAt = thread.dataUpdatedAt;
  useEffect(() => {
    if (!updatedAt) return;
    void queryClient.invalidateQueries({ queryKey: inboxUnreadQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: inboxListQuery.queryKey });
  }, [updatedAt, queryClient]);
  return thread;
}

export function sendInboxReply(number: string, text: string): Promise<InboxReplyResult> {
  return apiSend<{ data: InboxReplyResult }>("POST", `/admin/inbox/${encodeURIComponent(number)}/reply`, { text }).then((r) => r.data);
}

export function useInboxReply(number: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => sendInboxReply(number, text),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.inbox }),
  });
}

/** Queues the client's line details again; `key` is the click's Idempotency-Key (a retry of the same click queues nothing twice). */
export function resendLineDetails(number: string, key: string): Promise<LineDetailsResent> {
  return apiSend<{ data: LineDetailsResent }>("POST", `/admin/inbox/${encodeURIComponent(number)}/resend-line-details`, undefined, {
    headers: { "Idempotency-Key": key },
  }).then((r) => r.data);
}

export function useResendLineDetails(number: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => resendLineDetails(number, key),
    // the thread shows the WhatsApp one at once (the change feed keeps it current after that)
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adminKeys.inboxThreads, number] }),
  });
}
