// POST /api/admin/outbox/:id/chat-link → {url}: the wa.me link of a message whose body holds a
// secret (a reset link), filled in as the owner sends it. The server records each time it is
// asked; the link is never cached here beyond the open message.
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";

export async function getChatLink(id: string): Promise<string> {
  const answer = await apiSend<{ url: string }>("POST", `/admin/outbox/${encodeURIComponent(id)}/chat-link`);
  return answer.url;
}

export function useChatLink() {
  return useMutation({ mutationFn: getChatLink, gcTime: 0 });
}
