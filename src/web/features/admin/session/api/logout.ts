// POST /api/admin/logout: ends the session on the server and clears its cookie.
import { apiSend } from "@/web/lib/api";

export function logoutAdmin(): Promise<unknown> {
  return apiSend("POST", "/admin/logout");
}
