// POST /api/admin/incidents/:id/resolve → the incident, resolved now (409 when it already is).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { opsKeys } from "../../operations-keys";
import type { AdminIncident } from "../status-types";

export function resolveIncident(id: string): Promise<AdminIncident> {
  return apiSend<AdminIncident>("POST", `/admin/incidents/${encodeURIComponent(id)}/resolve`);
}

export function useResolveIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveIncident,
    onSettled: () => queryClient.invalidateQueries({ queryKey: opsKeys.incidents }),
  });
}
