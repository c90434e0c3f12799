// POST /api/admin/login {email, password} → {success, admin, expiresAt}; sets the session cookie.
import type { AdminLogin } from "@/shared/schemas";
import { apiSend } from "@/web/lib/api";
import type { AdminSessionResponse } from "../../types";

export function loginAdmin(credentials: AdminLogin): Promise<AdminSessionResponse> {
  return apiSend<AdminSessionResponse>("POST", "/admin/login", credentials);
}
