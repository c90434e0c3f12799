// POST /api/admin/provisioning/:id/complete {username?, password?, line_id?, expires_on?, stream_url?} → {data: job}: the
// owner did a step on the panel by hand. A step that makes the line needs its username and
// password (400 naming the field otherwise); the client then gets their login at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProvisioningJob } from "@/shared/business-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export interface PastedLogin {
  username?: string;
  password?: string;
  line_id?: string;
  /** YYYY-MM-DD: the end date the panel shows (else the paid term's end) */
  expires_on?: string;
  /** when none is set yet: saved as the panel's stream server URL */
  stream_url?: string;
}

export async function completeProvisioningJob(id: string, login: PastedLogin): Promise<ProvisioningJob> {
  const answer = await apiSend<{ data: ProvisioningJob }>("POST", `/admin/provisioning/${encodeURIComponent(id)}/complete`, login);
  return answer.data;
}

export function useCompleteProvisioningJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, login }: { id: string; login: PastedLogin }) => completeProvisioningJob(id, login),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.provisioning });
      // the client now has a line; a stream URL given with it is the panel's setting now
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.panel });
    },
  });
}
