// GET /api/admin/clients/:id/auto-renew → {data: AutoRenewView | null}: whether the client renews by a kept card, and which
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AutoRenewView } from "@/shared/auto-renew";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function getClientAutoRenew(id: string, signal?: AbortSignal): Promise<AutoRenewView | null> {
  const answer = await apiGet<{ data: AutoRenewView | null }>(`/admin/clients/${encodeURIComponent(id)}/auto-renew`, { signal });
  return answer.data;
}

/** Under the client's own key, so whatever refreshes the client page refreshes this line too. */
export const clientAutoRenewQuery = (id: string) =>
  queryOptions({
    queryKey: [...adminKeys.client(id), "auto-renew"],
    queryFn: ({ signal }) => getClientAutoRenew(id, signal),
  });

export function useClientAutoRenew(id: string) {
  return useQuery(clientAutoRenewQuery(id));
}

/** The client page's words: "Auto-renew on, card via <the provider>", "Auto-renew off", or none when never chosen. */
export function autoRenewText(view: AutoRenewView | null | undefined): string | null {
  if (!view) return null;
  if (view.enabled && view.ready) return `Auto-renew on, ${view.card}`;
  if (view.enabled) return "Auto-renew on, waiting for the card from the provider";
  return "Auto-renew off";
}
