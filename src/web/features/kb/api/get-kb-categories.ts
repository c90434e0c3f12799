// GET /api/kb/categories: {category, count} of published articles, by name.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export interface KbCategory {
  category: string;
  count: number;
}

export async function getKbCategories(signal?: AbortSignal): Promise<KbCategory[]> {
  const body = await apiGet<ListResponse<KbCategory>>("/kb/categories", { signal });
  return body.data ?? [];
}

export const kbCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.kb, "categories"],
    queryFn: ({ signal }) => getKbCategories(signal),
    ...QUERY_CACHE.content,
  });

export function useKbCategories() {
  return useQuery(kbCategoriesQueryOptions());
}
