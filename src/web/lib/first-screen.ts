// The reads a page makes as it opens, sent inside the page by the server (shared/first-screen.ts
// lists them) in <script id="boot-data" type="application/json">, keyed by GET path. They go
// into the query cache before the first render, under the keys and in the shape the queries'
// own fetchers give them (lib/queries, features/*/api), as if just fetched: the page draws with
// its content at once, and the reads go stale, refetch and follow live changes like any other.
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";

export type BootData = Record<string, unknown>;

/** Reads answered as {data: ...}, cached as their data (a map for these two, else a list). */
const DATA_READS = ["branding", "settings", "packages", "specials", "banners", "downloads", "testimonials"] as const;
/** Reads answered as {data: {...}}, cached as that one object (the name is the queryKeys entry's). */
const OBJECT_READS: Record<string, keyof typeof queryKeys> = { "trial-availability": "trialAvailability" };
const MAP_READS = new Set(["branding", "settings"]);
/** Reads cached as the whole answer. */
const WHOLE_READS = ["status", "notices"] as const;

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
    const name = url.pathname.slice("/api/".length);
    const data = (body as { data?: unknown }).data;
    if ((DATA_READS as readonly string[]).includes(name)) {
      queryClient.setQueryData(queryKeys[name as (typeof DATA_READS)[number]], data ?? (MAP_READS.has(name) ? {} : []));
    } else if (name in OBJECT_READS) {
      if (data && typeof data === "object") queryClient.setQueryData(queryKeys[OBJECT_READS[name]], data);
    } else if ((WHOLE_READS as readonly string[]).includes(name)) {
      queryClient.setQueryData(queryKeys[name as (typeof WHOLE_READS)[number]], body);
    } else if (name === "content") {
      // contentQueryOptions(section)
      const section = url.searchParams.get("section");
      if (section) queryClient.setQueryData([...queryKeys.content, section], data ?? []);
    } else if (name === "images") {
      // imagesQueryOptions(keys): the keys sorted
      const keys = (url.searchParams.get("keys") ?? "").split(",").filter(Boolean).sort();
      queryClient.setQueryData([...queryKeys.images, keys.join(",")], data ?? []);
    }
  }
}
