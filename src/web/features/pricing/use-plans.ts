import { useMemo } from "react";
import { buildPlans, FALLBACK_PACKAGES, type PlanViewModel } from "@/shared/pricing";
import { usePackages } from "@/web/lib/queries/packages";
import { useSpecials } from "@/web/lib/queries/specials";

export interface PlansState {
  plans: PlanViewModel[];
  /** waiting for the first answer about packages and specials */
  isLoading: boolean;
  /** the packages read failed: its message (the fallback packages are shown meanwhile) */
  errorMessage: string | null;
  /** the built-in fallback packages are shown */
  isFallback: boolean;
}

/**
 * The plan cards: live packages with their specials applied; the built-in fallback packages
 * when the read fails or returns none (spec §7); the Free Trial plan on top (spec §4). A
 * failed specials read only means no specials are shown.
 */
export function usePlans(): PlansState {
  const packages = usePackages();
  const specials = useSpecials();
  const live = packages.data ?? [];
  const isFallback = packages.isError || (packages.isSuccess && live.length === 0);
  const source = isFallback ? FALLBACK_PACKAGES : live;
  const specialList = specials.data;
  const plans = useMemo(() => buildPlans(source, specialList ?? []), [source, specialList]);
  return {
    plans,
    isLoading: packages.isPending || specials.isPending,
    errorMessage: packages.isError ? errorMessage(packages.error) : null,
    isFallback,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
