// Retry and caching rules of spec §8-§9, as plain values and functions shaped like TanStack
// Query options (no react-query import here: src/shared stays free of UI libraries). Spread a
// QUERY_CACHE entry into queryOptions. Attempt indexes are TanStack's failureCount: 0 for the
// first failure.

/** Spec §9 packages: 3 retries, delay min(300 × 2^n, 3000) ms. */
export const PACKAGES_RETRIES = 3;
export function packagesRetryDelay(attemptIndex: number): number {
  return Math.min(300 * 2 ** attemptIndex, 3000);
}

/** Spec §8 system status: exponential backoff, 1 s base, doubled, at most 30 s. */
export const STATUS_RETRIES = 3;
export function statusRetryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

/**
 * Spec §8: no retry when the error carries a code (the server answered with a reason, so
 * asking again won't help); otherwise up to 3 retries (network failures).
 */
export function shouldRetryStatus(failureCount: number, error: unknown): boolean {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    if (code !== undefined && code !== null && code !== "") return false;
  }
  return failureCount < STATUS_RETRIES;
}

export interface QueryCacheRule {
  /** ms */
  staleTime: number;
  /** ms ("cached"/"retained" in the spec) */
  gcTime: number;
  retry: number | ((failureCount: number, error: unknown) => boolean);
  retryDelay?: (attemptIndex: number) => number;
  refetchInterval?: number;
  refetchIntervalInBackground?: boolean;
  refetchOnWindowFocus?: boolean;
  refetchOnMount?: boolean;
}

export type QueryKind = "packages" | "settings" | "testimonials" | "images" | "content" | "status";

/** Spec §9 "Caching and refresh", one entry per kind of data. */
export const QUERY_CACHE: Readonly<Record<QueryKind, Readonly<QueryCacheRule>>> = Object.freeze({
  // stale 10 s, cached 120 s, 3 retries min(300 × 2^n, 3000), refetch every 60 s in the background too
  packages: {
    staleTime: 10_000,
    gcTime: 120_000,
    retry: PACKAGES_RETRIES,
    retryDelay: packagesRetryDelay,
    refetchInterval: 60_000,
    refetchIntervalInBackground: true,
  },
  // stale 120 s, cached 600 s, 3 retries, refresh every 300 s, no refetch on focus
  settings: { staleTime: 120_000, gcTime: 600_000, retry: 3, refetchInterval: 300_000, refetchOnWindowFocus: false },
  // stale 300 s, cached 600 s, 2 retries
  testimonials: { staleTime: 300_000, gcTime: 600_000, retry: 2 },
  // stale after 30 s, retained 1 minute, 2 retries
  images: { staleTime: 30_000, gcTime: 60_000, retry: 2 },
  // stale after 30 s, retained 5 minutes, 2 retries
  content: { staleTime: 30_000, gcTime: 300_000, retry: 2 },
  // stale 30 s, cached 5 minutes, refetch every 60 s, on focus and on mount; §8 retry rule
  status: {
    staleTime: 30_000,
    gcTime: 300_000,
    retry: shouldRetryStatus,
    retryDelay: statusRetryDelay,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  },
});

/** Spec §9: the packages' initial sync runs 1 s after start. */
export const PACKAGES_INITIAL_SYNC_MS = 1000;
/** Spec §7: specialsUpdated refetches after 500 ms. */
export const SPECIALS_REFETCH_DELAY_MS = 500;
/** Spec §7: after system-health-monitor, the status is refetched 2 s later. */
export const STATUS_REFETCH_AFTER_CHECK_MS = 2000;
