// GET /api/settings: the active site settings as a key → value map, read once here for every
// page (the order form's VAT note and trial rules, the support hours, the legal facts, the
// portal's grace days). One key, one shape, one cache entry (docs/how-to.md, "A read").
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SettingsMap } from "@/shared/api";
import { SUPPORT_HOURS } from "@/shared/constants";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

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

/** The settings (empty while loading or when the read failed), and whether they are on their way. */
export function useSettings(): { settings: SettingsMap; isLoading: boolean } {
  const { data, isLoading } = useQuery(settingsQueryOptions());
  return { settings: data ?? {}, isLoading };
}

/** When people answer: the support_hours setting, or the advertised hours (spec §1) until it loads. */
export function useSupportHours(): string {
  return useSettings().settings.support_hours?.trim() || SUPPORT_HOURS;
}
