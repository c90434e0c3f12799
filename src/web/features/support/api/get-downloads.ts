// GET /api/downloads: the active player apps (the setup guide lists the ones for the chosen
// device). Same key and shape as the downloads page's query, so they share one cache entry.
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

/** The apps that list this device among the ones they support (featured first, as the API sends them). */
export function useAppsForDevice(device: string): { apps: Download[]; isPending: boolean } {
  const { data, isPending } = useQuery(downloadsQueryOptions());
  const apps = (data ?? []).filter((app) => {
    const devices = Array.isArray(app.device_compatibility) ? app.device_compatibility : [app.device_compatibility];
    return devices.some((d) => typeof d === "string" && d.trim() === device);
  });
  return { apps, isPending };
}
