// POST /api/admin/clients/:id/line-mac {mac, lineType?} (issue 32): the owner sets or changes a
// client's box MAC. A line on the panel moves to it (a change_mac job: 202); a box whose line is
// not made yet just gets it (200), and the line is made with it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminMacInput } from "@/shared/device-line-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export interface LineMacAnswer {
  line_type: string;
  line_mac: string;
  /** the change the panel job makes; null when the MAC was only recorded */
  change: { id: string; old_mac: string; new_mac: string; status: string } | null;
}

export async function setLineMac(id: string, body: AdminMacInput, key: string): Promise<LineMacAnswer> {
  const answer = await apiSend<{ data: LineMacAnswer }>("POST", `/admin/clients/${encodeURIComponent(id)}/line-mac`, body, {
    headers: { "idempotency-key": key },
  });
  return answer.data;
}

export function useSetLineMac() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id: string; body: AdminMacInput; key: string }) => setLineMac(id, body, key),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.clients });
      void queryClient.invalidateQueries({ queryKey: adminKeys.provisioning });
    },
  });
}
