// GET /api/admin/session: who is signed in, from the httpOnly session cookie.
import { queryOptions } from "@tanstack/react-query";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";
import type { AdminSessionResponse } from "../../types";

/** The signed-in admin, or null when there is no session (a 401, or any failed check: spec §4). */
export async function getAdminSession(signal?: AbortSignal): Promise<AdminSessionResponse | null> {
  try {
    const answer = await apiGet<AdminSessionResponse>("/admin/session", { signal });
    return answer?.success && answer.admin ? answer : null;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return null;
  }
}

export const adminSessionQuery = queryOptions({
  queryKey: adminKeys.session,
  queryFn: ({ signal }) => getAdminSession(signal),
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
  refetchOnWindowFocus: false,
});
