// PATCH /api/client/me: contact details, preferred channel and the marketing choice.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientProfile, ProfilePatch } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function updateMe(patch: ProfilePatch): Promise<ClientProfile> {
  return (await apiSend<{ data: ClientProfile }>("PATCH", "/client/me", patch)).data;
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (profile) => queryClient.setQueryData(clientKeys.me, profile),
  });
}
