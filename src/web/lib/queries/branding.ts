// GET /api/branding: the business's name, tagline, WhatsApp number and support e-mail.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BrandingMap } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

/** The product's own default name, shown only when branding has none (GET /api/manifest.webmanifest agrees). */
export const DEFAULT_COMPANY_NAME = "StreamDesk";

export async function getBranding(signal?: AbortSignal): Promise<BrandingMap> {
  const body = await apiGet<{ data: BrandingMap }>("/branding", { signal });
  return body.data ?? {};
}

// Branding changes about as often as site settings, so it shares their caching row.
export const brandingQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.branding,
    queryFn: ({ signal }) => getBranding(signal),
    ...QUERY_CACHE.settings,
  });

export interface Branding {
  companyName: string;
  tagline: string;
  whatsappNumber: string;
  supportEmail: string;
}

/** Branding with empty strings for what is missing; `isLoading` for a neutral placeholder. */
export function useBranding(): { branding: Branding; isLoading: boolean } {
  const { data, isLoading } = useQuery(brandingQueryOptions());
  return {
    isLoading,
    branding: {
      companyName: data?.company_name?.trim() || (isLoading ? "" : DEFAULT_COMPANY_NAME),
      tagline: data?.tagline?.trim() ?? "",
      whatsappNumber: data?.whatsapp_number?.trim() ?? "",
      supportEmail: data?.support_email?.trim() ?? "",
    },
  };
}
