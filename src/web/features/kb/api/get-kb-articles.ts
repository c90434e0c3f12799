// GET /api/kb?q=&category=: published articles, best match first when searching.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { KbArticleSummary, ListResponse } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export interface KbFilter {
  q?: string;
  category?: string;
}

export async function getKbArticles({ q, category }: KbFilter, signal?: AbortSignal): Promise<KbArticleSummary[]> {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (category) params.set("category", category);
  const query = params.size ? `?${params}` : "";
  const body = await apiGet<ListResponse<KbArticleSummary>>(`/kb${query}`, { signal });
  return body.data ?? [];
}

// Help articles change about as often as homepage content, so they share its caching row.
export const kbArticlesQueryOptions = (filter: KbFilter) =>
  queryOptions({
    queryKey: [...queryKeys.kb, "articles", filter.q ?? "", filter.category ?? ""],
    queryFn: ({ signal }) => getKbArticles(filter, signal),
    ...QUERY_CACHE.content,
  });

/** The list for a filter; while a new search runs, the previous results stay on screen. */
export function useKbArticles(filter: KbFilter) {
  return useQuery({ ...kbArticlesQueryOptions(filter), placeholderData: keepPreviousData });
}
