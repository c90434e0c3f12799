// PATCH /api/admin/leads/:id {status?, notes?} → {data: lead}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminLead, LeadPatch } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function updateLead(id: string, patch: LeadPatch): Promise<AdminLead> {
  const answer = await apiSend<{ data: AdminLead }>("PATCH", `/admin/leads/${encodeURIComponent(id)}`, patch);
  return answer.data;
}

export function useUpdateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: LeadPatch }) => updateLead(id, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.leads }),
  });
}
