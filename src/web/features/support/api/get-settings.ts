// GET /api/settings: the active site settings as a key → value map (the support pages read the
// support hours). Same key and shape as every other reader of /api/settings, so they share one cache entry.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SettingsMap } from "@/shared/api";
import { SUPPORT_HOURS } from "@/shared/constants";
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

/** When people answer: the support_hours setting, or the advertised hours (spec §1) until it loads. */
export function useSupportHours(): string {
  const { data } = useQuery(settingsQueryOptions());
  return data?.support_hours?.trim() || SUPPORT_HOURS;
}
