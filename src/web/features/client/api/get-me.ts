// GET /api/client/me → {data}: the signed-in client's profile, subscription and line details.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ClientProfile } from "@/shared/client-schemas";
import { apiGet } from "@/web/lib/api";
import { clientKeys } from "../client-keys";

export async function getMe(signal?: AbortSignal): Promise<ClientProfile> {
  return (await apiGet<{ data: ClientProfile }>("/client/me", { signal })).data;
}

/** Paid or on trial, and the panel has not made the line yet: it usually does within seconds. */
const waitingForLine = (profile: ClientProfile | undefined) =>
  Boolean(profile && !profile.line && (profile.status === "active" || profile.status === "trial"));

export const meQuery = queryOptions({
  queryKey: clientKeys.me,
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 30_000,
  retry: 1,
  // While the line is being set up, ask again so the login shows the moment it exists: every
  // 5 s for the first two minutes, then every minute (a manual-mode shop may take longer). The
  // same while a box's MAC change waits for the panel.
  refetchInterval: (query) =>
    waitingForLine(query.state.data) || query.state.data?.line?.mac_change ? (query.state.dataUpdateCount < 24 ? 5_000 : 60_000) : false,
});

export function useMe() {
  return useQuery(meQuery);
}
