// GET /api/images?keys=a,b: the image registry. Each key has a shipped fallback so a missing
// entry or a failed read still shows a picture (spec §9: /icon-192.png for pwa_icon).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ImageEntry } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export const IMAGE_FALLBACKS = {
  pwa_icon: "/icon-192.png",
  hero_logo: "/images/logo.svg",
  footer_logo: "/images/logo.svg",
  about_company_logo: "/images/logo.svg",
  footer_mascot: "/images/mascot.svg",
  testimonial_avatar: "/images/avatar.svg",
} as const;

export type ImageKey = keyof typeof IMAGE_FALLBACKS;

export async function getImages(keys: readonly string[], signal?: AbortSignal): Promise<ImageEntry[]> {
  const query = keys.length ? `?keys=${encodeURIComponent(keys.join(","))}` : "";
  const body = await apiGet<{ data: ImageEntry[] }>(`/images${query}`, { signal });
  return body.data ?? [];
}

export const imagesQueryOptions = (keys: readonly string[]) => {
  const sorted = [...keys].sort();
  return queryOptions({
    queryKey: [...queryKeys.images, sorted.join(",")],
    queryFn: ({ signal }) => getImages(sorted, signal),
    ...QUERY_CACHE.images,
  });
};

export interface RegisteredImage {
  src: string;
  alt: string;
}

/** The images for these keys, each from the registry or its fallback. */
export function useImages<K extends ImageKey>(keys: readonly K[]): Record<K, RegisteredImage> {
  const { data } = useQuery(imagesQueryOptions(keys));
  const result = {} as Record<K, RegisteredImage>;
  for (const key of keys) {
    const entry = data?.find((image) => image.image_key === key);
    result[key] = { src: entry?.image_url || IMAGE_FALLBACKS[key], alt: entry?.alt_text ?? "" };
  }
  return result;
}
