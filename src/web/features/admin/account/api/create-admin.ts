// POST /api/admin/admins {email, name, password} → 201 the admin (never the password).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminCreate } from "@/shared/admin-schemas";
import { apiSend } from "@/web/lib/api";
import { type AdminAccount, adminsKey } from "./get-admins";

export function createAdmin(input: AdminCreate): Promise<AdminAccount> {
  return apiSend<AdminAccount>("POST", "/admin/admins", input);
}

export function useCreateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminsKey }),
  });
}
