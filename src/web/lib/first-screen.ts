// The first screen's reads, sent inside the page by the server (shared/first-screen.ts lists
// them) in <script id="boot-data" type="application/json">, keyed by GET path. They go into the
// query cache before the first render, as if just fetched: the navigation and the hero draw
// with their content at once, and go stale, refetch and follow live changes like any read.
import type { QueryClient } from "@tanstack/react-query";
import type { ListResponse, Notice, StatusResponse } from "@/shared/api";
import { brandingFromBody, brandingQueryOptions } from "./queries/branding";
import { imagesFromBody, imagesQueryOptions } from "./queries/images";
import { noticesQueryOptions } from "./queries/notices";
import { statusQueryOptions } from "./queries/status";
import { queryKeys } from "./query-keys";

export type BootData = Record<string, unknown>;

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
    switch (url.pathname) {
      case "/api/branding":
        queryClient.setQueryData(brandingQueryOptions().queryKey, brandingFromBody(body));
        break;
      case "/api/images": {
        const keys = (url.searchParams.get("keys") ?? "").split(",").filter(Boolean);
        queryClient.setQueryData(imagesQueryOptions(keys).queryKey, imagesFromBody(body));
        break;
      }
      case "/api/content": {
        const section = url.searchParams.get("section");
        // contentQueryOptions(section)'s key and value (queries/content.ts), without its code
        // in the landing's first chunk.
        if (section) queryClient.setQueryData([...queryKeys.content, section], (body as { data?: unknown[] }).data ?? []);
        break;
      }
      case "/api/status":
        queryClient.setQueryData(statusQueryOptions().queryKey, body as StatusResponse);
        break;
      case "/api/notices":
        queryClient.setQueryData(noticesQueryOptions().queryKey, body as ListResponse<Notice>);
        break;
    }
  }
}
