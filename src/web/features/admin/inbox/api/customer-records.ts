// The records the thread's quick actions open in their dialogs, fetched only when one is opened:
//   GET /api/admin/clients/:id → the client (Record payment)  — the clients feature's own query
//   GET /api/admin/leads/:id   → {data: lead} (Convert lead)
// Keyed under ["admin", "leads"], so the change feed refreshes the lead like the leads list.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminLead } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";
import { clientQuery } from "../../clients/api/get-client";

export const leadQuery = (id: string) =>
  queryOptions({
    queryKey: [...adminKeys.leads, "detail", id],
    queryFn: ({ signal }) => apiGet<{ data: AdminLead }>(`/admin/leads/${encodeURIComponent(id)}`, { signal }).then((r) => r.data),
  });

export function useLeadRecord(id: string, enabled: boolean) {
  return useQuery({ ...leadQuery(id), enabled });
}

export function useClientRecord(id: string, enabled: boolean) {
  return useQuery({ ...clientQuery(id), enabled });
}

/** The link the reminders send (the server's lifecycle.ts): the portal's pay/renew step. */
export function renewLink(origin: string): string {
  return `${origin}/client?renew=1`;
}
