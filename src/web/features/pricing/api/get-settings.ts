// GET /api/settings: the active site settings as a key → value map.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SettingsMap } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getSettings(signal?: AbortSignal): Promise<SettingsMap> {
  const body = await apiGet<{ data: SettingsMap }>("/settings", { signal });
  return body.data ?? {};
}

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => getSettings(signal),
    ...QUERY_CACHE.settings,
  });

/** The settings map; empty while loading or when the read failed. */
export function useSettings(): SettingsMap {
  return useQuery(settingsQueryOptions()).data ?? {};
}
