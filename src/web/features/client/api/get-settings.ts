// GET /api/settings: the active site settings as a key → value map. The portal reads the
// lifecycle's rules from it (how many grace days follow an ended paid term). Same key and shape
// as every other reader of /api/settings, so they share one cache entry.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SettingsMap } from "@/shared/api";
import { type LifecycleRules, lifecycleRules } from "@/shared/lifecycle";
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

/** The lifecycle's rules (defaults until the settings arrive). */
export function useLifecycleRules(): LifecycleRules {
  const { data } = useQuery(settingsQueryOptions());
  return lifecycleRules(data ?? {});
}
