// GET /api/client/session: who is signed in, from the httpOnly session cookie.
import { queryOptions } from "@tanstack/react-query";
import type { ClientSessionResponse } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../../client-keys";

/** The signed-in client, or null when there is no session (a 401, or any failed check: spec §4). */
export async function getClientSession(signal?: AbortSignal): Promise<ClientSessionResponse | null> {
  try {
    const answer = await apiGet<ClientSessionResponse>("/client/session", { signal });
    return answer?.success && answer.client ? answer : null;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return null;
  }
}

export const clientSessionQuery = queryOptions({
  queryKey: clientKeys.session,
  queryFn: ({ signal }) => getClientSession(signal),
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
  refetchOnWindowFocus: false,
});
