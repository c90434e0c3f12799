// PATCH /api/admin/admins/:id {name?, email?} → the admin. Editing yourself also refreshes the
// session, whose header shows who is signed in.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminPatch } from "@/shared/admin-schemas";
import { apiSend } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";
import { type AdminAccount, adminsKey } from "./get-admins";

export function updateAdmin(id: string, patch: AdminPatch): Promise<AdminAccount> {
  return apiSend<AdminAccount>("PATCH", `/admin/admins/${encodeURIComponent(id)}`, patch);
}

export function useUpdateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminPatch }) => updateAdmin(id, patch),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminsKey });
      await queryClient.invalidateQueries({ queryKey: adminKeys.session });
    },
  });
}
