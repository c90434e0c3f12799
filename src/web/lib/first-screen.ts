// The reads a page makes as it opens, sent inside the page by the server (shared/first-screen.ts
// lists them) in <script id="boot-data" type="application/json">, keyed by GET path. They go
// into the query cache before the first render, under the keys and in the shape the queries'
// own fetchers give them (lib/queries, features/*/api), as if just fetched: the page draws with
// its content at once, and the reads go stale, refetch and follow live changes like any other.
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";

export type BootData = Record<string, unknown>;

/** Reads answered as {data: [...]} or {data: {...}}, cached as their data. */
const DATA_READS: Record<string, { key: readonly unknown[]; empty: unknown }> = {
  "/api/branding": { key: queryKeys.branding, empty: {} },
  "/api/settings": { key: queryKeys.settings, empty: {} },
  "/api/packages": { key: queryKeys.packages, empty: [] },
  "/api/specials": { key: queryKeys.specials, empty: [] },
  "/api/banners": { key: queryKeys.banners, empty: [] },
  "/api/downloads": { key: queryKeys.downloads, empty: [] },
  "/api/testimonials": { key: queryKeys.testimonials, empty: [] },
};
/** Reads cached as the whole answer. */
const WHOLE_READS: Record<string, readonly unknown[]> = {
  "/api/status": queryKeys.status,
  "/api/notices": queryKeys.notices,
};

/** The page's inlined reads; empty when there are none or the block does not parse. */
export function readBootData(doc: Document = document): BootData {
  const text = doc.getElementById("boot-data")?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as BootData) : {};
  } catch {
    return {};
  }
}

/** Puts each inlined read in the cache under its query's key; unknown paths are ignored. */
export function seedFirstScreen(queryClient: QueryClient, boot: BootData): void {
  for (const [path, body] of Object.entries(boot)) {
    if (body === null || typeof body !== "object") continue;
    const url = new URL(path, "http://page.invalid");
    const data = (body as { data?: unknown }).data;
    const read = DATA_READS[url.pathname];
    const whole = WHOLE_READS[url.pathname];
    if (read) queryClient.setQueryData(read.key, data ?? read.empty);
    else if (whole) queryClient.setQueryData(whole, body);
    else if (url.pathname === "/api/content") {
      // contentQueryOptions(section)
      const section = url.searchParams.get("section");
      if (section) queryClient.setQueryData([...queryKeys.content, section], data ?? []);
    } else if (url.pathname === "/api/images") {
      // imagesQueryOptions(keys): the keys sorted
      const keys = (url.searchParams.get("keys") ?? "").split(",").filter(Boolean).sort();
      queryClient.setQueryData([...queryKeys.images, keys.join(",")], data ?? []);
    }
  }
}
