// GET /api/downloads: active player apps, featured first (spec §7). When the read fails the
// built-in app names stand in, without download links (spec §8).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Download, ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";
import { BUILT_IN_APPS } from "../built-in-apps";

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

export interface DownloadsState {
  apps: readonly Download[];
  isLoading: boolean;
  /** the read failed: the built-in names are shown */
  isFallback: boolean;
}

export function useDownloads(): DownloadsState {
  const { data, isPending, isError } = useQuery(downloadsQueryOptions());
  if (isError) return { apps: BUILT_IN_APPS, isLoading: false, isFallback: true };
  return { apps: data ?? [], isLoading: isPending, isFallback: false };
}
