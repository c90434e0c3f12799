// POST /api/client/logout: ends the session on the server and clears its cookie.
import { apiSend } from "@/web/lib/api";

export function logoutClient(): Promise<unknown> {
  return apiSend("POST", "/client/logout");
}
