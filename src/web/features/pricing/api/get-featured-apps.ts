// GET /api/downloads, read for the dashboard cards' app logos. It shares the downloads query
// key, so the cache entry (and its live refresh) is the same one the apps showcase uses.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Download, ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getDownloads(signal?: AbortSignal): Promise<Download[]> {
  const body = await apiGet<ListResponse<Download>>("/downloads", { signal });
  return body.data ?? [];
}

export const downloadsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.downloads,
    queryFn: ({ signal }) => getDownloads(signal),
    ...QUERY_CACHE.content,
  });

export interface AppLogo {
  name: string;
  logoUrl: string;
}

/** Spec §2: up to 3 featured app logos (the list arrives featured first; apps without a logo are skipped). */
export function useFeaturedAppLogos(limit = 3): AppLogo[] {
  const { data } = useQuery(downloadsQueryOptions());
  return (data ?? [])
    .filter((app): app is Download & { logo_url: string } => Boolean(app.logo_url))
    .slice(0, limit)
    .map((app) => ({ name: app.name, logoUrl: app.logo_url }));
}
