import { describe, expect, it } from "vitest";
import {
  PACKAGES_INITIAL_SYNC_MS,
  PACKAGES_RETRIES,
  packagesRetryDelay,
  QUERY_CACHE,
  SPECIALS_REFETCH_DELAY_MS,
  STATUS_REFETCH_AFTER_CHECK_MS,
  shouldRetryStatus,
  statusRetryDelay,
} from "./retry";

describe("packages retry — spec §9: 3 retries with delay min(300 × 2^n, 3000) ms", () => {
  it("retries 3 times", () => {
    expect(PACKAGES_RETRIES).toBe(3);
  });

  it.each([
    [0, 300],
    [1, 600],
    [2, 1200],
    [3, 2400],
    [4, 3000],
    [10, 3000],
  ])("attempt %i waits %i ms", (n, ms) => {
    expect(packagesRetryDelay(n)).toBe(ms);
  });
});

describe("status retry — spec §8: no retry with a code, else up to 3, 1 s base doubled, max 30 s", () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [20, 30_000],
  ])("attempt %i waits %i ms", (n, ms) => {
    expect(statusRetryDelay(n)).toBe(ms);
  });

  it.each([
    [0, new TypeError("Failed to fetch"), true],
    [2, new TypeError("Failed to fetch"), true],
    [3, new TypeError("Failed to fetch"), false],
    [0, Object.assign(new Error("db down"), { code: "unavailable" }), false],
    [0, { code: "PGRST301", message: "JWT expired" }, false],
    [0, { code: undefined, message: "no code after all" }, true],
    [0, { code: "" }, true],
    [1, null, true],
    [1, "text error", true],
  ])("failure %i, %o → retry %s", (count, error, retry) => {
    expect(shouldRetryStatus(count, error)).toBe(retry);
  });
});

describe("QUERY_CACHE — spec §9 caching and refresh", () => {
  it.each([
    ["packages", 10_000, 120_000, 3],
    ["settings", 120_000, 600_000, 3],
    ["testimonials", 300_000, 600_000, 2],
    ["images", 30_000, 60_000, 2],
    ["content", 30_000, 300_000, 2],
  ] as const)("%s: stale %i ms, cached %i ms, %i retries", (kind, staleTime, gcTime, retry) => {
    expect(QUERY_CACHE[kind]).toMatchObject({ staleTime, gcTime, retry });
  });

  it("packages refetch every 60 s, in the background too, with their backoff", () => {
    expect(QUERY_CACHE.packages).toMatchObject({ refetchInterval: 60_000, refetchIntervalInBackground: true });
    expect(QUERY_CACHE.packages.retryDelay?.(2)).toBe(1200);
    expect(PACKAGES_INITIAL_SYNC_MS).toBe(1000);
  });

  it("settings refresh every 300 s and not on focus", () => {
    expect(QUERY_CACHE.settings).toMatchObject({ refetchInterval: 300_000, refetchOnWindowFocus: false });
  });

  it("status: stale 30 s, cached 5 minutes, refetch every 60 s, on focus and on mount, §8 retry rule", () => {
    const status = QUERY_CACHE.status;
    expect(status).toMatchObject({
      staleTime: 30_000,
      gcTime: 300_000,
      refetchInterval: 60_000,
      refetchOnWindowFocus: true,
      refetchOnMount: true,
    });
    expect(status.retry).toBe(shouldRetryStatus);
    expect(status.retryDelay?.(0)).toBe(1000);
  });

  it("keeps the spec's other delays (specials 500 ms, status after a check 2 s)", () => {
    expect(SPECIALS_REFETCH_DELAY_MS).toBe(500);
    expect(STATUS_REFETCH_AFTER_CHECK_MS).toBe(2000);
  });
});
