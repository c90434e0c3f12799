// POST /api/admin/leads/:id/convert {username?, package_id?, start?, status?} → {client, password, lead}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminLead, ClientWithPassword, LeadConvert } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export type ConvertLeadResponse = ClientWithPassword & { lead?: AdminLead };

export function convertLead(id: string, input: LeadConvert): Promise<ConvertLeadResponse> {
  return apiSend<ConvertLeadResponse>("POST", `/admin/leads/${encodeURIComponent(id)}/convert`, input);
}

export function useConvertLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: LeadConvert }) => convertLead(id, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.leads }),
        queryClient.invalidateQueries({ queryKey: adminKeys.clients }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats }),
      ]),
  });
}
