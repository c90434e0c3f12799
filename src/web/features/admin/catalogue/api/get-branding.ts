// GET /api/admin/branding → {data: {setting_name: setting_value}}
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BrandingMap } from "@/shared/api";
import { apiGet } from "@/web/lib/api";

export const brandingKey = ["admin", "site_branding"] as const;

export function getBranding(signal?: AbortSignal): Promise<{ data: BrandingMap }> {
  return apiGet<{ data: BrandingMap }>("/admin/branding", { signal });
}

export const brandingQuery = queryOptions({
  queryKey: [...brandingKey, "map"],
  queryFn: ({ signal }) => getBranding(signal),
  select: (answer: { data: BrandingMap }) => answer.data,
});

export function useBranding() {
  return useQuery(brandingQuery);
}
