// GET    /api/admin/message-templates                → {data: MessageTemplateEntry[]}
// PUT    /api/admin/message-templates/:kind          {subject, body} → {data}
// DELETE /api/admin/message-templates/:kind          → {data} (back to the default)
// POST   /api/admin/message-templates/:kind/preview  {client_id, subject, body} → {data: {subject, body, client_name}}
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageTemplateEntry, MessageTemplateInput, MessageTemplatePreview } from "@/shared/message-templates";
import { apiGet, apiSend } from "@/web/lib/api";

/** Under ["admin", <table>], so the change feed's rule for admin keys applies. */
export const messageTemplatesKey = ["admin", "message_templates"] as const;

export const messageTemplatesQuery = () =>
  queryOptions({
    queryKey: messageTemplatesKey,
    queryFn: ({ signal }) => apiGet<{ data: MessageTemplateEntry[] }>("/admin/message-templates", { signal }).then((r) => r.data),
  });

export function useMessageTemplates() {
  return useQuery(messageTemplatesQuery());
}

const path = (kind: string) => `/admin/message-templates/${encodeURIComponent(kind)}`;

export function useSaveMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, input }: { kind: string; input: MessageTemplateInput }) =>
      (await apiSend<{ data: MessageTemplateEntry }>("PUT", path(kind), input)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageTemplatesKey }),
  });
}

export function useResetMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (kind: string) => (await apiSend<{ data: MessageTemplateEntry }>("DELETE", path(kind))).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageTemplatesKey }),
  });
}

export function usePreviewMessageTemplate() {
  return useMutation({
    mutationFn: async ({ kind, clientId, input }: { kind: string; clientId: string; input: MessageTemplateInput }) =>
      (await apiSend<{ data: MessageTemplatePreview }>("POST", `${path(kind)}/preview`, { client_id: clientId, ...input })).data,
  });
}
