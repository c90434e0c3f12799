// POST /api/admin/provisioning/:id/retry → {data: job}: a failed job goes to the panel again
// at once (409 unless it failed).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProvisioningJob } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export async function retryProvisioningJob(id: string): Promise<ProvisioningJob> {
  const answer = await apiSend<{ data: ProvisioningJob }>("POST", `/admin/provisioning/${encodeURIComponent(id)}/retry`);
  return answer.data;
}

export function useRetryProvisioningJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryProvisioningJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.provisioning }),
  });
}
