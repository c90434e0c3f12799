// POST /api/client/login {username, password} → {success, client}; sets the session cookie.
import type { ClientSessionResponse } from "@/shared/client-schemas";
import type { ClientLogin } from "@/shared/schemas";
import { apiSend } from "@/web/lib/api";

export function loginClient(credentials: ClientLogin): Promise<ClientSessionResponse> {
  return apiSend<ClientSessionResponse>("POST", "/client/login", credentials);
}
