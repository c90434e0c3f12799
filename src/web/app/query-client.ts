import { QueryClient } from "@tanstack/react-query";
import { shouldRetryStatus } from "@/shared/retry";

/**
 * Defaults for every query; each endpoint's queryOptions then applies its own row of the
 * spec's caching table (QUERY_CACHE). An answer with an error code is not retried: asking
 * again would get the same answer.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        retry: (failureCount, error) => failureCount < 2 && shouldRetryStatus(failureCount, error),
      },
      mutations: { retry: false },
    },
  });
}
