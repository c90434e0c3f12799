// The admin session (spec §4): loading while GET /api/admin/session answers, then
// authenticated or unauthenticated (a failed check counts as unauthenticated). The session
// itself is an httpOnly cookie; nothing about it is kept in the browser's storage, and what
// older versions kept there is cleared on sign-in and sign-out.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo } from "react";
import type { AdminLogin } from "@/shared/schemas";
import { endSessionOnUnauthorized } from "@/web/lib/end-session-on-unauthorized";
import { toast } from "@/web/lib/toast";
import { adminKeys } from "../admin-keys";
import type { AdminIdentity, AdminSessionResponse } from "../types";
import { adminSessionQuery } from "./api/get-session";
import { loginAdmin } from "./api/login";
import { logoutAdmin } from "./api/logout";

/** What earlier versions stored about the admin session in localStorage (spec §4). */
export const LEGACY_ADMIN_STORAGE_KEYS = ["admin_session_token", "admin_email", "admin_session_expiry"] as const;

export type AdminSessionState =
  | { status: "loading"; admin: null; expiresAt: null }
  | { status: "authenticated"; admin: AdminIdentity; expiresAt: string }
  | { status: "unauthenticated"; admin: null; expiresAt: null };

export interface AdminSessionValue {
  session: AdminSessionState;
  /** Signs in; throws the ApiError of a refused sign-in for the caller to explain. */
  signIn: (credentials: AdminLogin) => Promise<AdminSessionResponse>;
  /** Signs out; the local session is cleared even when the server cannot be reached. */
  signOut: () => Promise<void>;
}

const AdminSessionContext = createContext<AdminSessionValue | null>(null);

function clearLegacyStorage(): void {
  try {
    for (const key of LEGACY_ADMIN_STORAGE_KEYS) window.localStorage.removeItem(key);
  } catch {
    // storage may be unavailable (private mode, blocked cookies): nothing to clear then
  }
}

export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(adminSessionQuery);

  const session: AdminSessionState = isPending
    ? { status: "loading", admin: null, expiresAt: null }
    : data
      ? { status: "authenticated", admin: data.admin, expiresAt: data.expiresAt }
      : { status: "unauthenticated", admin: null, expiresAt: null };

  // A 401 from any admin call means the session ended: back to sign-in.
  useEffect(() => endSessionOnUnauthorized(queryClient, adminKeys.session, adminKeys.all[0]), [queryClient]);

  const signIn = useCallback(
    async (credentials: AdminLogin) => {
      const answer = await loginAdmin(credentials);
      clearLegacyStorage();
      queryClient.setQueryData(adminKeys.session, answer);
      return answer;
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await logoutAdmin();
    } catch {
      // Spec §4: if logout errors, the session is still cleared here.
    }
    clearLegacyStorage();
    queryClient.setQueryData(adminKeys.session, null);
    queryClient.removeQueries({ queryKey: adminKeys.all });
    toast.success("Logged Out", { description: "You have been logged out successfully" });
  }, [queryClient]);

  const value = useMemo<AdminSessionValue>(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <AdminSessionContext value={value}>{children}</AdminSessionContext>;
}

export function useAdminSession(): AdminSessionValue {
  const value = use(AdminSessionContext);
  if (!value) throw new Error("useAdminSession must be used inside AdminSessionProvider");
  return value;
}
