// GET /api/downloads: the player apps, featured first (docs/how-to.md, "A read"). Pages shape
// it their own way (the downloads page falls back to the built-in names, the setup guide picks
// a device's apps) on top of this one query.
import { queryOptions } from "@tanstack/react-query";
import type { Download, ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

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
