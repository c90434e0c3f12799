// GET /api/trial-availability: whether a free trial can start today (spec §1: "not available on
// sport event days"). Every free-trial button reads it, so on a blackout day the visitor is told
// before filling in the form, not by the form's refusal after it.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { TrialAvailability } from "@/shared/api";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";

export async function getTrialAvailability(signal?: AbortSignal): Promise<TrialAvailability> {
  const body = await apiGet<{ data: TrialAvailability }>("/trial-availability", { signal });
  return body.data;
}

export const trialAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.trialAvailability,
    queryFn: ({ signal }) => getTrialAvailability(signal),
    // A blackout day is set ahead of the match; the day turns at midnight. Within minutes is soon enough.
    staleTime: 60_000,
    gcTime: 10 * 60_000,
    refetchInterval: 5 * 60_000,
    retry: 2,
  });

/** Why no free trial today, as the buttons say it; null while trials are on or the answer is unknown. */
export interface TrialUnavailable {
  /** 'No Free Trial Today': the free-trial buttons' own words that day */
  label: string;
  /** one sentence for beside the button */
  text: string;
  /** the same, short, for a plan card */
  short: string;
}

export const NO_TRIAL_TODAY = "No Free Trial Today";

export function trialUnavailable(availability: TrialAvailability | undefined): TrialUnavailable | null {
  if (!availability || availability.available) return null;
  const reason = availability.reason ? ` (${availability.reason})` : "";
  return {
    label: NO_TRIAL_TODAY,
    text: `Free trials aren't available on sport event days, and today is one${reason}. Paid plans start as soon as you've paid.`,
    short: `Not available today: a sport event day${reason}.`,
  };
}

/**
 * Today's free-trial notice, or null. Unknown (still loading, or the read failed) counts as
 * available: the order form's own check still refuses a trial on a blackout day.
 */
export function useTrialUnavailable(): TrialUnavailable | null {
  return trialUnavailable(useQuery(trialAvailabilityQueryOptions()).data);
}
