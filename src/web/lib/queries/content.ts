// GET /api/content?section=x: the editable homepage content (titles, texts, lists as JSON).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ContentSection } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export async function getContent(section: string, signal?: AbortSignal): Promise<ContentSection[]> {
  const body = await apiGet<{ data: ContentSection[] }>(`/content?section=${encodeURIComponent(section)}`, { signal });
  return body.data ?? [];
}

export const contentQueryOptions = (section: string) =>
  queryOptions({
    queryKey: [...queryKeys.content, section],
    queryFn: ({ signal }) => getContent(section, signal),
    ...QUERY_CACHE.content,
  });

/**
 * The first active record of a section, or null (loading, failed or missing: the caller shows
 * its defaults). `content` may arrive as a JSON string (spec §3); it is parsed here, and a
 * string that does not parse counts as no content.
 */
export function useContentSection(section: string): {
  section: ContentSection | null;
  content: Record<string, unknown>;
  isLoading: boolean;
} {
  const { data, isLoading } = useQuery(contentQueryOptions(section));
  const record = data?.[0] ?? null;
  return { section: record, content: parseContent(record?.content), isLoading };
}

export function parseContent(value: unknown): Record<string, unknown> {
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A list of non-empty strings from a content field, or null when the field is not one. */
export function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const items = value.filter((item): item is string => typeof item === "string" && item.trim() !== "").map((item) => item.trim());
  return items.length ? items : null;
}

/** A non-empty string from a content field, or null. */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}
