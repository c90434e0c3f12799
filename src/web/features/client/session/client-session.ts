// The client session (spec §4): loading while GET /api/client/session answers, then
// authenticated or unauthenticated (a failed check counts as unauthenticated). The session is
// an httpOnly cookie; what older versions kept in sessionStorage is cleared on sign-in and
// sign-out. The state lives in the query cache, so the portal's pages inside the client wrapper
// and those inside the public layout (/account-management, /payment-history) share it.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { ClientSessionResponse, ClientSummary } from "@/shared/client-schemas";
import type { ClientLogin } from "@/shared/schemas";
import { ApiError } from "@/web/lib/api";
import { endSessionOnUnauthorized } from "@/web/lib/end-session-on-unauthorized";
import { toast } from "@/web/lib/toast";
import { clientKeys } from "../client-keys";
import { clientSessionQuery } from "./api/get-session";
import { loginClient } from "./api/login";
import { logoutClient } from "./api/logout";

/** What earlier versions stored about the client session in sessionStorage (spec §4). */
export const LEGACY_CLIENT_STORAGE_KEYS = ["client_session_token", "client_session_expiry", "client_id", "client_data"] as const;

export type ClientSessionState =
  | { status: "loading"; client: null }
  | { status: "authenticated"; client: ClientSummary }
  | { status: "unauthenticated"; client: null };

export interface ClientSessionValue {
  session: ClientSessionState;
  /** Signs in; throws the ApiError of a refused sign-in for the caller to explain. */
  signIn: (credentials: ClientLogin) => Promise<ClientSessionResponse>;
  /** Signs out; the local session is cleared even when the server cannot be reached. */
  signOut: () => Promise<void>;
}

function clearLegacyStorage(): void {
  try {
    for (const key of LEGACY_CLIENT_STORAGE_KEYS) window.sessionStorage.removeItem(key);
  } catch {
    // storage may be unavailable (private mode, blocked cookies): nothing to clear then
  }
}

export function useClientSession(): ClientSessionValue {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(clientSessionQuery);

  const session: ClientSessionState = isPending
    ? { status: "loading", client: null }
    : data
      ? { status: "authenticated", client: data.client }
      : { status: "unauthenticated", client: null };

  const signIn = useCallback(
    async (credentials: ClientLogin) => {
      const answer = await loginClient(credentials);
      clearLegacyStorage();
      // Nothing another account read in this tab may show for this one.
      queryClient.removeQueries({ queryKey: clientKeys.all });
      queryClient.setQueryData(clientKeys.session, answer);
      return answer;
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await logoutClient();
    } catch {
      // Spec §4: if logout errors, the session is still cleared here.
    }
    clearLegacyStorage();
    queryClient.setQueryData(clientKeys.session, null);
    queryClient.removeQueries({ queryKey: clientKeys.all });
    toast.success("Logged Out", { description: "You have been logged out successfully" });
  }, [queryClient]);

  return { session, signIn, signOut };
}

/**
 * A 401 from any portal call means the session ended (expired, revoked, password changed on
 * another device): drop it, so the guard sends the client to sign in again.
 */
export function useEndSessionOnUnauthorized(): void {
  const queryClient = useQueryClient();
  useEffect(() => endSessionOnUnauthorized(queryClient, clientKeys.session, clientKeys.all[0]), [queryClient]);
}

/**
 * A 403 or 409 with code 'suspended' from any portal call means the account was suspended while
 * this tab held an older session answer: check the session again, so the portal shows the
 * suspended page instead of parts that can no longer load.
 */
export function useRecheckSessionOnSuspended(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const recheck = (error: unknown) => {
      if (error instanceof ApiError && error.code === "suspended") void queryClient.invalidateQueries({ queryKey: clientKeys.session });
    };
    const offQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error" && event.query.queryKey[0] === clientKeys.all[0])
        recheck(event.action.error);
    });
    const offMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") recheck(event.action.error);
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [queryClient]);
}
