// GET /api/partner/me → {name, username, email, credits, low_credits}, or 401 when signed out
// (the portal then shows its sign-in form).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PartnerMe } from "@/shared/reseller-schemas";
import { ApiError, apiGet } from "@/web/lib/api";
import { partnerKeys } from "./partner-keys";

/** The signed-in partner, or null when there is no partner session. */
export async function getPartnerMe(signal?: AbortSignal): Promise<PartnerMe | null> {
  try {
    return await apiGet<PartnerMe>("/partner/me", { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const partnerMeQuery = queryOptions({ queryKey: partnerKeys.me, queryFn: ({ signal }) => getPartnerMe(signal) });

export function usePartnerMe() {
  return useQuery(partnerMeQuery);
}
