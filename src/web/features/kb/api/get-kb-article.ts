// GET /api/kb/:slug: one published article with its body (the bare article, not {data}).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { KbArticle } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { ApiError, apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export function getKbArticle(slug: string, signal?: AbortSignal): Promise<KbArticle> {
  return apiGet<KbArticle>(`/kb/${encodeURIComponent(slug)}`, { signal });
}

export const kbArticleQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: [...queryKeys.kb, "article", slug],
    queryFn: ({ signal }) => getKbArticle(slug, signal),
    ...QUERY_CACHE.content,
    // A missing article stays missing; asking again only delays the 'not found' message.
    retry: (failureCount, error) => !(error instanceof ApiError && error.status === 404) && failureCount < 2,
  });

export function useKbArticle(slug: string) {
  return useQuery(kbArticleQueryOptions(slug));
}
