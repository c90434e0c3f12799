// POST /api/admin/resellers/:id/suspend | /restore → {data: {id, status}}: their sign-in stops
// or comes back; their lines keep running either way.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { resellersKey } from "./get-resellers";

export function setResellerStatus(id: string, to: "suspend" | "restore") {
  return apiSend<{ data: { id: string; status: string } }>("POST", `/admin/resellers/${encodeURIComponent(id)}/${to}`);
}

export function useSetResellerStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: "suspend" | "restore" }) => setResellerStatus(id, to),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resellersKey }),
  });
}
