// A box's line from the portal (issue 32 item 2): POST /api/client/line/mac {mac} moves the line to
// the box's new MAC; POST /api/client/line/isp-reset resets the line's ISP lock. Both answer 202
// (the panel does it next) and take an Idempotency-Key: one per attempt the customer makes, so a
// retried request changes nothing twice. The profile is read again after each, so the line card
// shows the change under way.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

/** The change as the server recorded it (pending until the panel has it). */
export interface MacChangeAnswer {
  id: string;
  old_mac: string;
  new_mac: string;
  status: string;
  created_at: string;
}

/** A key per attempt (crypto.randomUUID needs a secure context; plain HTTP falls back). */
export function attemptKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function changeMac(input: { mac: string; key: string }): Promise<MacChangeAnswer> {
  return (
    await apiSend<{ data: MacChangeAnswer }>("POST", "/client/line/mac", { mac: input.mac }, { headers: { "idempotency-key": input.key } })
  ).data;
}

/** `by`: the panel resets it within moments, or the business does it by hand (manual panel mode). */
export interface IspResetAnswer {
  queued: boolean;
  by: "panel" | "owner";
}

export async function resetIspLock(key: string): Promise<IspResetAnswer> {
  return (await apiSend<{ data: IspResetAnswer }>("POST", "/client/line/isp-reset", undefined, { headers: { "idempotency-key": key } }))
    .data;
}

export function useChangeMac() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeMac, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.me }) });
}

export function useResetIspLock() {
  return useMutation({ mutationFn: resetIspLock });
}
