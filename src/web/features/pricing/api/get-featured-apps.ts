// The dashboard cards' app logos, from the shared read of /api/downloads (the same cache entry,
// and live refresh, as the apps showcase).
import { useQuery } from "@tanstack/react-query";
import type { Download } from "@/shared/api";
import { downloadsQueryOptions } from "@/web/lib/queries/downloads";

export interface AppLogo {
  name: string;
  logoUrl: string;
}

/** Spec §2: up to 3 featured app logos (the list arrives featured first; apps without a logo are skipped). */
export function useFeaturedAppLogos(limit = 3): AppLogo[] {
  const { data } = useQuery(downloadsQueryOptions());
  return (data ?? [])
    .filter((app): app is Download & { logo_url: string } => Boolean(app.logo_url))
    .slice(0, limit)
    .map((app) => ({ name: app.name, logoUrl: app.logo_url }));
}
