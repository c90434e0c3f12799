// POST /api/admin/leads/:id/convert {username?, package_id?, start?} → LeadConversion: a new
// client (their welcome with a link to choose a password queued; where, masked), or, when the
// lead is a returning client, that client renewed (no second account; a renewal link queued).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LeadConversion, LeadConvert } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export function convertLead(id: string, input: LeadConvert): Promise<LeadConversion> {
  return apiSend<LeadConversion>("POST", `/admin/leads/${encodeURIComponent(id)}/convert`, input);
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
