// GET /api/settings: the active site settings as a key → value map (the order form reads the
// VAT note, the free-trial rules and the support hours from it).
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

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
