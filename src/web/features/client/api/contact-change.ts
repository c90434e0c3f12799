// A new WhatsApp number or e-mail address, proven with a code sent to it (issue 24):
//   POST /api/client/contact-change {whatsapp} | {email} → 202 {sentTo, channel, mayTakeMinutes}
//   POST /api/client/contact-change/confirm {code}       → 200 {data: profile}
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientProfile, ContactChangeInput, ContactChangeStarted } from "@/shared/client-schemas";
import { apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export function startContactChange(input: ContactChangeInput): Promise<ContactChangeStarted> {
  return apiSend<ContactChangeStarted>("POST", "/client/contact-change", input);
}

export async function confirmContactChange(code: string): Promise<ClientProfile> {
  return (await apiSend<{ data: ClientProfile }>("POST", "/client/contact-change/confirm", { code })).data;
}

export function useStartContactChange() {
  return useMutation({ mutationFn: startContactChange });
}

export function useConfirmContactChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmContactChange,
    onSuccess: async (profile) => {
      queryClient.setQueryData(clientKeys.me, profile);
      await queryClient.invalidateQueries({ queryKey: clientKeys.me });
    },
  });
}
