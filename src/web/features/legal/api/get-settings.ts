// GET /api/settings: the active site settings as a key → value map (the legal pages read the
// business's own facts from it). Same key and shape as every other reader of /api/settings.
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

/** The settings, and whether they are still on their way (so the page doesn't flash 'on request'). */
export function useSettings(): { settings: SettingsMap; isLoading: boolean } {
  const { data, isLoading } = useQuery(settingsQueryOptions());
  return { settings: data ?? {}, isLoading };
}
